/**
 * Compact per-transcript tables over the analysis' pairs, for the timeline (issue 7): which
 * pairs each block belongs to, the arc lane of each drawn pair, and an index of the drawn pairs
 * by message span. Typed arrays only (they cross from the worker to the page by transfer), built
 * once per analysis in O(messages + blocks + pairs log pairs). Pure.
 */
import type { ToolPair } from './pairing.ts';
import type { Message } from './types.ts';

/** Pairs drawn as arcs: everything except server tools answered inside their own message. */
export function isArcPair(p: ToolPair): boolean {
  return !(p.call && p.result && p.call.message === p.result.message);
}

/** A pair's vertical extent in message units: from its first end to its last. */
export interface Span {
  key: string;
  start: number;
  end: number;
}

/** Spans in message indices; an open end reaches half a message out, so it gets a lane too. */
export function pairSpan(p: ToolPair): Span | null {
  const c = p.call?.message;
  const r = p.result?.message;
  if (c !== undefined && r !== undefined)
    return { key: p.key, start: Math.min(c, r), end: Math.max(c, r) };
  if (c !== undefined) return { key: p.key, start: c, end: c + 0.5 };
  if (r !== undefined) return { key: p.key, start: r - 0.5, end: r };
  return null;
}

/**
 * The spans (`pairSpan`) of `pairs` by position, without an object per pair: `start`/`end` (0
 * for a pair without one), and the positions with a span, ascending.
 */
function spansOf(pairs: readonly ToolPair[]): {
  start: Float64Array;
  end: Float64Array;
  withSpan: Int32Array;
} {
  const n = pairs.length;
  const start = new Float64Array(n);
  const end = new Float64Array(n);
  const withSpan = new Int32Array(n);
  let count = 0;
  for (let i = 0; i < n; i++) {
    const p = pairs[i] as ToolPair;
    const c = p.call?.message;
    const r = p.result?.message;
    if (c !== undefined && r !== undefined) {
      start[i] = Math.min(c, r);
      end[i] = Math.max(c, r);
    } else if (c !== undefined) {
      start[i] = c;
      end[i] = c + 0.5;
    } else if (r !== undefined) {
      start[i] = r - 0.5;
      end[i] = r;
    } else continue;
    withSpan[count++] = i;
  }
  return { start, end, withSpan: withSpan.subarray(0, count) };
}

/**
 * `positions` sorted by (`major[i]`, `minor[i]`, i) ascending (no `minor`: by major, then i),
 * where the values are half-integers (message indices, open ends half a message out), read by
 * position from typed arrays (no call per element): as one native sort of numbers
 * (major, minor and position packed into one exact integer) when they fit in 2^53, else with a
 * comparator. Issue 38: the comparator sort of the 115 MB log's 28,000 arcs, twice, was most of
 * the pair tables' time.
 */
function sortBySpan(
  positions: Int32Array,
  major: Float64Array,
  minor: Float64Array | null,
  n: number,
): Int32Array {
  let minMajor = Infinity;
  let maxMajor = -Infinity;
  let minMinor = 0;
  let maxMinor = 0;
  let halves = true;
  if (minor) {
    minMinor = Infinity;
    maxMinor = -Infinity;
  }
  for (let k = 0; k < positions.length; k++) {
    const i = positions[k] as number;
    const a = 2 * (major[i] as number);
    if (!Number.isInteger(a)) halves = false;
    if (a < minMajor) minMajor = a;
    if (a > maxMajor) maxMajor = a;
    if (!minor) continue;
    const b = 2 * (minor[i] as number);
    if (!Number.isInteger(b)) halves = false;
    if (b < minMinor) minMinor = b;
    if (b > maxMinor) maxMinor = b;
  }
  const minors = maxMinor - minMinor + 1;
  const majors = maxMajor - minMajor + 1;
  const slots = Math.max(1, n);
  if (positions.length === 0 || !halves || majors * minors * slots > Number.MAX_SAFE_INTEGER)
    return positions
      .slice()
      .sort(
        (x, y) =>
          (major[x] as number) - (major[y] as number) ||
          (minor ? (minor[x] as number) - (minor[y] as number) : 0) ||
          x - y,
      );
  const keys = new Float64Array(positions.length);
  for (let k = 0; k < positions.length; k++) {
    const i = positions[k] as number;
    const b = minor ? 2 * (minor[i] as number) - minMinor : 0;
    keys[k] = ((2 * (major[i] as number) - minMajor) * minors + b) * slots + i;
  }
  keys.sort();
  const out = new Int32Array(positions.length);
  for (let k = 0; k < keys.length; k++) out[k] = (keys[k] as number) % slots;
  return out;
}

