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
  const minB = Math.min(total, ...sweeps.map((s) => s.minBudget));
  const lo = Math.max(0, Math.min(minB, budget));
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
    const pts: [number, number][] = [];
    for (const iv of intervals) pts.push([x(iv.lo), y(iv.cost)], [x(iv.hi + 1), y(iv.cost)]);
    return {
      policy: s.policy,
      y: size.plotHeight + 8 + si * (size.stripHeight + 6),
      segments,
      keptPath: pathOf(pts) ?? '',
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
    cursorX: budget >= lo && budget <= hi ? x(budget) : null,
    ticks,
    height: size.plotHeight + 8 + sweeps.length * (size.stripHeight + 6) + 14,
  };
}
