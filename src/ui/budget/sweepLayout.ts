/**
 * Geometry of the sweep chart (pure: d3-scale and d3-shape compute, SweepChart.tsx renders).
 * x is the budget in tokens, from the smallest budget any shown policy fits to the total; each
 * shown policy gets a strip of segments (valid / 400 / cannot fit) and a step line of the tokens
 * it keeps. Units: tokens in, pixels out.
 */
import { scaleLinear } from 'd3-scale';
import { line } from 'd3-shape';
import type { PolicySweep } from '../../model/evict/sweep.ts';

export interface SweepSize {
  width: number;
  /** Height of the kept-tokens plot, px. */
  plotHeight: number;
  /** Height of one policy strip, px. */
  stripHeight: number;
  /** Left margin for labels, px. */
  left: number;
}

export const DEFAULT_SWEEP_SIZE: SweepSize = {
  width: 380,
  plotHeight: 72,
  stripHeight: 12,
  left: 64,
};

export interface SweepSegment {
  /** Budget range (tokens, inclusive). */
  lo: number;
  hi: number;
  x: number;
  width: number;
  /** `valid`, `error` (the kept request gets a 400) or `nofit` (the policy cannot get under the budget). */
  kind: 'valid' | 'error' | 'nofit';
}

export interface SweepStrip {
  policy: string;
  y: number;
  segments: SweepSegment[];
  /** Kept tokens against the budget: SVG path in the plot area. */
  keptPath: string;
}

export interface SweepLayout {
  /** Budget domain [lo, hi] in tokens. */
  domain: [number, number];
  strips: SweepStrip[];
  /** Diagonal "kept = budget" reference line. */
  budgetLine: string;
  /** x of the current budget, px (null when outside the domain). */
  cursorX: number | null;
  /** Tick positions: budget (tokens) and x (px). */
  ticks: { value: number; x: number }[];
  height: number;
}

const pathOf = line<[number, number]>().digits(1);

/**
 * Left end of the budget axis (tokens): the smallest budget any shown policy fits, or 0 when the
 * current budget is below that (so the cursor stays on the chart). Two values at most per sweep:
 * the chart's geometry depends on the budget only through this one, so a slider step reuses it.
 * @param sweeps the shown policies' sweeps
 * @param total the transcript's total tokens
 * @param budget the current budget (tokens)
 */
export function sweepDomainLo(
  sweeps: readonly PolicySweep[],
  total: number,
  budget: number,
): number {
  const minB = Math.min(total, ...sweeps.map((s) => s.minBudget));
  return budget >= minB ? Math.max(0, minB) : 0;
}

/**
 * x of a budget on a laid-out chart (px), null outside its domain. O(1): the only per-step work of
 * the chart on a slider step (the layout itself is memoised on the sweep and `sweepDomainLo`).
 */
export function sweepCursorX(
  l: Pick<SweepLayout, 'domain'>,
  budget: number,
  size: SweepSize = DEFAULT_SWEEP_SIZE,
): number | null {
  const [lo, hi] = l.domain;
  if (!(budget >= lo && budget <= hi)) return null;
  return size.left + ((budget - lo) / (hi + 1 - lo)) * (size.width - size.left);
}

/**
 * Lay out the sweep chart for a few policies.
 * @param sweeps the policies to draw (in order, one strip each)
 * @param total the transcript's total tokens
 * @param budget the current budget (tokens), for the cursor
 * @returns segments per strip (merged runs of the same kind), step paths of kept tokens, ticks
 */
export function layoutSweep(
  sweeps: readonly PolicySweep[],
  total: number,
  budget: number,
  size: SweepSize = DEFAULT_SWEEP_SIZE,
): SweepLayout {
  const base = layoutSweepFrom(sweeps, total, sweepDomainLo(sweeps, total, budget), size);
  return { ...base, cursorX: sweepCursorX(base, budget, size) };
}

/**
 * The budget-independent part of `layoutSweep` for an axis starting at `lo` (tokens): O(cuts log
 * cuts) per shown policy, so the chart computes it once per sweep, not per slider step. The kept
 * path is thinned to the chart's resolution (per half pixel: first, lowest, highest and last
 * point), so its size does not grow with the number of cuts.
 * @returns the layout with `cursorX` null (see `sweepCursorX`)
 */
