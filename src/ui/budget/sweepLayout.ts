/**
 * Geometry of the sweep chart (pure: d3-scale and d3-shape compute, SweepChart.tsx renders).
 * x is the budget in tokens, from the smallest budget any shown policy fits to the total; each
 * shown policy gets a strip of segments (valid / 400 / cannot fit) and a step line of the tokens
 * it keeps. Units: tokens in, pixels out.
 */
import { scaleLinear, type ScaleLinear } from 'd3-scale';
import { line } from 'd3-shape';
import type { PolicySweep } from '../../model/evict/sweep.ts';
import { fmtInt } from '../format.ts';
import { fitTicks, type SweepTick } from './sweepTicks.ts';
import { Thinned } from './thinLine.ts';

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
  /**
   * The strip's segments as drawn: runs narrower than a pixel merged (`pixelBars` of
   * `sweepSegments`, built in the same pass without an object per segment: a message-level
   * policy at 100,000 messages has ~66,000 of them).
   */
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
  const bars = new BarBuilder(px);
  for (const g of segments) bars.add(g.lo, g.hi, g.x, g.width, g.kind);
  return bars.done();
}

/** `pixelBars` fed one segment at a time (its fields, no object per segment). */
class BarBuilder {
  private out: SweepBar[] = [];
  private cur: SweepBar | null = null;
  private readonly px: number;
  constructor(px: number) {
    this.px = px;
  }

  add(lo: number, hi: number, x: number, width: number, kind: SweepSegment['kind']): void {
    const cur = this.cur;
    if (width >= this.px) {
      if (cur) this.out.push(cur);
      this.cur = null;
      this.out.push({ lo, hi, x, width, kind, mixed: false });
      return;
    }
    if (cur && x + width - cur.x <= this.px) {
      cur.hi = hi;
      cur.width = x + width - cur.x;
      if (kind !== cur.kind) {
        cur.mixed = true;
        if (kind === 'error') cur.kind = 'error';
      }
    } else {
      if (cur) this.out.push(cur);
      this.cur = { lo, hi, x, width, kind, mixed: false };
    }
  }

  done(): SweepBar[] {
    if (this.cur) this.out.push(this.cur);
    this.cur = null;
    return this.out;
  }
}

