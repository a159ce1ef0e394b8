import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { ToolPair } from '../../model/pairing.ts';
import { pairSpan } from './arcLayout.ts';
import { indexPairs, SHORT_SPAN, visiblePairs } from './arcIndex.ts';

const pair = (k: number, call: number | null, result: number | null): ToolPair => ({
  key: `p${k}`,
  id: `t${k}`,
  name: 'Read',
  call: call === null ? null : { message: call, block: 0 },
  result: result === null ? null : { message: result, block: 0 },
  status: call !== null && result !== null ? 'answered' : call !== null ? 'unanswered' : 'orphan',
  partial: false,
  server: false,
});

describe('visiblePairs', () => {
  it('returns exactly the pairs whose span meets the range (property, against a full scan)', () => {
    const arbPair = fc.tuple(
      fc.option(fc.integer({ min: 0, max: 2000 }), { nil: null }),
      fc.integer({ min: 0, max: 3 * SHORT_SPAN }),
      fc.boolean(),
    );
    fc.assert(
      fc.property(
        fc.array(arbPair, { maxLength: 300 }),
        fc.integer({ min: 0, max: 2100 }),
        fc.integer({ min: 0, max: 400 }),
        (spec, lo, width) => {
          const pairs = spec.map(([c, len, open], k) =>
            c === null ? pair(k, null, len) : pair(k, c, open ? null : c + len),
          );
          const hi = lo + width;
          const want = pairs.flatMap((p, pos) => {
            const s = pairSpan(p);
            return s && s.start <= hi && s.end >= lo ? [pos] : [];
          });
          expect(visiblePairs(indexPairs(pairs), lo, hi)).toEqual(want);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('at 100,000 messages looks at the pairs near the view, not all of them', () => {
    const pairs: ToolPair[] = [];
    for (let m = 0; m < 100_000; m += 2) pairs.push(pair(pairs.length, m, m + 1));
    pairs.push(pair(pairs.length, 10, 99_990)); // one very late answer crosses every view
    const index = indexPairs(pairs);
    const got = visiblePairs(index, 50_000, 50_030);
    expect(got.length).toBe(16 + 1);
    expect(got).toContain(pairs.length - 1);
  });
});
