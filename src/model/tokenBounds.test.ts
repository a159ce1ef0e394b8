/**
 * The text-only bounds (tokenBounds.ts): every o200k count lies between them, and the chain's
 * sizes equal the whole request's.
 */
import fc from 'fast-check';
import { beforeAll, describe, expect, it } from 'vitest';
import { arbTranscript } from './testing/arbitraries.ts';
import { parsed } from './testing/index.ts';
import { alnumCount, o200kTextBounds, textSize, textSizeChain } from './tokenBounds.ts';
import { countTokens, loadBpeCounter, type TextCounter } from './tokens.ts';

let bpe: TextCounter;
beforeAll(async () => {
  bpe = await loadBpeCounter();
});

describe('o200kTextBounds', () => {
  it('holds every o200k count: random text, hex runs, CJK, emoji, long letter runs', () => {
    const arbText = fc.oneof(
      fc.string({ maxLength: 300 }),
      fc.string({ unit: 'binary', maxLength: 200 }),
      fc.stringMatching(/^[0-9a-f]{0,3000}$/),
      fc.constantFrom(
        'abcdefghijklmnopqrstuvwxyz'.repeat(200),
        'x'.repeat(5000),
        '漢字'.repeat(900),
      ),
      fc.lorem({ maxCount: 300 }),
    );
    fc.assert(
      fc.property(fc.array(arbText, { minLength: 1, maxLength: 4 }), (texts) => {
        const t = parsed({
          model: 'gpt-4o',
          messages: texts.map((c) => ({ role: 'user', content: c })),
        }).transcript;
        const table = countTokens(t, 'openai-chat', bpe);
        const size = textSize(t);
        const [lo, hi] = o200kTextBounds(size, alnumCount(t));
        const text = table.total - size.framing - size.fixed;
        expect(text).toBeGreaterThanOrEqual(lo);
        expect(text).toBeLessThanOrEqual(hi);
      }),
      { numRuns: 150 },
    );
  });
});

describe('textSizeChain', () => {
  it('equals textSize along a chain of growing and rewritten requests', () => {
    fc.assert(
      fc.property(
        arbTranscript('anthropic-messages'),
        fc.array(fc.nat(), { maxLength: 6 }),
        (t, cuts) => {
          const size = textSizeChain();
          let list = t.messages.slice(0, 1);
          expect(size(t, list)).toEqual(textSize(t, list));
          for (const c of cuts) {
            // Grow by one or two messages, or drop back to a shorter prefix (a rewritten request).
            const end =
              c % 3 === 0
                ? c % (list.length + 1)
                : Math.min(t.messages.length, list.length + 1 + (c % 2));
            list = t.messages.slice(0, end);
            expect(size(t, list)).toEqual(textSize(t, list));
          }
        },
      ),
    );
  });
});

describe('alnumCount with stopAt', () => {
  it('stops once enough are found: at least stopAt, at most the full count', () => {
    const t = parsed({
      model: 'gpt-4o',
      messages: Array.from({ length: 20 }, (_, i) => ({
        role: i % 2 ? 'assistant' : 'user',
        content: 'abc def '.repeat(100),
      })),
    }).transcript;
    const full = alnumCount(t);
    expect(full).toBe(20 * 600);
    for (const stop of [0, 1, 599, 600, 5_000, full, full + 1]) {
      const n = alnumCount(t, t.messages, stop);
      expect(n).toBeGreaterThanOrEqual(Math.min(stop, full));
      expect(n).toBeLessThanOrEqual(full);
    }
    expect(alnumCount(t, t.messages, 1_000)).toBeLessThan(full);
  });
});