/**
 * Pairs per block, CSR style: block number `b` of message `m` is `blockStart[m] + block`
 * (`blockStart` has messages + 1 entries); its pairs are `pairIdx[pairStart[b] .. pairStart[b+1])`,
 * positions in the pair list, in pair order (a call can have several results).
 */
export interface BlockPairTable {
  blockStart: Int32Array;
  pairStart: Int32Array;
  pairIdx: Int32Array;
}

/**
 * Build the pairs-per-block table of `pairs` over `messages`. An end that names no block of
 * `messages` is left out. O(messages + pairs).
 */
export function blockPairTable(
  messages: readonly Message[],
  pairs: readonly ToolPair[],
): BlockPairTable {
  const n = messages.length;
  const blockStart = new Int32Array(n + 1);
  for (let i = 0; i < n; i++)
    blockStart[i + 1] = (blockStart[i] as number) + (messages[i] as Message).blocks.length;
  const blocks = blockStart[n] as number;
  const numberOf = (r: { message: number; block: number } | null): number => {
    if (!r || r.message < 0 || r.message >= n || r.block < 0) return -1;
    const b = (blockStart[r.message] as number) + r.block;
    return b < (blockStart[r.message + 1] as number) ? b : -1;
  };
  const ends = new Int32Array(pairs.length * 2);
  for (let i = 0; i < pairs.length; i++) {
    const p = pairs[i] as ToolPair;
    ends[2 * i] = numberOf(p.call);
    ends[2 * i + 1] = numberOf(p.result);
  }
  const pairStart = new Int32Array(blocks + 1);
  for (const b of ends) if (b >= 0) pairStart[b + 1] = (pairStart[b + 1] as number) + 1;
  for (let b = 0; b < blocks; b++)
    pairStart[b + 1] = (pairStart[b + 1] as number) + (pairStart[b] as number);
  const fill = pairStart.slice(0, blocks);
  const pairIdx = new Int32Array(pairStart[blocks] as number);
  for (let k = 0; k < ends.length; k++) {
    const b = ends[k] as number;
    if (b < 0) continue;
    const at = fill[b] as number;
    pairIdx[at] = k >> 1;
    fill[b] = at + 1;
  }
  return { blockStart, pairStart, pairIdx };
}

/** Lanes per pair position (`laneTable`): -1 for a pair without a span; `maxLane` the highest. */
export interface LaneTable {
  lane: Int32Array;
  maxLane: number;
}

/**
 * Assign arc lanes so that overlapping spans (`pairSpan`) never share one: shorter spans first
 * (a nested pair gets a lane closer to the rows than the pair around it, lines do not cross),
 * ties by start then position; each takes the first lane without a clash. Spans that only touch
 * at a message overlap. Same lanes as the timeline's `assignLanes`, as a typed array by position
 * with per-lane number arrays instead of span objects and a Map by key (issue 7: 50,000 pairs took
 * 150+ ms the object way). The ordering is here, the placing in `lanesInOrder`.
 * O(n log n + n·lanes·log n).
 */
export function laneTable(pairs: readonly ToolPair[]): LaneTable {
  const { start, end, withSpan } = spansOf(pairs);
  const length = new Float64Array(pairs.length);
  for (let k = 0; k < withSpan.length; k++) {
    const i = withSpan[k] as number;
    length[i] = (end[i] as number) - (start[i] as number);
  }
  return lanesInOrder(sortBySpan(withSpan, length, start, pairs.length), start, end);
}

/**
 * The lanes of `laneTable` once the spans are ordered: `order` holds pair positions (those with
 * a span, shortest first, ties by start then position), `start`/`end` the spans by position
 * (message indices, open ends half a message out; length = the pair count, which is the length
 * of the returned `lane`). Each span in turn takes the first lane where it meets no span already
 * placed (touching at a message is meeting); a lane keeps its spans' starts and ends as sorted
 * number arrays, searched by bisection. Positions not in `order` keep lane -1.
 * O(n·lanes·log n) plus the inserts.
 */
