/**
 * Geometry of the sweep chart (pure: d3-scale and d3-shape compute, SweepChart.tsx renders).
 * x is the budget in tokens, from the smallest budget any shown policy fits to the total; each
 * shown policy gets a strip of segments (valid / 400 / cannot fit) and a step line of the tokens
 * it keeps. Units: tokens in, pixels out.
 */
import { ticks } from 'd3-array';
import { scaleLinear } from 'd3-scale';
import { line } from 'd3-shape';
import type { PolicySweep } from '../../model/evict/sweep.ts';
import { fmtInt } from '../format.ts';

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
  /** The segments as drawn: runs narrower than a pixel merged (`pixelBars`). */
  bars: SweepBar[];
  /** Kept tokens against the budget: SVG path in the plot area. */
  keptPath: string;
}

/**
 * Segments as drawn, at most about one per pixel: a policy that alternates valid and 400 every
 * few tokens has thousands of sub-pixel segments, and a rect each is thousands of DOM nodes
 * (issue 7: 100–300 ms to mount at 100,000 messages). A bar covers adjacent segments up to a
 * pixel wide; its kind is `error` when any of them gives a 400, else the first's.
 */
export interface SweepBar extends SweepSegment {
  /** True when the bar merges segments of different kinds. */
  mixed: boolean;
}

/**
 * Merge adjacent segments narrower than `px` pixels into bars (a segment `px` wide or more stays
 * alone). O(segments).
 * @param segments a strip's segments, in budget order
 */
export function pixelBars(segments: readonly SweepSegment[], px = 1): SweepBar[] {
  const out: SweepBar[] = [];
  let cur: SweepBar | null = null;
  for (const s of segments) {
    if (s.width >= px) {
      if (cur) out.push(cur);
      cur = null;
      out.push({ ...s, mixed: false });
      continue;
    }
    if (cur && s.x + s.width - cur.x <= px) {
      cur.hi = s.hi;
      cur.width = s.x + s.width - cur.x;
      if (s.kind !== cur.kind) {
        cur.mixed = true;
        if (s.kind === 'error') cur.kind = 'error';
      }
    } else {
      if (cur) out.push(cur);
      cur = { ...s, mixed: false };
    }
  }
  if (cur) out.push(cur);
  return out;
}

