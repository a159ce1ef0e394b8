/**
 * The virtualized timeline: exchange band labels and message rows (@tanstack/react-virtual), with
 * the arc gutter drawn inside the same sized content element. The selected message and both
 * ends of the selected pair stay mounted (rangeExtractor) so their arcs have measured endpoints.
 */
import { defaultRangeExtractor, useVirtualizer, type Range } from '@tanstack/react-virtual';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { Analysis } from '../model/analyze.ts';
import { messageLabels } from '../model/messageLabels.ts';
import type { TokenTable } from '../model/tokens.ts';
import {
  selectArcPairs,
  selectArcTables,
  selectExchangeTokens,
  selectPairsOfBlock,
  selectRows,
  type Matches,
  type ViolationTarget,
} from '../state/selectors.ts';
import { appStore, useAppStore } from '../state/store.ts';
import { DEFAULT_ARC_OPTIONS, layoutArcs } from './arcs/arcLayout.ts';
import { ArcLayer } from './arcs/ArcLayer.tsx';
import { laneMap, visiblePairs } from './arcs/arcIndex.ts';
import { selectPairSignals } from './arcs/pairSignals.ts';
import type { ToolPair } from '../model/pairing.ts';
import { evictionRowClass, RowEviction, type TimelineEviction } from './budget/RowEviction.tsx';
import { fmtInt } from './format.ts';
import { MessageRow } from './MessageRow.tsx';
import { useRowMeasurement, useScrollAnchor, useScrollToSelection } from './useTimelineScroll.ts';

export interface TimelineProps {
  analysis: Analysis;
  tokens: TokenTable;
  dimmed: Uint8Array;
  matches: Matches;
  violations: ViolationTarget[];
  expanded: ReadonlySet<number>;
  onToggle: (index: number) => void;
  /** The eviction simulator's marks (greyed rows, policy lanes, cut markers, red arcs); null = none. */
  eviction?: TimelineEviction | null;
  /** Lost-meaning marks of the primary policy's eviction: message → mark kind (`data-lost` on the row). */
  lostMarks?: ReadonlyMap<number, string> | null;
  /** The find query (marked inside opened rows). */
  query?: string;
}

const GUTTER = DEFAULT_ARC_OPTIONS.gutterWidth;
const NO_MATCH = new Set<string>();

