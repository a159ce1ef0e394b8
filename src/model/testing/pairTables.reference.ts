/**
 * The arc tables as built before issue 38's packed sort (model/pairTables.ts): one span object
 * per pair and comparator sorts. The fast tables must equal these; used only to test them.
 */
import { pairSpan, SHORT_SPAN, type LaneTable, type PairIndex } from '../pairTables.ts';
import type { ToolPair } from '../pairing.ts';

/** `laneTable` by comparator sort (the reference). */
export function referenceLaneTable(pairs: readonly ToolPair[]): LaneTable {
  const n = pairs.length;
  const start = new Float64Array(n);
  const end = new Float64Array(n);
  const lane = new Int32Array(n).fill(-1);
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
  const laneStarts: number[][] = [];
  const laneEnds: number[][] = [];
  let maxLane = 0;
  for (const i of order) {
    const s = start[i] as number;
    const e = end[i] as number;
    let l = 0;
    let at = 0;
    for (; l < laneStarts.length; l++) {
      const starts = laneStarts[l] as number[];
      // First position whose start is ≥ s (bisect left).
      let lo = 0;
      let hi = starts.length;
      while (lo < hi) {
        const mid = (lo + hi) >>> 1;
        if ((starts[mid] as number) < s) lo = mid + 1;
        else hi = mid;
      }
      at = lo;
      const clashPrev = lo > 0 && ((laneEnds[l] as number[])[lo - 1] as number) >= s;
      const clashNext = lo < starts.length && (starts[lo] as number) <= e;
      if (!clashPrev && !clashNext) break;
    }
    if (l === laneStarts.length) {
      laneStarts.push([]);
      laneEnds.push([]);
      at = 0;
    }
    (laneStarts[l] as number[]).splice(at, 0, s);
    (laneEnds[l] as number[]).splice(at, 0, e);
    lane[i] = l;
    if (l > maxLane) maxLane = l;
  }
  return { lane, maxLane };
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
