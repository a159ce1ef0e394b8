import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arbAnyTranscript, arbTranscript } from '../testing/index.ts';
import { validateTranscript } from './index.ts';
import { referenceBedrock, referenceGemini } from '../testing/validate.reference.turns.ts';

const arbAny = fc.oneof(arbTranscript('anthropic-messages'), arbTranscript('openai-chat'));

describe('Bedrock and Gemini validators agree with the slow references on generated transcripts', () => {
  it('bedrock: the same B1–B4, B8, B9, B11 and B12 findings, at the same messages, in the same order', () => {
    fc.assert(
      fc.property(arbAny, (t) => {
        const real = validateTranscript(t, 'bedrock')
          .violations.filter((v) =>
            ['B1', 'B2', 'B3', 'B4', 'B8', 'B9', 'B11', 'B12'].includes(v.code),
          )
          .map((v) => ({ code: v.code, messageIndex: v.messageIndex }));
        expect(real).toEqual(referenceBedrock(t.messages, false));
      }),
      { numRuns: 400 },
    );
  });

  it('bedrock: the same B11 and B12 findings (empty messages, blank text) as the reference', () => {
    const arbBlank = fc.oneof(
      arbAnyTranscript('anthropic-messages'),
      arbAnyTranscript('openai-chat'),
    );
    fc.assert(
      fc.property(arbBlank, (t) => {
        const real = validateTranscript(t, 'bedrock')
          .violations.filter((v) => ['B3', 'B4', 'B11', 'B12'].includes(v.code))
          .map((v) => ({ code: v.code, messageIndex: v.messageIndex }));
        const ref = referenceBedrock(t.messages, false).filter((f) =>
          ['B3', 'B4', 'B11', 'B12'].includes(f.code),
        );
        expect(real).toEqual(ref);
      }),
      { numRuns: 400 },
    );
  });

  it('gemini: the same G1–G3 findings in the same order (G1/G2 at the same messages)', () => {
    fc.assert(
      fc.property(arbAny, (t) => {
        const real = validateTranscript(t, 'gemini')
          .violations.filter((v) => ['G1', 'G2', 'G3'].includes(v.code) && v.severity === 'error')
          .map((v) => ({ code: v.code, messageIndex: v.code === 'G3' ? -1 : v.messageIndex }));
        expect(real).toEqual(referenceGemini(t.messages, false));
      }),
      { numRuns: 400 },
    );
  });
});
