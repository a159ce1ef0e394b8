/**
 * The virtualized timeline: exchange band labels and message rows (@tanstack/react-virtual), with
 * the arc gutter drawn inside the same sized content element. The selected message and both
 * ends of the selected pair stay mounted (rangeExtractor) so their arcs have measured endpoints.
 * The grid and its rows are TimelineGrid.tsx, the hooks useTimelineGrid.ts and
 * useTimelineScroll.ts, the per-render arithmetic timelineView.ts.
 */
import type { VirtualItem } from '@tanstack/react-virtual';
import { useMemo, useRef } from 'react';
import type { Analysis } from '../model/analyze.ts';
import { blockWordsOf } from '../model/parse/registry.ts';
import type { TokenTable } from '../model/tokens.ts';
import {
  selectArcPairs,
  selectArcTables,
  selectExchangeTokens,
  selectPairsOfBlock,
  selectRows,
  type Matches,
  type RowModel,
  type ViolationTarget,
} from '../state/selectors.ts';
import { DEFAULT_ARC_OPTIONS, type Viewport } from './arcs/arcLayout.ts';
import { ArcLayer } from './arcs/ArcLayer.tsx';
import { type PairSignals, pendingSignals, selectPairSignals } from './arcs/pairSignals.ts';
import type { TimelineEviction } from './budget/RowEviction.tsx';
import { TimelineGrid, type MessageRowsShared } from './TimelineGrid.tsx';
import { pinnedRowsOf, tabRowOf, topExchangeKey, visibleArcs } from './timelineView.ts';
import {
  useFocusFollowsSelection,
  useRowLookups,
  useTimelineSelection,
  useTimelineVirtualizer,
  type RowLookups,
  type TimelineSelection,
} from './useTimelineGrid.ts';
import {
  useRowMeasurement,
  useScrollAnchor,
  useScrollToSelection,
  type RevealRequest,
} from './useTimelineScroll.ts';

export interface TimelineProps {
  analysis: Analysis;
  tokens: TokenTable;
  dimmed: Uint8Array;
  matches: Matches;
  violations: readonly ViolationTarget[];
  expanded: ReadonlySet<number>;
  onToggle: (index: number) => void;
  /** The eviction simulator's marks (greyed rows, policy lanes, cut markers, red arcs); null = none. */
  eviction?: TimelineEviction | null;
  /** Lost-meaning marks of the primary policy's eviction: message → mark kind (`data-lost` on the row). */
  lostMarks?: ReadonlyMap<number, string> | null;
  /** The find query (marked inside opened rows). */
  query?: string;
  /**
   * True while a large file's preview (first rows) is drawn: no pair is drawn broken yet, its
   * tool_result may be further on (`pendingSignals`).
   */
  provisional?: boolean;
  /** The latest request to bring the selected row onto the page (and focus it); null = none. */
  reveal?: RevealRequest | null;
}

const GUTTER = DEFAULT_ARC_OPTIONS.gutterWidth;

interface TimelineArcsProps {
  analysis: Analysis;
  /** `selectPairSignals`, or a preview's `pendingSignals`. */
  signals: PairSignals;
  provisional: boolean;
  eviction: TimelineEviction | null;
  /** The rows drawn, their boxes (`virtualizer.measurementsCache`) and the view, content px. */
  items: readonly VirtualItem[];
  measurements: readonly VirtualItem[];
  viewport: Viewport;
  rowModel: RowModel;
  /** The content's height, px. */
  height: number;
  hovered: string | null;
  selected: string | null;
  labelOf: (message: number) => string;
  onHover: (key: string | null) => void;
  onSelect: (key: string) => void;
}

/**
 * The arc gutter: the arcs that meet the visible rows (`visibleArcs`), laid out on the rows'
 * measured (or estimated) boxes. With a budget, arcs carry the primary policy's derived status.
 */
function TimelineArcs(p: TimelineArcsProps) {
  const { analysis, rowModel } = p;
  const rowBox = (message: number) => {
    const m = p.measurements[rowModel.rowOfMessage[message] ?? 0];
    return m ? { top: m.start, height: m.size } : { top: 0, height: 0 };
  };
  // Lanes and the visible-range index: typed tables once per analysis, from the worker for long
  // transcripts (issue 7).
  const basePairs = selectArcPairs(analysis);
  const { lanes, index } = selectArcTables(analysis);
  const source = { arcPairs: p.eviction?.pairs ?? basePairs, basePairs, lanes, index };
  const exchanges = analysis.grouping.exchanges;
  const shown = visibleArcs(p.items, p.viewport, rowModel, exchanges, source, rowBox);
  return (
    <ArcLayer
      arcs={shown.arcs}
      pairs={shown.pairs}
      signals={p.signals}
      pending={p.provisional}
      valid={analysis.validation.valid}
      width={GUTTER}
      height={p.height}
      hovered={p.hovered}
      evicted={p.eviction?.pairState}
      selected={p.selected}
      labelOf={p.labelOf}
      onHover={p.onHover}
      onSelect={p.onSelect}
    />
  );
}