export interface SweepLayout {
  /** Budget domain [lo, hi] in tokens. */
  domain: [number, number];
  strips: SweepStrip[];
  /** Diagonal "kept = budget" reference line. */
  budgetLine: string;
  /** x of the current budget, px (null when outside the domain). */
  cursorX: number | null;
  /**
   * Tick positions: budget (tokens, distinct integers), x (px), label (`fmtInt`, `1,234`) and the
   * label's text anchor (`middle`, or `start`/`end` at the chart's edges). Labels never overlap
   * (`fitTicks`).
   */
  ticks: SweepTick[];
  /** The kept-tokens axis: 0 and the total, y (px) and label, at the plot's left edge. */
  yTicks: { y: number; label: string }[];
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
 * @returns bars per strip (runs of one kind, merged to pixels), step paths of kept tokens, ticks
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
 * A d3 linear scale as a plain function of the same arithmetic (d3-scale's bimap: normalise,
 * then interpolate), for the per-interval loop of a strip: the scale's own call costs several
 * generic calls, ~100,000 times per strip at 100,000 messages. d3 still defines the scale.
 */
function linearOf(scale: ScaleLinear<number, number>): (v: number) => number {
  const [d0, d1] = scale.domain() as [number, number];
  const [r0, r1] = scale.range() as [number, number];
  const span = d1 - d0;
  // d3 maps a one-point domain to the middle of the range; dividing by 0 would give NaN.
  if (span === 0) return () => (r0 + r1) / 2;
  return (v) => {
    const t = (v - d0) / span;
    return r0 * (1 - t) + r1 * t;
  };
}

/** Intervals a strip's walk takes between two pauses (`layoutSweepSteps`). */
const WALK_STEP = 4096;

/** Run a walk that pauses (`layoutSweepSteps`, `walkStrip`) to its end; its result. */
function drain<R>(steps: Generator<void, R>): R {
  for (;;) {
    const r = steps.next();
    if (r.done) return r.value;
  }
}

/**
 * Walk a policy's budget intervals from `lo` (tokens) up, in budget order: each segment (a run of
 * adjacent intervals of one kind: valid, 400, cannot fit) goes to `segment` once complete, and
 * each interval's two ends (x px, kept tokens) to `point`. O(cuts log cuts); no object per cut or
 * per segment. Pauses (yields) after its ordering and every `WALK_STEP` intervals.
 */
function* walkStrip(
  s: PolicySweep,
  lo: number,
  xAt: (v: number) => number,
  segment: (lo: number, hi: number, x: number, width: number, kind: SweepSegment['kind']) => void,
  point: (x: number, kept: number) => void,
): Generator<void, void> {
  // The budget intervals in ascending order, as cut indices into the sweep's typed arrays. Costs
  // fall as cuts grow, so this is usually one descending run: reversed without a sort.
  const order: number[] = [];
  let ascending = true;
  let descending = true;
  for (let j = 0; j < s.cuts.length; j++) {
    const b = s.budgetLo[j] as number;
    if ((s.budgetHi[j] as number) < b) continue;
    if (order.length > 0) {
      const prev = s.budgetLo[order[order.length - 1] as number] as number;
      if (b < prev) ascending = false;
      // Strictly: reversing equal budgets would not keep the stable sort's order.
      if (b >= prev) descending = false;
    }
    order.push(j);
  }
  if (descending) order.reverse();
  else if (!ascending) order.sort((a, b) => (s.budgetLo[a] as number) - (s.budgetLo[b] as number));
  yield;
  // Below the smallest reachable budget the policy keeps its last cut and does not fit.
  const nofit = s.minBudget > lo;
  const count = order.length + (nofit ? 1 : 0);
  // The segment being built (its kind is null before the first interval).
  let gLo = 0;
  let gHi = 0;
  let gX = 0;
  let gW = 0;
  let gKind: SweepSegment['kind'] | null = null;
  for (let i = 0; i < count; i++) {
    let l: number, h: number, kind: SweepSegment['kind'], cost: number;
    if (nofit && i === 0) {
      l = lo;
      h = s.minBudget - 1;
      kind = 'nofit';
      cost = s.costs[s.cuts.length - 1] ?? 0;
    } else {
      const j = order[i - (nofit ? 1 : 0)] as number;
      l = s.budgetLo[j] as number;
      h = s.budgetHi[j] as number;
      kind = s.valid[j] === 1 ? 'valid' : 'error';
      cost = s.costs[j] as number;
    }
    const x0 = xAt(l);
    const x1 = xAt(h + 1);
    if (gKind === kind && gHi + 1 === l) {
      gHi = h;
      gW = x1 - gX;
    } else {
      if (gKind !== null) segment(gLo, gHi, gX, gW, gKind);
      gLo = l;
      gHi = h;
      gX = x0;
      gW = x1 - x0;
      gKind = kind;
    }
    point(x0, cost);
    point(x1, cost);
    if (i % WALK_STEP === WALK_STEP - 1) yield;
  }
  if (gKind !== null) segment(gLo, gHi, gX, gW, gKind);
}

/**
 * A strip's segments: runs of adjacent budgets of one kind (valid, 400, cannot fit), in budget
 * order, tiling [lo, total]. The chart draws them merged to pixels (`SweepStrip.bars`); this
 * exact list is for tests and readers that need every boundary.
 * @param s a policy's sweep
 * @param total the transcript's total tokens
 * @param lo left end of the axis (tokens, see `sweepDomainLo`)
 */
export function sweepSegments(
  s: PolicySweep,
  total: number,
  lo: number,
  size: SweepSize = DEFAULT_SWEEP_SIZE,
): SweepSegment[] {
  const out: SweepSegment[] = [];
  const xAt = linearOf(budgetScale(total, lo, size));
  drain(
    walkStrip(
      s,
      lo,
      xAt,
      (l, h, x, width, kind) => out.push({ lo: l, hi: h, x, width, kind }),
      () => {},
    ),
  );
  return out;
}

/** The budget axis: [lo, max(total, lo + 1) + 1) tokens onto the chart's width (px). */
function budgetScale(total: number, lo: number, size: SweepSize): ScaleLinear<number, number> {
  const hi = Math.max(total, lo + 1);
  // A budget b covers [b, b + 1) on the axis, so the last one is visible.
  return scaleLinear()
    .domain([lo, hi + 1])
    .range([size.left, size.width]);
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
  return drain(layoutSweepSteps(sweeps, total, lo, size));
}

/**
 * `layoutSweepFrom` in steps: the generator pauses (yields) after each strip's ordering and every
 * `WALK_STEP` of its intervals, and returns the same layout. A sweep of 67,000 cuts laid out at
 * once was a task of 40–70 ms of the page when it arrived (SweepChart: `useSweepLayout` runs these
 * steps over several tasks).
 */
export function* layoutSweepSteps(
  sweeps: readonly PolicySweep[],
  total: number,
  lo: number,
  size: SweepSize = DEFAULT_SWEEP_SIZE,
): Generator<void, SweepLayout> {
  const hi = Math.max(total, lo + 1);
  const x = budgetScale(total, lo, size);
  // A transcript of 0 tokens (a pasted `[]`) still gets a kept axis: its line lies at 0.
  const y = scaleLinear()
    .domain([0, Math.max(total, 1)])
    .range([size.plotHeight, 4]);
  const xAt = linearOf(x);
  const yAt = linearOf(y);
  const strips: SweepStrip[] = [];
  for (const [si, s] of sweeps.entries()) {
    const bars = new BarBuilder(1);
    const pts = new Thinned();
    yield* walkStrip(
      s,
      lo,
      xAt,
      (l, h, x0, w, kind) => bars.add(l, h, x0, w, kind),
      (px, py) => {
        pts.add(px, yAt(py));
      },
    );
    strips.push({
      policy: s.policy,
      y: size.plotHeight + 8 + si * (size.stripHeight + 6),
      bars: bars.done(),
      keptPath: pathOf(pts.done()) ?? '',
    });
  }
  const budgetLine =
    pathOf([
      [x(lo), y(lo)],
      [x(hi + 1), y(Math.min(total, hi + 1))],
    ]) ?? '';
  // Budgets are whole tokens: on a narrow domain (a one-message file: [750,003, 750,004]) d3
  // proposes half-token ticks, which rounded to the page's integer format repeat a label. Keep
  // integer ticks only, each once; an axis left with none shows its two ends. As many as fit
  // side by side at the labels' width (a 10,000,000-token axis has room for fewer than a 10,000 one).
  const ticks = fitTicks(lo, hi, x, size.width);
  return {
    domain: [lo, hi],
    strips,
    budgetLine,
    cursorX: null,
    ticks,
    yTicks: [
      { y: y(Math.max(total, 1)), label: fmtInt(Math.max(total, 1)) },
      { y: y(0), label: '0' },
    ],
    height: size.plotHeight + 8 + sweeps.length * (size.stripHeight + 6) + 14,
  };
}
