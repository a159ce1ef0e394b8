/**
 * The arc tables as built before issue 38's packed sort (model/pairTables.ts): one span object
 * per pair and comparator sorts. The fast tables must equal these; used only to test them. Only
 * the orderings are the reference's own; the lanes are placed by the shared `lanesInOrder`.
 */
import {
  lanesInOrder,
  pairSpan,
  SHORT_SPAN,
  type LaneTable,
  type PairIndex,
} from '../pairTables.ts';
import type { ToolPair } from '../pairing.ts';

/** `laneTable` by comparator sort (the reference). */
export function referenceLaneTable(pairs: readonly ToolPair[]): LaneTable {
  const n = pairs.length;
  const start = new Float64Array(n);
  const end = new Float64Array(n);
  const withSpan: number[] = [];
  for (let i = 0; i < n; i++) {
    const s = pairSpan(pairs[i] as ToolPair);
    if (!s) continue;
    start[i] = s.start;
    end[i] = s.end;
    withSpan.push(i);
  }
  const order = Int32Array.from(withSpan).sort(
    (a, b) =>
      (end[a] as number) - (start[a] as number) - ((end[b] as number) - (start[b] as number)) ||
      (start[a] as number) - (start[b] as number) ||
      a - b,
  );
  return lanesInOrder(order, start, end);
}

/** `indexPairs` by comparator sort (the reference). */
export function referenceIndexPairs(pairs: readonly ToolPair[]): PairIndex {
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
