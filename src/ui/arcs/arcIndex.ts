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
import { laneTable, pairSpan, type LaneTable } from './arcLayout.ts';

/** Longest span (messages) kept in the sorted list; longer ones go to the checked list. */
export const SHORT_SPAN = 64;

export interface PairIndex {
  /** Positions (in the indexed array) of short pairs, sorted by span start. */
  short: Int32Array;
  /** Span starts of `short`, same order. */
  shortStart: Float64Array;
  /** Positions of long pairs with their spans. */
  long: { pos: number; start: number; end: number }[];
  /** Span ends by position (NaN for pairs without a span). */
  end: Float64Array;
}

/**
 * Index pairs by their span (message indices). O(n log n), once per pair list.
 * @param pairs the pairs (their positions are what `visiblePairs` returns)
 */
export function indexPairs(pairs: readonly ToolPair[]): PairIndex {
  const shortPos: number[] = [];
  const startOf = new Float64Array(pairs.length);
  const long: PairIndex['long'] = [];
  const end = new Float64Array(pairs.length).fill(NaN);
  pairs.forEach((p, pos) => {
    const s = pairSpan(p);
    if (!s) return;
    end[pos] = s.end;
    startOf[pos] = s.start;
    if (s.end - s.start <= SHORT_SPAN) shortPos.push(pos);
    else long.push({ pos, start: s.start, end: s.end });
  });
  // Typed arrays, sorted by start then position (the stable order of the object sort before).
  const short = Int32Array.from(shortPos).sort(
    (a, b) => (startOf[a] as number) - (startOf[b] as number) || a - b,
  );
  return {
    short,
    shortStart: Float64Array.from(short, (pos) => startOf[pos] as number),
    long,
    end,
  };
}

/** The arc tables of a pair list, built once per list (the timeline's `selectArcPairs`). */
export interface ArcTables {
  /** Lanes by position in the list (`laneTable`). */
  lanes: LaneTable;
  /** Which pairs meet a message range (`indexPairs`). */
  index: PairIndex;
}

const arcTablesCache = new WeakMap<readonly ToolPair[], ArcTables>();

/**
 * Lanes and the visible-range index of a pair list, memoised per list object (a WeakMap: the
 * tables of the transcript shown survive renders of another one, issue 7).
 */
export function arcTables(pairs: readonly ToolPair[]): ArcTables {
  let t = arcTablesCache.get(pairs);
  if (!t) {
    t = { lanes: laneTable(pairs), index: indexPairs(pairs) };
    arcTablesCache.set(pairs, t);
  }
  return t;
}

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

const laneMaps = new WeakMap<readonly ToolPair[], Map<string, number>>();

/** Lane per pair key of a list (`arcTables` lanes as a Map, for `layoutArcs`), once per list. */
export function laneMap(pairs: readonly ToolPair[]): ReadonlyMap<string, number> {
  let m = laneMaps.get(pairs);
  if (!m) {
    const { lane } = arcTables(pairs).lanes;
    m = new Map();
    pairs.forEach((p, i) => {
      const l = lane[i] ?? -1;
      if (l >= 0) m?.set(p.key, l);
    });
    laneMaps.set(pairs, m);
  }
  return m;
}
