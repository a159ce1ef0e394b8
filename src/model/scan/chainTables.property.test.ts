import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  arbEvent,
  codexLogOf,
  FIX_THEN_TESTS,
  logOf,
  requestsOf,
  type Event,
} from '../testing/sessionEvents.ts';
import { countTokensCached, TokenCache, TokenChain } from '../tokenCache.ts';
import { CHARS_PER_4, type TextCounter } from '../tokens.ts';
import type { Transcript } from '../types.ts';
import { defaultProviderOf } from '../validate/index.ts';

/** A counter that cuts long texts into pieces and is not chars/4 (scaled, with hard cuts). */
const PIECES: TextCounter = {
  encoding: 'test-pieces',
  count: (s) => Math.ceil(s.length / 3),
  pieceChars: 7,
};

const arbLog = fc.tuple(fc.array(arbEvent, { minLength: 1, maxLength: 45 }), fc.boolean());

function logText([ev, codex]: [Event[], boolean]): { text: string; name: string } {
  return codex ? { text: codexLogOf(ev), name: 'r.jsonl' } : { text: logOf(ev), name: 'f.jsonl' };
}

describe('the tables a chain of calls resumes from the call before', () => {
  it('TokenChain: each call’s table equals the fresh count of its transcript', () => {
    fc.assert(
      fc.property(
        arbLog,
        fc.constantFrom(CHARS_PER_4, PIECES),
        fc.boolean(),
        (log, counter, usage) => {
          const { text, name } = logText(log);
          const chains = new Map<object, TokenChain>();
          const opts = { preferUsage: usage };
          const cache = new TokenCache();
          const reqs = requestsOf(text, name);
          // Usage figures on some replies (the generated logs carry none): set once on the
          // shared message objects, the same for every call that holds them.
          for (const r of reqs)
            for (const m of r.transcript.messages)
              if (m.role === 'assistant' && m.index % 3 === 0)
                m.meta = { ...m.meta, usageOutputTokens: 5 + (m.index % 7) };
          for (const r of reqs) {
            const t: Transcript = r.transcript;
            const provider = defaultProviderOf(t);
            const key = r.tables ?? {};
            let chain = chains.get(key);
            if (!chain) chains.set(key, (chain = new TokenChain(counter, cache, opts)));
            const fresh = countTokensCached(t, provider, counter, new TokenCache(), opts);
            expect(chain.table(t, provider)).toEqual(fresh);
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('TokenChain: a transcript that does not extend the last one is counted afresh', () => {
    const { text, name } = logText([[...FIX_THEN_TESTS], false]);
    const reqs = requestsOf(text, name);
    const chain = new TokenChain(CHARS_PER_4, new TokenCache());
    const last = reqs[reqs.length - 1]?.transcript as Transcript;
    const p = defaultProviderOf(last);
    chain.table(last, p);
    // Fewer messages, then the same count with other message objects in the counted places.
    const shorter = { ...last, messages: last.messages.slice(0, 2) };
    expect(chain.table(shorter, p)).toEqual(
      countTokensCached(shorter, p, CHARS_PER_4, new TokenCache()),
    );
    const other = {
      ...last,
      messages: last.messages.map((m) => ({
        ...m,
        blocks: [{ type: 'text' as const, text: 'x' }],
      })),
    };
    expect(chain.table(other, p)).toEqual(
      countTokensCached(other, p, CHARS_PER_4, new TokenCache()),
    );
  });
});
