import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { grown } from './grownArray.ts';

describe('grown typed arrays', () => {
  it('holds at least n, keeps the first `used` values and its kind; the same array when it has room', () => {
    fc.assert(
      fc.property(
        fc.array(fc.integer({ min: -1000, max: 1000 }), { maxLength: 40 }),
        fc.nat(40),
        fc.nat(100),
        (values, usedAsked, n) => {
          const a = Int32Array.from(values);
          const used = Math.min(usedAsked, a.length);
          const b = grown(a, used, n);
          expect(b).toBeInstanceOf(Int32Array);
          expect(b.length).toBeGreaterThanOrEqual(n);
          expect(Array.from(b.subarray(0, used))).toEqual(values.slice(0, used));
          if (a.length >= n) expect(b).toBe(a);
          else expect(b.length).toBeGreaterThanOrEqual(2 * a.length);
        },
      ),
    );
    expect(grown(new Float64Array(0), 0, 1)).toBeInstanceOf(Float64Array);
  });
});
