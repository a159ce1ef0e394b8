/**
 * Arc geometry for the gutter beside the timeline (docs/architecture.md#arcs). Pure: pairs,
 * row boxes and a viewport in, SVG path strings out. d3-shape computes the paths; React renders
 * them (ArcLayer.tsx). Units: pixels in the timeline's content coordinates (the same space as
 * the virtualizer's `start`/`size`), lanes as integers counted outward from the rows.
 */
import { bisector } from 'd3-array';
import { curveBasis, line } from 'd3-shape';
import type { PairStatus, ToolPair } from '../../model/pairing.ts';
import type { Span } from '../../model/pairTables.ts';
import { memoWeak } from '../../state/session/index.ts';

/** A row's vertical box in content pixels (measured, or the virtualizer's estimate). */
export interface RowBox {
  top: number;
  height: number;
}

/** The visible vertical range, in content pixels. */
export interface Viewport {
  top: number;
  bottom: number;
}

export interface ArcOptions {
  /** Gutter width in px; the rows start at its right edge. */
  gutterWidth: number;
  /** Preferred distance between lanes in px (shrunk when many lanes must fit). */
  laneWidth: number;
  /** Extra px of endpoint offset per lane, so parallel pairs leaving one row do not start at one point. */
  laneStep: number;
  /** Offset of an endpoint below its row's top, in px (capped at half the row height). */
  anchorY: number;
  /** Length in px of the open end of an orphan ("from nowhere") or unanswered ("to nowhere") arc. */
  nowhere: number;
}

export const DEFAULT_ARC_OPTIONS: ArcOptions = {
  gutterWidth: 72,
  laneWidth: 9,
  laneStep: 3,
  anchorY: 14,
  nowhere: 26,
};

/**
 * How an end is drawn:
 * - `point`: at its row (visible);
 * - `stub`: its row is off screen; the path is cut at the viewport edge and a marker says where it goes;
 * - `nowhere`: there is no such end (orphan result: no call; unanswered call: no result).
 */
export type EndKind = 'point' | 'stub' | 'nowhere';

export interface ArcEnd {
  kind: EndKind;
  /** y where the path ends, px. For a stub, the viewport edge. */
  y: number;
  /** Message index (ours) of this end, or null for `nowhere`. */
  message: number | null;
  /** For a stub: which edge it leaves by. */
  edge?: 'top' | 'bottom';
}

export interface ArcPath {
  /** The pair key (`p3`). */
  id: string;
  status: PairStatus;
  /**
   * True for anything but `answered` (pairing only). ArcLayer also draws red a pair the
   * provider's verdict names (`selectBrokenPairs`).
   */
  broken: boolean;
  /** An unanswered call whose siblings were answered (partial answer). */
  partial: boolean;
  lane: number;
  /** x of the lane's vertical segment, px. */
  x: number;
  from: ArcEnd;
  to: ArcEnd;
  /** SVG path data. */
  d: string;
}

export { laneTable, pairSpan, type LaneTable, type Span } from '../../model/pairTables.ts';

const byStart = bisector((s: Span) => s.start).left;

/**
 * Assign lanes so that overlapping spans never share one. Shorter spans are placed first, so a
 * nested (inner) pair gets a lane closer to the rows than the pair around it and lines do not
 * cross. Spans that only touch at a message (a result and the next call in the same message)
 * overlap and get different lanes.
 * @returns lane per span key (0 = next to the rows). O(n log n + n·lanes).
 */
export function assignLanes(spans: readonly Span[]): Map<string, number> {
  const order = [...spans].sort((a, b) => a.end - a.start - (b.end - b.start) || a.start - b.start);
  // Per lane: spans sorted by start (non-overlapping within a lane, so also sorted by end).
  const lanes: Span[][] = [];
  const out = new Map<string, number>();
  for (const s of order) {
    let lane = 0;
    for (; lane < lanes.length; lane++) {
      const list = lanes[lane] as Span[];
      const i = byStart(list, s.start);
      const prev = list[i - 1];
      const next = list[i];
      const clashPrev = prev !== undefined && prev.end >= s.start;
      const clashNext = next !== undefined && next.start <= s.end;
      if (!clashPrev && !clashNext) break;
    }
    if (lane === lanes.length) lanes.push([]);
    const list = lanes[lane] as Span[];
    list.splice(byStart(list, s.start), 0, s);
    out.set(s.key, lane);
  }
  return out;
}

