/**
 * Which arcs meet the visible rows, without looking at every pair (issue 7: 100,000 messages
 * have ~50,000 pairs, and the timeline lays out arcs on every scroll frame). Pure.
 *
 * Pairs are split by span length (in messages): short ones (≤ SHORT_SPAN, nearly all: a call is
 * answered in the next message) sorted by start, found by binary search in
 * [lo − SHORT_SPAN, hi]; long ones (late answers, open ends) are few and checked one by one.
 * A pair whose ends are both off screen but whose span crosses the view is included, so its
 * stubs still lead to the partner.
 */
import { bisector } from 'd3-array';
import type { ToolPair } from '../../model/pairing.ts';
import { SHORT_SPAN, type LaneTable, type PairIndex } from '../../model/pairTables.ts';
import { memoWeakBy } from '../../state/session/index.ts';

export { indexPairs, SHORT_SPAN, type PairIndex } from '../../model/pairTables.ts';

const left = bisector((x: number) => x).left;
const right = bisector((x: number) => x).right;

/**
 * Positions of the pairs whose span meets messages [lo, hi] (inclusive, message indices), in
 * ascending order. O(log n + short pairs near the range + long pairs).
 */
export function visiblePairs(index: PairIndex, lo: number, hi: number): number[] {
  const out: number[] = [];
  const a = left(index.shortStart, lo - SHORT_SPAN - 1);
  const b = right(index.shortStart, hi);
  for (let i = a; i < b; i++) {
    const pos = index.short[i] as number;
    if ((index.end[pos] as number) >= lo) out.push(pos);
  }
  for (const l of index.long) if (l.start <= hi && l.end >= lo) out.push(l.pos);
  return out.sort((x, y) => x - y);
}

/** Lane per pair key of a lane table and its pairs (by position), once per table. */
const laneMapOf = memoWeakBy(
  (lanes: LaneTable, pairs: readonly ToolPair[]): ReadonlyMap<string, number> => {
    const m = new Map<string, number>();
    pairs.forEach((p, i) => {
      const l = lanes.lane[i] ?? -1;
      if (l >= 0) m.set(p.key, l);
    });
    return m;
  },
);

/**
 * Lane per pair key (for `layoutArcs`) of `pairs` with their lane table (by position), once per
 * table (memo storage in the session): used only when every pair is laid out.
 */
export function laneMap(pairs: readonly ToolPair[], lanes: LaneTable): ReadonlyMap<string, number> {
  return laneMapOf(lanes, pairs);
}
