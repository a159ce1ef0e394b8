import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyze, verdictOf } from './analyze.ts';
import { arbAnyTranscript, arbTranscript } from './testing/index.ts';
import { VALIDATORS } from './validate/index.ts';
import type { ProviderId } from './types.ts';

/**
 * `check` prints `verdictOf`'s answer instead of `analyze`'s (issue 38): the same violations,
 * notes and counts on any transcript, for every provider, duplicate tool_use ids included (the
 * validator checks them itself when no pairing said they are unique).
 */
describe('verdictOf gives analyze’s verdict without the pairs', () => {
  it('on any transcript and provider', () => {
    const providers = VALIDATORS.map((v) => v.id) as ProviderId[];
    fc.assert(
      fc.property(
        fc.oneof(
          arbAnyTranscript('anthropic-messages', 30),
          arbAnyTranscript('openai-chat', 30),
          arbTranscript('anthropic-messages'),
          arbTranscript('openai-chat'),
        ),
        fc.option(fc.constantFrom(...providers), { nil: undefined }),
        (t, provider) => {
          const a = analyze(t, provider);
          const v = verdictOf(t, provider);
          expect(v.provider).toBe(a.provider);
          expect(v.validation).toEqual(a.validation);
          expect(v.exchanges).toBe(a.grouping.exchanges.length);
          expect(v.toolCalls).toBe(
            a.pairs.filter((p) => p.call !== null && p.status !== 'duplicate_result').length,
          );
        },
      ),
      { numRuns: 400 },
    );
  });
});