export function Timeline({
  analysis,
  tokens,
  dimmed,
  matches,
  violations,
  expanded,
  onToggle,
  eviction = null,
  lostMarks = null,
  query = '',
}: TimelineProps) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const gridRef = useRef<HTMLDivElement>(null);
  const signals = selectPairSignals(analysis);
  const valid = analysis.validation.valid;
  const selection = useAppStore((s) => s.selection);
  const select = useAppStore((s) => s.select);
  const [hovered, setHovered] = useState<string | null>(null);
  const rowModel = selectRows(analysis);
  const { rowOfMessage, rowOfExchange, rowMessage } = rowModel;
  const basePairs = selectArcPairs(analysis);
  // With a budget, arcs carry the primary policy's derived status (an evicted end turns them red).
  const arcPairs = eviction?.pairs ?? basePairs;
  const pairsOfBlock = selectPairsOfBlock(analysis);
  const exchangeTokens = selectExchangeTokens(analysis, tokens);
  const messages = analysis.transcript.messages;
  const hasLeading = analysis.grouping.exchanges[0]?.leading === true;

  // Lanes and the visible-range index: typed tables once per analysis, from the worker for long
  // transcripts (issue 7).
  const { lanes: laneT, index: pairIndex } = selectArcTables(analysis);
  const maxTokens = useMemo(() => tokens.perMessage.reduce((a, b) => Math.max(a, b), 0), [tokens]);
  const violationAt = useMemo(() => {
    const out = new Map<number, ViolationTarget['rank']>();
    const order = { first: 0, next: 1, warning: 2 } as const;
    for (const v of violations) {
      const prev = out.get(v.message);
      if (prev === undefined || order[v.rank] < order[prev]) out.set(v.message, v.rank);
    }
    return out;
  }, [violations]);
  const matchesByMessage = useMemo(() => {
    const out = new Map<number, Set<string>>();
    for (const k of matches.blocks) {
      const mi = Number(k.split(':')[0]);
      const set = out.get(mi) ?? new Set<string>();
      set.add(k);
      out.set(mi, set);
    }
    return out;
  }, [matches]);

  const selectedPair =
    selection?.kind === 'pair' ? analysis.pairs.find((p) => p.key === selection.key) : undefined;
  const pinnedRows = useMemo(() => {
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
  }, [selection, selectedPair, rowOfMessage]);

  const rangeExtractor = useCallback(
    (range: Range) => {
      const base = defaultRangeExtractor(range);
      if (pinnedRows.length === 0) return base;
      const set = new Set(base);
      for (const r of pinnedRows) if (r < range.count) set.add(r);
      return [...set].sort((a, b) => a - b);
    },
    [pinnedRows],
  );

  // Stable per row model: a new getItemKey makes the virtualizer recompute every row's offset
  // (O(rows)) on each render, i.e. on every scroll frame (issue 7).
  // Typed-array reads and number keys: the virtualiser calls these once per row (100,000 times)
  // when it first measures a row model.
  const estimateSize = useCallback(
    (i: number) => ((rowMessage[i] ?? 0) < 0 ? 32 : 34),
    [rowMessage],
  );
  const getItemKey = useCallback((i: number) => rowModel.rowKey(i), [rowModel]);
  const virtualizer = useVirtualizer({
    count: rowModel.count,
    getScrollElement: () => scrollRef.current,
    estimateSize,
    getItemKey,
    overscan: 6,
    rangeExtractor,
  });

  useScrollToSelection(virtualizer, scrollRef, analysis, selection, selectedPair, rowOfMessage);

  const items = virtualizer.getVirtualItems();
  const el = scrollRef.current;
  const viewTop = virtualizer.scrollOffset ?? 0;
  const viewport = { top: viewTop, bottom: viewTop + (el?.clientHeight ?? 800) };

  // Keep the anchor (the exchange at the top of the view) in the store for permalinks.
  const topRow = items.find((it) => it.end > viewTop);
  const topRowData = topRow ? rowModel.row(topRow.index) : undefined;
  const topExchange =
    topRowData && topRowData.exchange >= 0
      ? analysis.grouping.exchanges[topRowData.exchange]?.key
      : undefined;
  useScrollAnchor(virtualizer, analysis, rowOfExchange, topExchange, viewTop);
  const { deferMeasure, measuredKeys, measureRow } = useRowMeasurement(
    virtualizer,
    scrollRef,
    rowModel,
  );

  const rowBox = (message: number) => {
    const r = rowOfMessage[message] ?? 0;
    const m = virtualizer.measurementsCache[r];
    return m ? { top: m.start, height: m.size } : { top: 0, height: 0 };
  };
  // Lay out only the arcs that meet the visible rows (issue 7: O(visible), not O(pairs)).
  let loMsg = Infinity;
  let hiMsg = -Infinity;
  for (const it of items) {
    if (it.end < viewport.top || it.start > viewport.bottom) continue;
    const row = rowModel.row(it.index);
    const m =
      row?.kind === 'message'
        ? row.message
        : row
          ? (analysis.grouping.exchanges[row.exchange]?.first ?? -1)
          : -1;
    if (m < 0) continue;
    loMsg = Math.min(loMsg, m);
    hiMsg = Math.max(hiMsg, m);
  }
  let shownPairs: readonly ToolPair[];
  let shownLanes: ReadonlyMap<string, number>;
  if (loMsg > hiMsg || arcPairs.length !== basePairs.length) {
    shownPairs = arcPairs;
    shownLanes = laneMap(basePairs, laneT);
  } else {
    // Only the pairs near the visible rows, with their lanes: O(visible), no per-pair Map.
    const positions = visiblePairs(pairIndex, loMsg, hiMsg);
    shownPairs = positions.map((i) => arcPairs[i] as ToolPair);
    shownLanes = new Map(
      positions.map((i) => [(arcPairs[i] as ToolPair).key, Math.max(0, laneT.lane[i] ?? 0)]),
    );
  }
  const arcs = layoutArcs(
    shownPairs,
    shownLanes,
    rowBox,
    viewport,
    DEFAULT_ARC_OPTIONS,
    laneT.maxLane,
  );
  // Keyed on the selected pair only: moving between messages (j/k/J/K) must not hand every
  // mounted row a new set (each would re-render; issue 16: J on a 67,000-message log).
  const selectedPairKey = selection?.kind === 'pair' ? selection.key : null;
  const activePairs = useMemo(() => {
    const s = new Set<string>();
    if (hovered) s.add(hovered);
    if (selectedPairKey) s.add(selectedPairKey);
    return s;
  }, [hovered, selectedPairKey]);

  const onSelect = useCallback((index: number) => select({ kind: 'message', index }), [select]);
  const onSelectPair = useCallback((key: string) => select({ kind: 'pair', key }), [select]);
  // Row labels (`#3`, `#3.2` when several of ours share a raw index), as the rows show them.
  const labelOf = useMemo(() => messageLabels(messages).of, [messages]);

  // Roving tabindex (WAI-ARIA treegrid, row focus): one row is in the tab order — the current
  // message's (a selected message, or the call of a selected pair; kept mounted by
  // rangeExtractor), else the first message row in view. j/k/J/K and the arrows move the
  // selection (App.tsx); while a row has focus, focus follows the selection.
  const currentMsg =
    selection?.kind === 'message'
      ? selection.index
      : (selectedPair?.call?.message ?? selectedPair?.result?.message ?? -1);
  let tabRow = currentMsg >= 0 ? (rowOfMessage[currentMsg] ?? -1) : -1;
  if (tabRow < 0 || !items.some((it) => it.index === tabRow))
    tabRow = items.find((it) => it.end > viewTop && (rowMessage[it.index] ?? -1) >= 0)?.index ?? -1;
  useEffect(() => {
    const grid = gridRef.current;
    if (!grid || currentMsg < 0 || !grid.contains(document.activeElement)) return;
    const el = grid.querySelector<HTMLElement>(`:scope > [data-message-index="${currentMsg}"]`);
    if (el && el !== document.activeElement && !el.contains(document.activeElement))
      el.focus({ preventScroll: true });
  }, [currentMsg]);

  return (
    <div className="timeline-scroll" ref={scrollRef} data-testid="timeline" tabIndex={-1}>
      <div className="timeline-content" style={{ height: virtualizer.getTotalSize() }}>
        <ArcLayer
          arcs={arcs}
          pairs={shownPairs}
          signals={signals}
          valid={valid}
          width={GUTTER}
          height={virtualizer.getTotalSize()}
          hovered={hovered}
          evicted={eviction?.pairState}
          selected={selection?.kind === 'pair' ? selection.key : null}
          labelOf={labelOf}
          onHover={setHovered}
          onSelect={onSelectPair}
        />
        <div
          className="timeline-grid"
          ref={gridRef}
          role="treegrid"
          aria-label="Timeline: exchanges and their messages (j/k or arrows move, Enter opens)"
          aria-rowcount={rowModel.count}
          aria-readonly="true"
          data-testid="timeline-grid"
        >
          {items.map((it) => {
            const row = rowModel.row(it.index);
            if (!row) return null;
            const style =
              deferMeasure && !measuredKeys.has(Number(it.key))
                ? {
                    transform: `translateY(${it.start}px)`,
                    left: GUTTER,
                    height: it.size,
                    overflow: 'hidden' as const,
                  }
                : { transform: `translateY(${it.start}px)`, left: GUTTER };
            if (row.kind === 'band') {
              const x = analysis.grouping.exchanges[row.exchange];
              if (!x) return null;
              const label = x.leading
                ? 'Before the first user message'
                : `Exchange ${hasLeading ? x.index : x.index + 1}`;
              return (
                <div
                  key={it.key}
                  className={`row band-row band-${x.index % 2}`}
                  style={style}
                  role="row"
                  aria-rowindex={it.index + 1}
                  aria-level={1}
                  tabIndex={-1}
                  data-index={it.index}
                  data-testid="band"
                  data-exchange={x.key}
                  ref={measureRow}
                >
                  <span className="band-label" role="rowheader">
                    {label}
                  </span>
                  <span className="band-meta" role="gridcell">
                    {fmtInt(x.messages.length)} message{x.messages.length === 1 ? '' : 's'} ·{' '}
                    {tokens.basis.exact ? '' : '≈'}
                    {fmtInt(exchangeTokens[x.index] ?? 0)} tokens
                  </span>
                </div>
              );
            }
            const m = messages[row.message];
            if (!m) return null;
            const selected = selection?.kind === 'message' && selection.index === row.message;
            return (
              <div
                key={it.key}
                className={`row msg-row ${row.exchange >= 0 ? `band-${row.exchange % 2}` : 'pinned-row'}${evictionRowClass(eviction?.flags[row.message])}`}
                style={style}
                role="row"
                aria-rowindex={it.index + 1}
                aria-level={row.exchange >= 0 ? 2 : 1}
                aria-selected={selected}
                tabIndex={it.index === tabRow ? 0 : -1}
                data-index={it.index}
                data-message-index={row.message}
                data-lost={lostMarks?.get(row.message)}
                ref={measureRow}
                onFocus={(e) => {
                  // Tabbing into the timeline with nothing chosen selects the row it lands on,
                  // so the keys move on from there.
                  if (e.target === e.currentTarget && appStore.getState().selection === null)
                    onSelect(row.message);
                }}
              >
                {eviction && (
                  <span className="ev-cell" role="gridcell">
                    <RowEviction
                      message={row.message}
                      flags={eviction.flags[row.message] ?? 0}
                      eviction={eviction}
                    />
                  </span>
                )}
                <MessageRow
                  message={m}
                  label={labelOf(row.message)}
                  tokens={tokens.perMessage[row.message] ?? 0}
                  maxTokens={maxTokens}
                  approx={!tokens.basis.exact}
                  expanded={expanded.has(row.message)}
                  selected={selected}
                  dimmed={dimmed[row.message] === 1}
                  matches={matchesByMessage.get(row.message) ?? NO_MATCH}
                  query={matchesByMessage.has(row.message) ? query : ''}
                  pairsOfBlock={pairsOfBlock}
                  signals={signals}
                  valid={valid}
                  activePairs={activePairs}
                  violation={violationAt.get(row.message) ?? null}
                  onToggle={onToggle}
                  onSelect={onSelect}
                  onSelectPair={onSelectPair}
                  onHoverPair={setHovered}
                />
              </div>
            );
          })}
        </div>
      </div>
    </div>
  );
}
