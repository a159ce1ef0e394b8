/**
 * The timeline's per-render arithmetic (Timeline.tsx), kept out of React: which message each row
 * marks (worst violation, find matches), which rows stay mounted, which row is in the tab order,
 * the exchange at the top of the view, a band's label, and the arcs near the visible rows.
 * Pure: typed-array reads and small Maps, O(visible rows) per call except where noted.
 */
import type { VirtualItem } from '@tanstack/react-virtual';
import type { Exchange } from '../model/exchanges.ts';
import type { ToolPair } from '../model/pairing.ts';
import type { LaneTable, PairIndex } from '../model/pairTables.ts';
import type { Matches, RowModel, ViolationTarget } from '../state/selectors.ts';
import type { Selection } from '../state/store.ts';
import { laneMap, visiblePairs } from './arcs/arcIndex.ts';
import {
  DEFAULT_ARC_OPTIONS,
  layoutArcs,
  type ArcPath,
  type RowBox,
  type Viewport,
} from './arcs/arcLayout.ts';

const RANK_ORDER = { first: 0, next: 1, warning: 2 } as const;

/**
 * Per message, the worst rank of the violations pointing at it (first, then next, then warning).
 * O(violations).
 */
export function worstViolationAt(
  violations: readonly ViolationTarget[],
): Map<number, ViolationTarget['rank']> {
  const out = new Map<number, ViolationTarget['rank']>();
  for (const v of violations) {
    const prev = out.get(v.message);
    if (prev === undefined || RANK_ORDER[v.rank] < RANK_ORDER[prev]) out.set(v.message, v.rank);
  }
  return out;
}

/** The find matches (`message:block` keys) grouped by message. O(matches). */
export function matchesByMessage(matches: Matches): Map<number, Set<string>> {
  const out = new Map<number, Set<string>>();
  for (const k of matches.blocks) {
    const mi = Number(k.split(':')[0]);
    const set = out.get(mi) ?? new Set<string>();
    set.add(k);
    out.set(mi, set);
  }
  return out;
}

/**
 * Rows kept mounted whatever the scroll (the virtualiser's rangeExtractor): the selected message,
 * or both ends of the selected pair, so their arcs have measured endpoints.
 */
export function pinnedRowsOf(
  selection: Selection,
  selectedPair: ToolPair | undefined,
  rowOfMessage: RowModel['rowOfMessage'],
): number[] {
  const out: number[] = [];
  const addMsg = (m: number | undefined) => {
    const r = m === undefined ? -1 : (rowOfMessage[m] ?? -1);
    if (r >= 0) out.push(r);
  };
  if (selection?.kind === 'message') addMsg(selection.index);
  if (selectedPair) {
    addMsg(selectedPair.call?.message);
    addMsg(selectedPair.result?.message);
  }
  return out;
}

/**
 * The row in the tab order (roving tabindex): the current message's row when it is mounted, else
 * the first message row in view; -1 when there is none.
 * @param currentMsg the selected message, or the call (else result) of the selected pair; -1 = none
 * @param viewTop the scroll offset, px
 */
export function tabRowOf(
  currentMsg: number,
  items: readonly VirtualItem[],
  rowModel: RowModel,
  viewTop: number,
): number {
  const tabRow = currentMsg >= 0 ? (rowModel.rowOfMessage[currentMsg] ?? -1) : -1;
  if (tabRow >= 0 && items.some((it) => it.index === tabRow)) return tabRow;
  return (
    items.find((it) => it.end > viewTop && (rowModel.rowMessage[it.index] ?? -1) >= 0)?.index ?? -1
  );
}

/**
 * Key of the exchange of the row at the top of the view (the permalink's scroll anchor); none
 * for a pinned message's row.
 */
export function topExchangeKey(
  items: readonly VirtualItem[],
  viewTop: number,
  rowModel: RowModel,
  exchanges: readonly Exchange[],
): string | undefined {
  const topRow = items.find((it) => it.end > viewTop);
  const row = topRow ? rowModel.row(topRow.index) : undefined;
  return row && row.exchange >= 0 ? exchanges[row.exchange]?.key : undefined;
}

/**
 * A band's label: for the leading group, what is before the first user prompt (a user message
 * with no tool result: user rows holding tool results can sit in it, so it does not say "user
 * message"), else "Exchange N", counted from 1 (the leading group, when there is one, is
 * exchange 0).
 */
export function bandLabel(x: Exchange, hasLeading: boolean): string {
  return x.leading ? LEADING_BAND : `Exchange ${hasLeading ? x.index : x.index + 1}`;
}

/** The leading group's band label (a transcript cut mid-exchange starts with one). */
export const LEADING_BAND = 'Before the first user prompt: the transcript starts mid-exchange';

/** What `visibleArcs` needs of the analysis's pairs. */
export interface ArcSource {
  /** The pairs drawn: with a budget, the primary policy's (an evicted end turns them red). */
  arcPairs: readonly ToolPair[];
  /** The analysis's pairs, whose lanes and index these are. */
  basePairs: readonly ToolPair[];
  lanes: LaneTable;
  index: PairIndex;
}

/**
 * Lay out only the arcs that meet the visible rows (issue 7: O(visible), not O(pairs)): the
 * messages of the rows in view (a band counts as its exchange's first message) give a message
 * range, and the pair index gives the pairs near it with their lanes. With no message in view, or
 * pairs that are not the analysis's own, every pair is laid out.
 * @param rowBox box of a message's row in content px (measured or estimated)
 * @returns the arcs and the pairs they come from (for the arcs' accessible names)
 */
export function visibleArcs(
  items: readonly VirtualItem[],
  viewport: Viewport,
  rowModel: RowModel,
  exchanges: readonly Exchange[],
  src: ArcSource,
  rowBox: (message: number) => RowBox,
): { arcs: ArcPath[]; pairs: readonly ToolPair[] } {
  let loMsg = Infinity;
  let hiMsg = -Infinity;
  for (const it of items) {
    if (it.end < viewport.top || it.start > viewport.bottom) continue;
    const row = rowModel.row(it.index);
    const m =
      row?.kind === 'message' ? row.message : row ? (exchanges[row.exchange]?.first ?? -1) : -1;
    if (m < 0) continue;
    loMsg = Math.min(loMsg, m);
    hiMsg = Math.max(hiMsg, m);
  }
  const { arcPairs, basePairs, lanes } = src;
  let pairs: readonly ToolPair[];
  let shownLanes: ReadonlyMap<string, number>;
  if (loMsg > hiMsg || arcPairs.length !== basePairs.length) {
    pairs = arcPairs;
    shownLanes = laneMap(basePairs, lanes);
  } else {
    // Only the pairs near the visible rows, with their lanes: O(visible), no per-pair Map.
    const positions = visiblePairs(src.index, loMsg, hiMsg);
    pairs = positions.map((i) => arcPairs[i] as ToolPair);
    shownLanes = new Map(
      positions.map((i) => [(arcPairs[i] as ToolPair).key, Math.max(0, lanes.lane[i] ?? 0)]),
    );
  }
  const arcs = layoutArcs(pairs, shownLanes, rowBox, viewport, DEFAULT_ARC_OPTIONS, lanes.maxLane);
  return { arcs, pairs };
}