export interface SweepLayout {
  /** Budget domain [lo, hi] in tokens. */
  domain: [number, number];
  strips: SweepStrip[];
  /** Diagonal "kept = budget" reference line. */
  budgetLine: string;
  /** x of the current budget, px (null when outside the domain). */
  cursorX: number | null;
  /** Tick positions: budget (tokens, distinct integers), x (px) and label (`fmtInt`, `1,234`). */
  ticks: { value: number; x: number; label: string }[];
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
    // The budget intervals in ascending order, as cut indices into the sweep's typed arrays (no
    // object per cut: a 100,000-message sweep has that many; issue 7). Costs fall as cuts grow,
    // so this is usually one descending run, which the sort reverses in O(cuts).
    const order: number[] = [];
    for (let j = 0; j < s.cuts.length; j++)
      if ((s.budgetHi[j] as number) >= (s.budgetLo[j] as number)) order.push(j);
    order.sort((a, b) => (s.budgetLo[a] as number) - (s.budgetLo[b] as number));
    // Below the smallest reachable budget the policy keeps its last cut and does not fit.
    const nofit = s.minBudget > lo;
    const count = order.length + (nofit ? 1 : 0);
    const ivLo = (i: number) =>
      nofit && i === 0 ? lo : (s.budgetLo[order[i - (nofit ? 1 : 0)] as number] as number);
    const ivHi = (i: number) =>
      nofit && i === 0
        ? s.minBudget - 1
        : (s.budgetHi[order[i - (nofit ? 1 : 0)] as number] as number);
    const ivKind = (i: number): SweepSegment['kind'] =>
      nofit && i === 0
        ? 'nofit'
        : s.valid[order[i - (nofit ? 1 : 0)] as number] === 1
          ? 'valid'
          : 'error';
    const ivCost = (i: number) =>
      nofit && i === 0
        ? (s.costs[s.cuts.length - 1] ?? 0)
        : (s.costs[order[i - (nofit ? 1 : 0)] as number] as number);
    const segments: SweepSegment[] = [];
    const pts = new Thinned();
    for (let i = 0; i < count; i++) {
      const l = ivLo(i);
      const h = ivHi(i);
      const kind = ivKind(i);
      const x0 = x(l);
      const x1 = x(h + 1);
      const prev = segments[segments.length - 1];
      if (prev && prev.kind === kind && prev.hi + 1 === l) {
        prev.hi = h;
        prev.width = x1 - prev.x;
      } else segments.push({ lo: l, hi: h, x: x0, width: x1 - x0, kind });
      const yc = y(ivCost(i));
      pts.add(x0, yc);
      pts.add(x1, yc);
    }
    return {
      policy: s.policy,
      y: size.plotHeight + 8 + si * (size.stripHeight + 6),
      segments,
      bars: pixelBars(segments),
      keptPath: pathOf(pts.done()) ?? '',
    };
  });
  const budgetLine =
    pathOf([
      [x(lo), y(lo)],
      [x(hi + 1), y(Math.min(total, hi + 1))],
    ]) ?? '';
  // Budgets are whole tokens: on a narrow domain (a one-message file: [750,003, 750,004]) d3
  // proposes half-token ticks, which rounded to the page's integer format repeat a label. Keep
  // integer ticks only, each once; an axis left with none shows its two ends.
  const ticks = sweepTicks(lo, hi).map((v) => ({ value: v, x: x(v), label: fmtInt(v) }));
  return {
    domain: [lo, hi],
    strips,
    budgetLine,
    cursorX: null,
    ticks,
    height: size.plotHeight + 8 + sweeps.length * (size.stripHeight + 6) + 14,
  };
}

/**
 * Tick values of the budget axis: distinct integers (tokens) inside [lo, hi], about `count` of
 * them, at d3's nice steps (`d3-array` ticks), never a fractional budget.
 * @param lo left end of the axis, tokens
 * @param hi right end of the axis, tokens
 */
export function sweepTicks(lo: number, hi: number, count = 4): number[] {
  const out = [...new Set(ticks(lo, hi, count).filter((v) => Number.isInteger(v)))].filter(
    (v) => v >= lo && v <= hi,
  );
  if (out.length > 0) return out;
  return [...new Set([Math.ceil(lo), Math.floor(hi)])].filter((v) => v >= lo && v <= hi);
}

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

/** Points of a polyline kept per half-pixel column: first, lowest, highest, last (in x order). */
class Thinned {
  private out: [number, number][] = [];
  private col = NaN;
  // The current column's points, as two reused number arrays (no array per point).
  private xs: number[] = [];
  private ys: number[] = [];

  add(px: number, py: number): void {
    const c = Math.floor(px * 2);
    if (c !== this.col) this.flush();
    this.col = c;
    this.xs.push(px);
    this.ys.push(py);
  }

  private flush(): void {
    const { xs, ys } = this;
    const n = xs.length;
    const at = (i: number): [number, number] => [xs[i] as number, ys[i] as number];
    if (n <= 4) for (let i = 0; i < n; i++) this.out.push(at(i));
    else {
      let lo = 1;
      let hi = 1;
      for (let i = 1; i < n - 1; i++) {
        if ((ys[i] as number) < (ys[lo] as number)) lo = i;
        if ((ys[i] as number) > (ys[hi] as number)) hi = i;
      }
      const mid = lo === hi ? [lo] : lo < hi ? [lo, hi] : [hi, lo];
      this.out.push(at(0));
      for (const i of mid) this.out.push(at(i));
      this.out.push(at(n - 1));
    }
    xs.length = 0;
    ys.length = 0;
  }

  done(): [number, number][] {
    this.flush();
    return this.out;
  }
}
