import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Thinned } from './thinLine.ts';

/**
 * The definition for finite y, column by column: first, lowest, highest, last (all of a column
 * of ≤ 4), the lowest and highest being the first such between the first and the last.
 */
function reference(points: [number, number][]): [number, number][] {
  const out: [number, number][] = [];
  let col: [number, number][] = [];
  const flush = () => {
    const n = col.length;
    if (n <= 4) out.push(...col);
    else {
      const mid = col.slice(1, -1);
      const ys = mid.map((p) => p[1]);
      const lo = ys.indexOf(Math.min(...ys));
      const hi = ys.indexOf(Math.max(...ys));
      out.push(col[0] as [number, number]);
      for (const i of lo === hi ? [lo] : lo < hi ? [lo, hi] : [hi, lo])
        out.push(mid[i] as [number, number]);
      out.push(col[n - 1] as [number, number]);
    }
    col = [];
  };
  let c = NaN;
  for (const p of points) {
    const k = Math.floor(p[0] * 2);
    if (k !== c) flush();
    c = k;
    col.push(p);
  }
  flush();
  return out;
}

describe('Thinned', () => {
  it('keeps per half-pixel column what the definition keeps', () => {
    const point = fc.tuple(
      fc.integer({ min: 0, max: 40 }).map((x) => x / 8),
      fc.integer({ min: -5, max: 5 }),
    );
    fc.assert(
      fc.property(fc.array(point, { maxLength: 60 }), (raw) => {
        // A polyline's x never falls (a step line walks budgets up).
        const points = raw.sort((a, b) => a[0] - b[0]);
        const t = new Thinned();
        for (const [x, y] of points) t.add(x, y);
        expect(t.done()).toEqual(reference(points));
      }),
    );
  });

  it('keeps a column of thousands of points at four', () => {
    const t = new Thinned();
    for (let i = 0; i < 5000; i++) t.add(0.1, Math.sin(i));
    expect(t.done()).toHaveLength(4);
  });
});
