/**
 * The sweep chart's budget axis: tick values at d3's nice steps, and labels placed so they never
 * overlap at the chart's font. Units: tokens in, pixels out.
 */
import { ticks } from 'd3-array';
import { fmtInt } from '../format.ts';

/** One label of the budget axis (`SweepLayout.ticks`). */
export interface SweepTick {
  value: number;
  x: number;
  label: string;
  anchor: 'start' | 'middle' | 'end';
}

/** Font size of the axis labels, px: `.sweep-tick` in budget.css (a monospace font). */
export const TICK_FONT_PX = 10;
/**
 * Upper bound of one character's advance in the axis font, em: monospace fonts advance 0.55-0.61
 * em (DejaVu Sans Mono 0.602, Liberation Mono 0.600, Menlo 0.602, Consolas 0.550).
 */
const TICK_CHAR_EM = 0.62;
/** Least free space between two axis labels, px. */
export const TICK_GAP_PX = 6;

/**
 * Width of an axis label at the chart's font (an upper bound), px.
 * @param label the label text (`1,234`)
 */
export function tickLabelWidth(label: string): number {
  return label.length * TICK_CHAR_EM * TICK_FONT_PX;
}

/**
 * Horizontal extent [left, right] of an axis label, px (from its x, anchor and width).
 */
export function tickExtent(t: Pick<SweepTick, 'x' | 'label' | 'anchor'>): [number, number] {
  const w = tickLabelWidth(t.label);
  return t.anchor === 'start'
    ? [t.x, t.x + w]
    : t.anchor === 'end'
      ? [t.x - w, t.x]
      : [t.x - w / 2, t.x + w / 2];
}

/** Place labels: centred on their tick, or anchored at the edge they would cross. */
function placeTicks(
  values: readonly number[],
  x: (v: number) => number,
  width: number,
): SweepTick[] {
  return values.map((v) => {
    const px = x(v);
    const label = fmtInt(v);
    const half = tickLabelWidth(label) / 2;
    const anchor = px - half < 0 ? 'start' : px + half > width ? 'end' : 'middle';
    return { value: v, x: px, label, anchor };
  });
}

function overlapFree(ts: readonly SweepTick[]): boolean {
  for (let i = 1; i < ts.length; i++) {
    const a = tickExtent(ts[i - 1] as SweepTick);
    const b = tickExtent(ts[i] as SweepTick);
    if (a[1] + TICK_GAP_PX > b[0]) return false;
  }
  return true;
}

/**
 * The budget axis' labels: the most of d3's nice steps (about 4 down to 1 tick, `sweepTicks`)
 * whose labels, at the chart's font (`tickLabelWidth`), keep `TICK_GAP_PX` apart; when even the
 * sparsest set collides, every other label is dropped until they fit (one label always does).
 * @param lo left end of the axis, tokens
 * @param hi right end of the axis, tokens
 * @param x the budget → px scale
 * @param width the chart's width, px (labels stay inside [0, width])
 */
export function fitTicks(
  lo: number,
  hi: number,
  x: (v: number) => number,
  width: number,
): SweepTick[] {
  for (let count = 4; count >= 1; count--) {
    const ts = placeTicks(sweepTicks(lo, hi, count), x, width);
    if (overlapFree(ts)) return ts;
  }
  let values = sweepTicks(lo, hi, 1);
  while (values.length > 1) {
    values = values.filter((_, i) => i % 2 === 0);
    const ts = placeTicks(values, x, width);
    if (overlapFree(ts)) return ts;
  }
  return placeTicks(values, x, width);
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
