import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arbTranscript } from '../testing/index.ts';
import { validateTranscript } from './index.ts';
import { referenceMistral } from '../testing/validate.reference.chat.ts';
import { pairingOf, referenceOpenAIChat } from '../testing/validate.reference.ts';

describe('OpenAI-compatible dialects agree with the slow references on generated transcripts', () => {
  // DeepSeek and Qwen answer OpenAI's pairing faults in their own words (D1/D2, Q1/Q2); a second
  // result for one call has no capture there, so it is a warning (OW2), not the O6 error.
  for (const provider of ['deepseek', 'qwen'] as const) {
    it(`${provider}: the O1–O3 classes at the same messages, in the same order`, () => {
      fc.assert(
        fc.property(arbTranscript('openai-chat'), (t) => {
          const expected = referenceOpenAIChat(t.messages).filter(
            (v) => v.rule !== 'duplicate_result',
          );
          expect(pairingOf(validateTranscript(t, provider).violations)).toEqual(expected);
        }),
        { numRuns: 300 },
      );
    });
  }
  it('mistral: the same M1–M3 and M5 findings, at the same messages, in the same order', () => {
    fc.assert(
      fc.property(arbTranscript('openai-chat'), (t) => {
        const got = validateTranscript(t, 'mistral').violations.flatMap((v) =>
          /^M[1235]$/.test(v.code) ? [{ code: v.code, messageIndex: v.messageIndex }] : [],
        );
        expect(got).toEqual(referenceMistral(t.messages));
      }),
      { numRuns: 300 },
    );
  });
});
