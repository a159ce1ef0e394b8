/**
 * The sweep chart as an input: the budget a click at a pixel, or a key on the focused chart,
 * moves to. Units: pixels and keys in, whole tokens out.
 */
import { scaleLinear } from 'd3-scale';
import type { PolicySweep } from '../../model/evict/sweep.ts';
import { DEFAULT_SWEEP_SIZE, type SweepLayout, type SweepSize } from './sweepLayout.ts';

/**
 * Budget (tokens) at a pixel x of a laid-out chart: the inverse of its x scale, floored to a
 * whole token and clamped to the domain. Used for a click on the chart.
 * @param l the layout (its domain)
 * @param px x in the chart's SVG, px
 */
export function sweepBudgetAt(
  l: Pick<SweepLayout, 'domain'>,
  px: number,
  size: SweepSize = DEFAULT_SWEEP_SIZE,
): number {
  const [lo, hi] = l.domain;
  const x = scaleLinear()
    .domain([lo, hi + 1])
    .range([size.left, size.width]);
  const b = Math.floor(x.invert(px));
  return Math.max(lo, Math.min(hi, Number.isFinite(b) ? b : lo));
}

/**
 * The budget a key moves the chart's budget to (keyboard use of the focused chart), or null for a
 * key the chart does not handle. ArrowLeft/ArrowRight (and Down/Up): one pixel's worth of tokens
 * (at least 1), ten with Shift; PageDown/PageUp: a tenth of the axis; Home/End: its ends. The
 * result is a whole token inside the domain.
 * @param l the layout (its domain)
 * @param budget the current budget, tokens
 */
export function sweepKeyBudget(
  l: Pick<SweepLayout, 'domain'>,
  budget: number,
  key: string,
  shift = false,
  size: SweepSize = DEFAULT_SWEEP_SIZE,
): number | null {
  const [lo, hi] = l.domain;
  const px = Math.max(1, Math.round((hi + 1 - lo) / Math.max(1, size.width - size.left)));
  const step = shift ? px * 10 : px;
  const page = Math.max(1, Math.round((hi - lo) / 10));
  const b = Math.max(lo, Math.min(hi, Math.round(budget)));
  let next: number;
  switch (key) {
    case 'ArrowLeft':
    case 'ArrowDown':
      next = b - step;
      break;
    case 'ArrowRight':
    case 'ArrowUp':
      next = b + step;
      break;
    case 'PageDown':
      next = b - page;
      break;
    case 'PageUp':
      next = b + page;
      break;
    case 'Home':
      next = lo;
      break;
    case 'End':
      next = hi;
      break;
    default:
      return null;
  }
  return Math.max(lo, Math.min(hi, next));
}

/** What one policy does at a budget: its verdict and the tokens it keeps. */
export interface SweepPoint {
  policy: string;
  kind: 'valid' | 'error' | 'nofit';
  /** Tokens kept at that budget. */
  kept: number;
}

/**
 * What each shown policy does at `budget` (the chart's readout): the cut whose budget range
 * holds it (valid or a 400, and its kept tokens), or, below the policy's smallest budget, its
 * last cut, which does not fit. O(cuts) per policy.
 * @param sweeps the shown policies' sweeps
 * @param budget tokens
 */
export function sweepReadout(sweeps: readonly PolicySweep[], budget: number): SweepPoint[] {
  return sweeps.map((s) => {
    for (let j = 0; j < s.cuts.length; j++)
      if ((s.budgetLo[j] as number) <= budget && budget <= (s.budgetHi[j] as number))
        return {
          policy: s.policy,
          kind: s.valid[j] === 1 ? 'valid' : 'error',
          kept: s.costs[j] as number,
        };
    return { policy: s.policy, kind: 'nofit', kept: s.costs[s.cuts.length - 1] ?? 0 };
  });
}
