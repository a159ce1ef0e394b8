/**
 * The fast cut path places violations by `Violation.index` (ours), not by the raw index: raw
 * indices that repeat (a retry fault's copy, a Vercel AI / Gemini CLI source message split into
 * several of ours, Claude Code lines merged per reply) keep the fast path and its agreement with
 * the reference.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  arbAnyTranscript,
  arbTranscript,
  arbValidTranscript,
  assistant,
  transcript,
  user,
} from '../testing/index.ts';
import type { ProviderId, Transcript } from '../types.ts';
import { merges } from './cutTables.ts';
import { prepareCuts, type CutContext } from './simulate.ts';
import { spansCuts } from '../testing/spansCuts.reference.ts';
import { expectCutAgrees } from '../testing/evict.ts';

/** Transcripts whose cuts take the direct path by design (spansCuts.ts); every other stays fast. */
function requestWide(ctx: CutContext): boolean {
  return spansCuts(ctx.full, merges(ctx.provider), ctx.t.messages);
}

const CASES: { format: 'anthropic-messages' | 'openai-chat'; provider: ProviderId }[] = [
  { format: 'anthropic-messages', provider: 'anthropic' },
  { format: 'openai-chat', provider: 'openai-chat' },
];

const arbAny = (format: 'anthropic-messages' | 'openai-chat') =>
  fc.oneof(arbValidTranscript(format), arbTranscript(format), arbAnyTranscript(format));

/** The same transcript with raw indices that repeat: a run of `true` keeps the previous raw index. */
function withRepeatedRaw(t: Transcript, sameAsPrevious: readonly boolean[]): Transcript {
  let raw = -1;
  return {
    ...t,
    messages: t.messages.map((m, i) => {
      if (i === 0 || !sameAsPrevious[i % sameAsPrevious.length]) raw++;
      return { ...m, rawIndex: raw };
    }),
  };
}

describe.each(CASES)(
  'fast cut path with repeated raw indices ($provider)',
  ({ format, provider }) => {
    it('stays on the fast path and agrees with the reference at every cut', () => {
      fc.assert(
        fc.property(
          arbAny(format),
          fc.array(fc.boolean(), { minLength: 1, maxLength: 16 }),
          (t0, same) => {
            const t = withRepeatedRaw(t0, same);
            const ctx = prepareCuts(t, provider);
            expect(ctx.fast).toBe(!requestWide(ctx));
            for (let k = 0; k <= t.messages.length; k++) {
              const ref = expectCutAgrees(ctx, t, provider, k);
              for (const v of ref.violations) {
                if (v.index < 0) continue;
                expect(t.messages[v.index]?.rawIndex).toBe(v.messageIndex);
              }
            }
          },
        ),
        { numRuns: 300 },
      );
    }, 60_000);

    it('falls back to the slow path when a message index is not its position', () => {
      const t0 = transcript(format, [user('a'), assistant('b'), user('c')]);
      // A faulted transcript before display re-indexing: the message after a copy keeps its index.
      const t = { ...t0, messages: t0.messages.map((m, i) => ({ ...m, index: Math.min(i, 1) })) };
      expect(prepareCuts(t, provider).fast).toBe(false);
    });
  },
);
