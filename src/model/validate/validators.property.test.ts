import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { groupExchanges, isPinned } from '../exchanges.ts';
import { analyze } from '../analyze.ts';
import { arbAnyTranscript, arbTranscript, arbValidTranscript, renumber } from '../testing/index.ts';
import type { Message, Transcript } from '../types.ts';
import { VALIDATORS, validateTranscript } from './index.ts';
import {
  pairingOf,
  referenceAnthropic,
  referenceOpenAIChat,
} from '../testing/validate.reference.ts';

/** Drop whole exchanges (by a bitmask) from a transcript; pinned messages stay. */
function dropExchanges(t: Transcript, mask: boolean[]): Transcript {
  const { exchangeOf } = groupExchanges(t.messages);
  const kept: Message[] = t.messages.filter((_, i) => {
    const x = exchangeOf[i] as number;
    return x < 0 || !mask[x % mask.length];
  });
  return renumber(t, kept);
}

describe('validators agree with the slow reference on generated transcripts', () => {
  it('anthropic: same pairing violations (A1, A2, A5, A6, A6b), same order', () => {
    fc.assert(
      fc.property(arbTranscript('anthropic-messages'), (t) => {
        expect(pairingOf(validateTranscript(t, 'anthropic').violations)).toEqual(
          referenceAnthropic(t.messages),
        );
      }),
      { numRuns: 400 },
    );
  });
  it('openai-chat: same pairing violations (O1, O2, O3, O6), same order', () => {
    fc.assert(
      fc.property(arbTranscript('openai-chat'), (t) => {
        expect(pairingOf(validateTranscript(t, 'openai-chat').violations)).toEqual(
          referenceOpenAIChat(t.messages),
        );
      }),
      { numRuns: 400 },
    );
  });
});

describe('exchanges are the safe unit of eviction', () => {
  for (const format of ['anthropic-messages', 'openai-chat'] as const) {
    it(`${format}: generated transcripts are valid, and dropping any set of whole exchanges keeps them valid (or empty: a 400 of its own)`, () => {
      fc.assert(
        fc.property(
          arbValidTranscript(format),
          fc.array(fc.boolean(), { minLength: 1, maxLength: 6 }),
          (t, mask) => {
            expect(validateTranscript(t).valid).toBe(true);
            const cut = dropExchanges(t, mask);
            const errors = validateTranscript(cut).violations.filter((x) => x.severity === 'error');
            // Dropping every exchange leaves an empty request: a 400 of its own (A14, O8).
            const sent = cut.messages.filter((m) => format === 'openai-chat' || !isPinned(m));
            if (sent.length === 0) expect(errors.map((x) => x.rule)).toEqual(['empty_request']);
            else expect(errors).toEqual([]);
          },
        ),
        { numRuns: 300 },
      );
    });
  }
});

describe('the unique-ids hint (pairing found no duplicate_id) changes nothing', () => {
  for (const format of ['anthropic-messages', 'openai-chat'] as const) {
    it(`${format}: analyze's validation equals a validation without the hint, for every provider`, () => {
      fc.assert(
        fc.property(arbAnyTranscript(format), (t) => {
          for (const v of VALIDATORS)
            expect(analyze(t, v.id).validation).toEqual(validateTranscript(t, v.id));
        }),
        { numRuns: 300 },
      );
    });
  }
});