export function layoutSweepFrom(
  sweeps: readonly PolicySweep[],
  total: number,
  lo: number,
  size: SweepSize = DEFAULT_SWEEP_SIZE,
): SweepLayout {
  const hi = Math.max(total, lo + 1);
  // A budget b covers [b, b + 1) on the axis, so the last one is visible.
  const x = scaleLinear()
    .domain([lo, hi + 1])
    .range([size.left, size.width]);
  const y = scaleLinear().domain([0, total]).range([size.plotHeight, 4]);
  const strips: SweepStrip[] = sweeps.map((s, si) => {
    const intervals: { lo: number; hi: number; kind: SweepSegment['kind']; cost: number }[] = [];
    for (let j = 0; j < s.cuts.length; j++) {
      const bl = s.budgetLo[j] as number;
      const bh = s.budgetHi[j] as number;
      if (bh < bl) continue;
      intervals.push({
        lo: bl,
        hi: bh,
        kind: s.valid[j] === 1 ? 'valid' : 'error',
        cost: s.costs[j] as number,
      });
    }
    intervals.sort((a, b) => a.lo - b.lo);
    // Below the smallest reachable budget the policy keeps its last cut and does not fit.
    if (s.minBudget > lo) {
      const last = s.cuts.length - 1;
      intervals.unshift({ lo, hi: s.minBudget - 1, kind: 'nofit', cost: s.costs[last] ?? 0 });
    }
    const segments: SweepSegment[] = [];
    for (const iv of intervals) {
      const prev = segments[segments.length - 1];
      if (prev && prev.kind === iv.kind && prev.hi + 1 === iv.lo) {
        prev.hi = iv.hi;
        prev.width = x(iv.hi + 1) - prev.x;
      } else
        segments.push({
          lo: iv.lo,
          hi: iv.hi,
          x: x(iv.lo),
          width: x(iv.hi + 1) - x(iv.lo),
          kind: iv.kind,
        });
    }
    const pts = new Thinned();
    for (const iv of intervals) {
      pts.add(x(iv.lo), y(iv.cost));
      pts.add(x(iv.hi + 1), y(iv.cost));
    }
    return {
      policy: s.policy,
      y: size.plotHeight + 8 + si * (size.stripHeight + 6),
      segments,
      keptPath: pathOf(pts.done()) ?? '',
    };
  });
  const budgetLine =
    pathOf([
      [x(lo), y(lo)],
      [x(hi + 1), y(Math.min(total, hi + 1))],
    ]) ?? '';
  const ticks = x
    .ticks(4)
    .filter((v) => v >= lo && v <= hi)
    .map((v) => ({ value: v, x: x(v) }));
  return {
    domain: [lo, hi],
    strips,
    budgetLine,
    cursorX: null,
    ticks,
    height: size.plotHeight + 8 + sweeps.length * (size.stripHeight + 6) + 14,
  };
}

/** Points of a polyline kept per half-pixel column: first, lowest, highest, last (in x order). */
class Thinned {
  private out: [number, number][] = [];
  private col = NaN;
  private bucket: [number, number][] = [];

  add(px: number, py: number): void {
    const c = Math.floor(px * 2);
    if (c !== this.col) this.flush();
    this.col = c;
    this.bucket.push([px, py]);
  }

  private flush(): void {
    const b = this.bucket;
    if (b.length <= 4) for (const p of b) this.out.push(p);
    else {
      let lo = 1;
      let hi = 1;
      for (let i = 1; i < b.length - 1; i++) {
        if ((b[i] as [number, number])[1] < (b[lo] as [number, number])[1]) lo = i;
        if ((b[i] as [number, number])[1] > (b[hi] as [number, number])[1]) hi = i;
      }
      const mid = lo === hi ? [lo] : lo < hi ? [lo, hi] : [hi, lo];
      this.out.push(b[0] as [number, number]);
      for (const i of mid) this.out.push(b[i] as [number, number]);
      this.out.push(b[b.length - 1] as [number, number]);
    }
    this.bucket = [];
  }

  done(): [number, number][] {
    this.flush();
    return this.out;
  }
}