export function lanesInOrder(order: Int32Array, start: Float64Array, end: Float64Array): LaneTable {
  const lane = new Int32Array(start.length).fill(-1);
  const laneStarts: number[][] = [];
  const laneEnds: number[][] = [];
  let maxLane = 0;
  for (let k = 0; k < order.length; k++) {
    const i = order[k] as number;
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

/** Longest span (messages) kept in the sorted list of a `PairIndex`; longer ones are checked one by one. */
export const SHORT_SPAN = 64;

/**
 * Pairs by span, to find the ones meeting a message range without looking at every pair: short
 * spans (≤ SHORT_SPAN, nearly all) sorted by start; long ones (late answers, open ends) listed.
 */
export interface PairIndex {
  /** Positions (in the indexed list) of short pairs, sorted by span start, then position. */
  short: Int32Array;
  /** Span starts of `short`, same order. */
  shortStart: Float64Array;
  /** Positions of long pairs with their spans. */
  long: { pos: number; start: number; end: number }[];
  /** Span ends by position (NaN for pairs without a span). */
  end: Float64Array;
}

/** Index pairs by their span (message indices). O(n log n), once per pair list. */
export function indexPairs(pairs: readonly ToolPair[]): PairIndex {
  const { start: startOf, end: endOf, withSpan } = spansOf(pairs);
  const shortPos = new Int32Array(withSpan.length);
  let shorts = 0;
  const long: PairIndex['long'] = [];
  const end = new Float64Array(pairs.length).fill(NaN);
  for (let k = 0; k < withSpan.length; k++) {
    const pos = withSpan[k] as number;
    const s = startOf[pos] as number;
    const e = endOf[pos] as number;
    end[pos] = e;
    if (e - s <= SHORT_SPAN) shortPos[shorts++] = pos;
    else long.push({ pos, start: s, end: e });
  }
  const short = sortBySpan(shortPos.subarray(0, shorts), startOf, null, pairs.length);
  return {
    short,
    shortStart: Float64Array.from(short, (pos) => startOf[pos] as number),
    long,
    end,
  };
}

/** The timeline's tables of one analysis; the arc ones are over `pairs.filter(isArcPair)`. */
export interface PairTables {
  blocks: BlockPairTable;
  arcLanes: LaneTable;
  arcIndex: PairIndex;
}

/**
 * All tables of an analysis (computed in the worker for long transcripts).
 * @param messages the transcript's messages; @param pairs the analysis' pairs
 */
export function pairTables(messages: readonly Message[], pairs: readonly ToolPair[]): PairTables {
  const arcs = pairs.filter(isArcPair);
  return {
    blocks: blockPairTable(messages, pairs),
    arcLanes: laneTable(arcs),
    arcIndex: indexPairs(arcs),
  };
}

/** The typed arrays of `t` (a transfer list for postMessage). */
export function pairTableBuffers(t: PairTables): ArrayBuffer[] {
  const out: ArrayBuffer[] = [];
  for (const a of [
    t.blocks.blockStart,
    t.blocks.pairStart,
    t.blocks.pairIdx,
    t.arcLanes.lane,
    t.arcIndex.short,
    t.arcIndex.shortStart,
    t.arcIndex.end,
  ])
    if (a.buffer instanceof ArrayBuffer) out.push(a.buffer);
  return out;
}

/**
 * The pairs each block belongs to (a call can have several results: duplicates), as compact
 * tables built once per analysis: `blockStart` (per message, its first block's number; length
 * messages + 1), then per block number the range `[pairStart[b], pairStart[b + 1])` of `pairIdx`
 * (positions in `analysis.pairs`, in pair order). O(messages + blocks + pairs) typed arrays, no
 * string keys (issue 7: the `message:block` Map took 100–150 ms at 67,000 messages).
 */
export interface PairsOfBlock {
  /** The pairs holding block `block` of message `message` (ours), in pair order; undefined = none. */
  of(message: number, block: number): readonly ToolPair[] | undefined;
}

/** A `PairsOfBlock` over a block table of `pairs` (`blockPairTable`). */
export function pairsOfBlockFrom(t: BlockPairTable, pairs: readonly ToolPair[]): PairsOfBlock {
  const { blockStart, pairStart, pairIdx } = t;
  const n = blockStart.length - 1;
  return {
    of(message, block) {
      if (message < 0 || message >= n || block < 0) return undefined;
      const b = (blockStart[message] as number) + block;
      if (b >= (blockStart[message + 1] as number)) return undefined;
      const lo = pairStart[b] as number;
      const hi = pairStart[b + 1] as number;
      if (lo === hi) return undefined;
      const out: ToolPair[] = [];
      for (let k = lo; k < hi; k++) out.push(pairs[pairIdx[k] as number] as ToolPair);
      return out;
    },
  };
}
