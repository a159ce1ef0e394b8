/**
 * The timeline grid's hooks (Timeline.tsx): the selection and the hovered pair, the virtualiser
 * over the row model with the selected rows kept mounted, the lookups every row shares (memoised
 * per input), and focus that follows the selection while a row has it.
 */
import {
  defaultRangeExtractor,
  useVirtualizer,
  type Range,
  type Virtualizer,
} from '@tanstack/react-virtual';
import { useCallback, useEffect, useMemo, useState, type RefObject } from 'react';
import type { Analysis } from '../model/analyze.ts';
import type { ToolPair } from '../model/pairing.ts';
import { messageLabels } from '../model/messageLabels.ts';
import type { TokenTable } from '../model/tokens.ts';
import type { Matches, RowModel, ViolationTarget } from '../state/selectors.ts';
import { useAppStore, type Selection } from '../state/store.ts';
import { matchesByMessage, worstViolationAt } from './timelineView.ts';
import { rowSizeOf } from './useTimelineScroll.ts';

/** What `useTimelineSelection` returns. */
export interface TimelineSelection {
  selection: Selection;
  /** The selected pair, if a pair is selected. */
  selectedPair: ToolPair | undefined;
  /** Its key, or null. */
  selectedPairKey: string | null;
  /** The selected message, or the call (else result) of the selected pair; -1 = none. */
  currentMsg: number;
  /** The pair under the pointer (or focused arc), or null. */
  hovered: string | null;
  setHovered: (key: string | null) => void;
  /** Pair keys highlighted (hovered or selected); a new set only when either changes. */
  activePairs: ReadonlySet<string>;
  onSelect: (index: number) => void;
  onSelectPair: (key: string) => void;
}

/**
 * The selection (from the store) and the hovered pair (local), with what the timeline derives
 * from them: the selected pair, the current message (the selected one, or the call — else the
 * result — of the selected pair; -1 = none), the highlighted pair keys and stable select actions.
 */
export function useTimelineSelection(analysis: Analysis): TimelineSelection {
  const selection = useAppStore((s) => s.selection);
  const select = useAppStore((s) => s.select);
  const [hovered, setHovered] = useState<string | null>(null);
  const selectedPair =
    selection?.kind === 'pair' ? analysis.pairs.find((p) => p.key === selection.key) : undefined;
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
  const currentMsg =
    selection?.kind === 'message'
      ? selection.index
      : (selectedPair?.call?.message ?? selectedPair?.result?.message ?? -1);
  return {
    selection,
    selectedPair,
    selectedPairKey,
    currentMsg,
    hovered,
    setHovered,
    activePairs,
    onSelect,
    onSelectPair,
  };
}

/**
 * The row virtualiser (@tanstack/react-virtual). `pinnedRows` stay mounted whatever the scroll
 * (the selection's rows, so their arcs have measured endpoints).
 * @param pinnedRows row indices, memoised by the caller (a new array re-extracts the range)
 */
export function useTimelineVirtualizer(
  scrollRef: RefObject<HTMLDivElement | null>,
  rowModel: RowModel,
  pinnedRows: readonly number[],
): Virtualizer<HTMLDivElement, Element> {
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
  const { rowMessage } = rowModel;
  const estimateSize = useCallback(
    (i: number) => ((rowMessage[i] ?? 0) < 0 ? 32 : 34),
    [rowMessage],
  );
  const getItemKey = useCallback((i: number) => rowModel.rowKey(i), [rowModel]);
  const measureElement = useMemo(() => rowSizeOf(rowModel.count), [rowModel.count]);
  return useVirtualizer({
    measureElement,
    count: rowModel.count,
    getScrollElement: () => scrollRef.current,
    estimateSize,
    getItemKey,
    overscan: 6,
    rangeExtractor,
  });
}

/** What `useRowLookups` returns. */
export interface RowLookups {
  /** Largest per-message token count, for the token bars' scale. */
  maxTokens: number;
  /** Worst violation rank per message (`worstViolationAt`). */
  violationAt: ReadonlyMap<number, ViolationTarget['rank']>;
  /** Find matches (`message:block` keys) by message. */
  matchesByMessage: ReadonlyMap<number, ReadonlySet<string>>;
  /** Row label of a message (`#3`, `#3.2`). */
  labelOf: (message: number) => string;
}

/**
 * Lookups every row shares, each memoised on its own input so a row's `MessageRow` props stay
 * the same objects between renders: the largest message's tokens, the worst violation and the
 * find matches per message, and the row labels (`#3`, `#3.2` when several of ours share a raw
 * index).
 */
export function useRowLookups(
  analysis: Analysis,
  tokens: TokenTable,
  violations: readonly ViolationTarget[],
  matches: Matches,
): RowLookups {
  const maxTokens = useMemo(() => tokens.perMessage.reduce((a, b) => Math.max(a, b), 0), [tokens]);
  const violationAt = useMemo(() => worstViolationAt(violations), [violations]);
  const matchesOf = useMemo(() => matchesByMessage(matches), [matches]);
  const messages = analysis.transcript.messages;
  const labelOf = useMemo(() => messageLabels(messages).of, [messages]);
  return { maxTokens, violationAt, matchesByMessage: matchesOf, labelOf };
}

/**
 * Roving tabindex (WAI-ARIA treegrid, row focus): j/k/J/K and the arrows move the selection
 * (App.tsx); while a row of the grid has focus, focus follows the selection to the current
 * message's row (kept mounted by the virtualiser's pinned rows).
 * @param currentMsg the selected message, or the call (else result) of the selected pair; -1 = none
 */
export function useFocusFollowsSelection(
  gridRef: RefObject<HTMLDivElement | null>,
  currentMsg: number,
): void {
  useEffect(() => {
    const grid = gridRef.current;
    if (!grid || currentMsg < 0 || !grid.contains(document.activeElement)) return;
    const el = grid.querySelector<HTMLElement>(`:scope > [data-message-index="${currentMsg}"]`);
    if (el && el !== document.activeElement && !el.contains(document.activeElement))
      el.focus({ preventScroll: true });
  }, [currentMsg, gridRef]);
}
