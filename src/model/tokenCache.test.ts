import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generate } from '../../scripts/gen.ts';
import { parseTranscript } from './parse/index.ts';
import { countTokensCached, SLICE_CHARS, TokenCache, TokenCounting } from './tokenCache.ts';
import { assistant, msg, transcript, user } from './testing/index.ts';
import {
  CHARS_PER_4,
  countingPieces,
  countTokens,
  loadBpeCounter,
  type TextCounter,
} from './tokens.ts';
import type { Block, ProviderId, Role } from './types.ts';

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

  it('a huge message spans several slices under a char budget, same table (property)', () => {
    // A piecewise counter (like the BPE): count(text) = sum over countingPieces(text, 50).
    const piecewise: TextCounter & { calls: number } = {
      encoding: 'nonspace',
      pieceChars: 50,
      calls: 0,
      count: (s) => {
        piecewise.calls++;
        return countingPieces(s, 50).reduce((n, p) => n + p.replace(/\s/g, '').length, 0);
      },
    };
    const big = transcript('anthropic-messages', [
      user('short question'),
      assistant('a'.repeat(3000) + ' word'.repeat(200)),
      user('y'.repeat(2500)),
    ]);
    const whole = countTokens(big, 'openai-chat', piecewise);
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 3 }), fc.integer({ min: 1, max: 800 }), (m, chars) => {
        const c = new TokenCounting(big, 'openai-chat', piecewise, new TokenCache());
        let slices = 0;
        while (!c.done) {
          c.countSlice(m, chars);
          slices++;
        }
        expect(c.table().perMessage).toEqual(whole.perMessage);
        // 7,000+ chars cannot go in fewer slices than the budget allows
        expect(slices).toBeGreaterThanOrEqual(Math.min(3, Math.floor(7000 / (chars + 50))));
      }),
      { numRuns: 60 },
    );
  });

  it('the BPE counts a 400 KB one-character message in more than one slice (the worker can yield)', async () => {
    const bpe = await loadBpeCounter('o200k_base');
    const t400 = transcript('anthropic-messages', [user('y'.repeat(400_000))]);
    const cache = new TokenCache();
    const c = new TokenCounting(t400, 'openai-chat', bpe, cache);
    expect(c.countSlice(4000)).toBe(0); // budget spent inside the message
    expect(c.done).toBe(false);
    let slices = 1;
    while (!c.done) {
      c.countSlice(4000);
      slices++;
    }
    expect(slices).toBe(Math.ceil(400_000 / SLICE_CHARS));
    expect(c.table().perMessage[0]).toBe(100_000 + 3);
    expect(c.table().perMessage).toEqual(countTokens(t400, 'openai-chat', bpe).perMessage);
    expect(c.table().basis).toEqual(countTokens(t400, 'openai-chat', bpe).basis); // hard cuts named
    expect(c.table().basis.label).toContain('199 hard cuts');
    // the block's count (and its hard cuts) are cached once complete
    const again = new TokenCounting(t400, 'openai-chat', bpe, cache);
    expect(again.countSlice(1)).toBe(1);
    expect(again.table().basis.label).toContain('199 hard cuts');
  });

  it('chars/4 from text lengths equals chars/4 of the built texts, blocks and usage too (property)', () => {
    // The general path: a counter that counts chars/4 but is not CHARS_PER_4 (its fast path).
    const built: TextCounter = { encoding: 'chars/4', count: CHARS_PER_4.count };
    const text = fc.string({ unit: 'grapheme', maxLength: 12 });
    const inner = fc.oneof(
      text.map((s): Block => ({ type: 'text', text: s })),
      fc.constant<Block>({ type: 'image', mediaType: 'image/png' }),
      fc
        .option(fc.nat(5000), { nil: undefined })
        .map((bytes): Block => ({ type: 'document', ...(bytes !== undefined ? { bytes } : {}) })),
    );
    const block = fc.oneof(
      inner,
      text.map((s): Block => ({ type: 'thinking', thinking: s, signature: 'sig' })),
      fc
        .tuple(text, fc.oneof(text, fc.dictionary(text, text, { maxKeys: 3 }), fc.constant(null)))
        .map(([name, input]): Block => ({ type: 'tool_use', id: 't', name, input })),
      fc
        .array(inner, { maxLength: 3 })
        .map(
          (content): Block => ({ type: 'tool_result', toolUseId: 't', isError: false, content }),
        ),
      fc.constant<Block>({ type: 'redacted_thinking', bytes: 10 }),
      fc.jsonValue().map((raw): Block => ({ type: 'other', label: 'x', raw })),
    );
    const message = fc.record({
      role: fc.constantFrom<Role>('user', 'assistant', 'tool'),
      blocks: fc.array(block, { maxLength: 4 }),
      usage: fc.option(fc.nat(900), { nil: undefined }),
    });
    fc.assert(
      fc.property(
        fc.array(message, { maxLength: 8 }),
        fc.constantFrom<ProviderId>('anthropic', 'openai-chat', 'gemini'),
        fc.boolean(),
        (ms, provider, preferUsage) => {
          const tr = transcript(
            'anthropic-messages',
            ms.map(({ role, blocks, usage }) => ({
              ...msg(role, blocks),
              ...(usage !== undefined ? { meta: { usageOutputTokens: usage } } : {}),
            })),
          );
          const opts = { preferUsage };
          const fast = countTokensCached(tr, provider, CHARS_PER_4, new TokenCache(), opts);
          const slow = countTokensCached(tr, provider, built, new TokenCache(), opts);
          expect(fast).toEqual(slow);
        },
      ),
    );
    // And on a generated log (usage figures on its replies), as the worker's answer counts it.
    for (const preferUsage of [true, false])
      expect(
        countTokensCached(t, 'anthropic', CHARS_PER_4, new TokenCache(), { preferUsage }),
      ).toEqual(countTokensCached(t, 'anthropic', built, new TokenCache(), { preferUsage }));
  });

  it('chars/4 counts everything in one slice (no default budget for the placeholder)', () => {
    const c = new TokenCounting(t, 'anthropic', CHARS_PER_4, new TokenCache());
    c.countSlice(t.messages.length);
    expect(c.done).toBe(true);
  });
});
