import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generate } from '../../scripts/gen.ts';
import { parseTranscript } from './parse/index.ts';
import { countTokensCached, TokenCache, TokenCounting } from './tokenCache.ts';
import { CHARS_PER_4, countTokens, type TextCounter } from './tokens.ts';
import type { ProviderId } from './types.ts';

const parsed = parseTranscript(generate({ format: 'claude-code-jsonl', messages: 400, seed: 9 }), {
  name: 'log.jsonl',
});
if (!parsed.ok) throw new Error('fixture did not parse');
const t = parsed.value.transcript;

/** A fake BPE (words) that counts its calls, so cache hits are visible. */
function wordCounter(): TextCounter & { calls: number } {
  const c = {
    encoding: 'words',
    calls: 0,
    count: (s: string) => {
      c.calls++;
      return s.split(/\s+/).filter(Boolean).length;
    },
  };
  return c;
}

describe('TokenCounting', () => {
  it('equals countTokens for every provider when usage is not preferred', () => {
    for (const p of ['anthropic', 'openai-chat', 'gemini'] as ProviderId[]) {
      const counter = wordCounter();
      const a = countTokensCached(t, p, counter, new TokenCache());
      const b = countTokens(t, p, counter);
      expect(a.perMessage).toEqual(b.perMessage);
      expect(a.prefix).toEqual(b.prefix);
      expect(a.total).toBe(b.total);
      expect(a.basis).toEqual(b.basis);
    }
  });

  it('counts each block once per encoding: a provider switch re-scales cached counts', () => {
    const counter = wordCounter();
    const cache = new TokenCache();
    countTokensCached(t, 'anthropic', counter, cache);
    const first = counter.calls;
    const b = countTokensCached(t, 'openai-chat', counter, cache);
    expect(counter.calls - first).toBe(0); // only the system prompt is counted again (none here)
    expect(b.perMessage).toEqual(countTokens(t, 'openai-chat', counter).perMessage);
  });

  it('counted in slices of any size, gives the same table (property)', () => {
    const whole = countTokensCached(t, 'anthropic', CHARS_PER_4, new TokenCache());
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 500 }), (slice) => {
        const c = new TokenCounting(t, 'anthropic', CHARS_PER_4, new TokenCache());
        while (!c.done) c.countSlice(slice);
        expect(c.table().perMessage).toEqual(whole.perMessage);
      }),
      { numRuns: 20 },
    );
  });

  it('uses the log’s own output usage for replies when asked, and says so', () => {
    const withUsage = t.messages.filter(
      (m) => m.role === 'assistant' && (m.meta?.usageOutputTokens ?? 0) > 0,
    );
    expect(withUsage.length).toBeGreaterThan(0);
    const m = withUsage[0];
    if (!m) return;
    const table = countTokensCached(t, 'anthropic', CHARS_PER_4, new TokenCache(), {
      preferUsage: true,
    });
    expect(table.perMessage[m.index]).toBe(3 + (m.meta?.usageOutputTokens ?? 0));
    expect(table.basis.label).toMatch(/replies from the log's usage/);
  });
});