/** The pair signals the rows and arcs show: a preview's are pending (`pendingSignals`). */
function signalsOf(props: TimelineProps): PairSignals {
  return props.provisional ? pendingSignals(props.analysis) : selectPairSignals(props.analysis);
}

/** What every message row of this render shares (`MessageRowsShared`). */
function sharedOfRows(
  props: TimelineProps,
  sel: TimelineSelection,
  lookups: RowLookups,
  measureRow: (el: HTMLDivElement | null) => void,
): MessageRowsShared {
  const { analysis, tokens } = props;
  const selection = sel.selection;
  return {
    ...lookups,
    messages: analysis.transcript.messages,
    perMessage: tokens.perMessage,
    approx: !tokens.basis.exact,
    expanded: props.expanded,
    dimmed: props.dimmed,
    query: props.query ?? '',
    pairsOfBlock: selectPairsOfBlock(analysis),
    words: blockWordsOf(analysis.transcript.format),
    signals: signalsOf(props),
    valid: analysis.validation.valid,
    activePairs: sel.activePairs,
    selectedMessage: selection?.kind === 'message' ? selection.index : -1,
    eviction: props.eviction ?? null,
    lostMarks: props.lostMarks ?? null,
    onToggle: props.onToggle,
    onSelect: sel.onSelect,
    onSelectPair: sel.onSelectPair,
    onHoverPair: sel.setHovered,
    measureRow,
  };
}

/** The timeline of one analysis: the arc gutter and the treegrid of band and message rows. */
export function Timeline(props: TimelineProps) {
  const { analysis, tokens, eviction = null } = props;
  const scrollRef = useRef<HTMLDivElement>(null);
  const gridRef = useRef<HTMLDivElement>(null);
  const sel = useTimelineSelection(analysis);
  const rowModel = selectRows(analysis);
  const { rowOfMessage } = rowModel;
  const exchanges = analysis.grouping.exchanges;
  const lookups = useRowLookups(analysis, tokens, props.violations, props.matches);

  const { selection, selectedPair } = sel;
  const pinnedRows = useMemo(
    () => pinnedRowsOf(selection, selectedPair, rowOfMessage),
    [selection, selectedPair, rowOfMessage],
  );
  const virtualizer = useTimelineVirtualizer(scrollRef, rowModel, pinnedRows);
  useScrollToSelection(
    virtualizer,
    scrollRef,
    analysis,
    selection,
    selectedPair,
    rowOfMessage,
    props.reveal ?? null,
  );

  const items = virtualizer.getVirtualItems();
  const viewTop = virtualizer.scrollOffset ?? 0;
  const viewport = { top: viewTop, bottom: viewTop + (scrollRef.current?.clientHeight ?? 800) };
  // Keep the anchor (the exchange at the top of the view) in the store for permalinks.
  const topExchange = topExchangeKey(items, viewTop, rowModel, exchanges);
  useScrollAnchor(virtualizer, analysis, rowModel.rowOfExchange, topExchange, viewTop);
  const measuring = useRowMeasurement(virtualizer, scrollRef, rowModel);

  // Roving tabindex: one row is in the tab order, the current message's, else the first message
  // row in view; while a row has focus, focus follows the selection.
  const tabRow = tabRowOf(sel.currentMsg, items, rowModel, viewTop);
  useFocusFollowsSelection(gridRef, sel.currentMsg);

  const shared = sharedOfRows(props, sel, lookups, measuring.measureRow);
  const height = virtualizer.getTotalSize();
  return (
    <div
      className="timeline-scroll"
      id="timeline"
      ref={scrollRef}
      data-testid="timeline"
      tabIndex={-1}
    >
      <div className="timeline-content" style={{ height }}>
        <TimelineArcs
          analysis={analysis}
          signals={signalsOf(props)}
          provisional={props.provisional === true}
          eviction={eviction}
          items={items}
          viewport={viewport}
          rowModel={rowModel}
          measurements={virtualizer.measurementsCache}
          height={height}
          hovered={sel.hovered}
          selected={sel.selectedPairKey}
          labelOf={lookups.labelOf}
          onHover={sel.setHovered}
          onSelect={sel.onSelectPair}
        />
        <TimelineGrid
          gridRef={gridRef}
          rowModel={rowModel}
          items={items}
          exchanges={exchanges}
          exchangeTokens={selectExchangeTokens(analysis, tokens)}
          tabRow={tabRow}
          deferMeasure={measuring.deferMeasure}
          measuredKeys={measuring.measuredKeys}
          gutter={GUTTER}
          shared={shared}
        />
      </div>
    </div>
  );
}