/** Highest lane of a lane map, computed once per map (layoutArcs runs on every scroll frame). */
const maxLaneOf = memoWeak((lanes: ReadonlyMap<string, number>): number => {
  let m = 0;
  for (const l of lanes.values()) m = Math.max(m, l);
  return m;
});

const pathOf = line<[number, number]>().curve(curveBasis).digits(1);

/**
 * Lay out the arcs that touch the viewport.
 * @param pairs pairs to draw (message indices are ours)
 * @param lanes lane per pair key (`assignLanes`), stable while scrolling
 * @param rowBox box of a message's row in content px (measured or estimated)
 * @param viewport visible range in content px
 * @param maxLane the highest lane of the whole layout (sets the lane width); default: the
 *   highest in `lanes` (pass it when `lanes` holds only the pairs drawn)
 * @returns one path per pair whose span meets the viewport; ends off screen become stubs at the
 *   viewport edge. Pure.
 */
export function layoutArcs(
  pairs: readonly ToolPair[],
  lanes: ReadonlyMap<string, number>,
  rowBox: (message: number) => RowBox,
  viewport: Viewport,
  opts: ArcOptions = DEFAULT_ARC_OPTIONS,
  maxLane: number = maxLaneOf(lanes),
): ArcPath[] {
  const usable = opts.gutterWidth - 10;
  const laneWidth = Math.min(opts.laneWidth, usable / (maxLane + 1));
  const xEnd = opts.gutterWidth;
  const yOf = (message: number, lane: number) => {
    const b = rowBox(message);
    return b.top + Math.min(b.height / 2, opts.anchorY + Math.min(lane, 4) * opts.laneStep);
  };
  const out: ArcPath[] = [];
  for (const p of pairs) {
    const lane = lanes.get(p.key) ?? 0;
    const x = xEnd - 8 - lane * laneWidth;
    let fromY: number;
    let toY: number;
    let from: ArcEnd;
    let to: ArcEnd;
    if (p.call && p.result) {
      fromY = yOf(p.call.message, lane);
      toY = yOf(p.result.message, lane);
      from = { kind: 'point', y: fromY, message: p.call.message };
      to = { kind: 'point', y: toY, message: p.result.message };
    } else if (p.call) {
      fromY = yOf(p.call.message, lane);
      toY = fromY + opts.nowhere;
      from = { kind: 'point', y: fromY, message: p.call.message };
      to = { kind: 'nowhere', y: toY, message: null };
    } else if (p.result) {
      toY = yOf(p.result.message, lane);
      fromY = toY - opts.nowhere;
      from = { kind: 'nowhere', y: fromY, message: null };
      to = { kind: 'point', y: toY, message: p.result.message };
    } else continue;
    const lo = Math.min(fromY, toY);
    const hi = Math.max(fromY, toY);
    // Nothing of the arc is on screen: cull it (its row boxes may be estimates anyway).
    if (hi < viewport.top || lo > viewport.bottom) continue;
    from = clampEnd(from, viewport);
    to = clampEnd(to, viewport);
    const pts: [number, number][] = [];
    // A `point` end bends into the row; a stub or an open end stays on the lane.
    if (from.kind === 'point') pts.push([xEnd, from.y], [x, from.y], [x, from.y]);
    else pts.push([x, from.y]);
    if (to.kind === 'point') pts.push([x, to.y], [x, to.y], [xEnd, to.y]);
    else pts.push([x, to.y]);
    out.push({
      id: p.key,
      status: p.status,
      broken: p.status !== 'answered',
      partial: p.partial,
      lane,
      x,
      from,
      to,
      d: pathOf(pts) ?? '',
    });
  }
  return out;
}

function clampEnd(end: ArcEnd, v: Viewport): ArcEnd {
  if (end.kind !== 'point') return end;
  if (end.y < v.top) return { ...end, kind: 'stub', y: v.top, edge: 'top' };
  if (end.y > v.bottom) return { ...end, kind: 'stub', y: v.bottom, edge: 'bottom' };
  return end;
}
