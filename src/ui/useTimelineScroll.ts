/**
 * The timeline's scrolling and measuring (Timeline.tsx): scroll to the selection, keep and
 * restore the scroll anchor (the top exchange, for permalinks), and measure rows — deferred while
 * a long timeline scrolls (issue 7).
 */
import type { Virtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useMemo, useRef, type RefObject } from 'react';
import type { Analysis } from '../model/analyze.ts';
import type { ToolPair } from '../model/pairing.ts';
import type { RowModel } from '../state/selectors.ts';
import { appStore, type AppState } from '../state/store.ts';

type RowVirtualizer = Virtualizer<HTMLDivElement, Element>;

/** Above this many rows, rows first seen during a scroll are measured when it stops (issue 7). */
const DEFER_MEASURE_ROWS = 2000;

/**
 * Scroll to the selection when it is off screen (centred): a message, or the partner end of a
 * selected pair.
 */
export function useScrollToSelection(
  virtualizer: RowVirtualizer,
  scrollRef: RefObject<HTMLDivElement | null>,
  analysis: Analysis,
  selection: AppState['selection'],
  selectedPair: ToolPair | undefined,
  rowOfMessage: RowModel['rowOfMessage'],
): void {
  useEffect(() => {
    if (!selection) return;
    const el = scrollRef.current;
    const top = el?.scrollTop ?? 0;
    const bottom = top + (el?.clientHeight ?? 0);
    const visible = (row: number) => {
      const m = virtualizer.measurementsCache[row];
      return m !== undefined && m.start >= top && m.end <= bottom;
    };
    let target = -1;
    if (selection.kind === 'message') target = rowOfMessage[selection.index] ?? -1;
    else if (selectedPair) {
      const callRow = selectedPair.call ? (rowOfMessage[selectedPair.call.message] ?? -1) : -1;
      const resultRow = selectedPair.result
        ? (rowOfMessage[selectedPair.result.message] ?? -1)
        : -1;
      target = resultRow >= 0 && !visible(resultRow) ? resultRow : callRow;
    }
    if (target < 0 || visible(target)) return;
    virtualizer.scrollToIndex(target, { align: 'center' });
    // Rows mounted on the way are measured after the jump and can shift it (estimates differ
    // from real heights): check again on the next frames until the target is on screen.
    let tries = 0;
    let raf = 0;
    const settle = () => {
      const t = scrollRef.current?.scrollTop ?? 0;
      const m = virtualizer.measurementsCache[target];
      const h = scrollRef.current?.clientHeight ?? 0;
      if (m && (m.start < t || m.end > t + h) && tries++ < 5) {
        virtualizer.scrollToIndex(target, { align: 'center' });
        raf = requestAnimationFrame(settle);
      }
    };
    raf = requestAnimationFrame(settle);
    return () => cancelAnimationFrame(raf);
    // Only a new selection scrolls; re-measuring must not pull the view back.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [selection, analysis]);
}

/**
 * Restore the scroll anchor (top exchange) once per source, e.g. from a permalink, and keep the
 * anchor (the exchange at the top of the view) in the store. A new analysis of the same source
 * (another provider) keeps the scroll position as it is.
 * @param topExchange key of the exchange at the top of the view, if any
 * @param viewTop the scroll offset (px)
 */
export function useScrollAnchor(
  virtualizer: RowVirtualizer,
  analysis: Analysis,
  rowOfExchange: RowModel['rowOfExchange'],
  topExchange: string | undefined,
  viewTop: number,
): void {
  const restoredFor = useRef<unknown>(null);
  useEffect(() => {
    const { anchor, source } = appStore.getState();
    if (restoredFor.current === source) return;
    restoredFor.current = source;
    // A source shown anew starts at its top (the timeline element stays: its old offset would
    // otherwise carry over, and be written to the address as an anchor).
    if (!anchor) {
      virtualizer.scrollToOffset(0);
      return;
    }
    const x = analysis.grouping.exchanges.find((e) => e.key === anchor);
    const row = x ? rowOfExchange[x.index] : undefined;
    if (row !== undefined && row >= 0) virtualizer.scrollToIndex(row, { align: 'start' });
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [analysis]);

  const scrolledRef = useRef(false);
  useEffect(() => {
    const { anchor, setAnchor } = appStore.getState();
    if (viewTop <= 0) {
      // Back at the top after a scroll: no anchor. (Before any scroll, keep a restored anchor.)
      if (scrolledRef.current && anchor !== null) setAnchor(null);
      return;
    }
    scrolledRef.current = true;
    if (topExchange && anchor !== topExchange) setAnchor(topExchange);
  }, [topExchange, viewTop]);
}

/**
 * Row measurement. Large transcripts (issue 7): measuring a newly mounted row makes the
 * virtualizer recompute the offset of every row after it (O(rows) per frame at 100,000
 * messages). While the user scrolls a long timeline, rows not measured yet keep their estimated
 * height (clipped) and are measured once scrolling stops; short timelines measure at once.
 * @returns whether measuring is deferred now, the keys measured so far, and the rows' ref
 */
export function useRowMeasurement(
  virtualizer: RowVirtualizer,
  scrollRef: RefObject<HTMLDivElement | null>,
  rowModel: RowModel,
): {
  deferMeasure: boolean;
  measuredKeys: ReadonlySet<number>;
  measureRow: (el: HTMLDivElement | null) => void;
} {
  const deferMeasure = rowModel.count > DEFER_MEASURE_ROWS && virtualizer.isScrolling;
  // A new row model starts with nothing measured.
  // eslint-disable-next-line react-hooks/exhaustive-deps
  const measuredKeys = useMemo(() => new Set<number>(), [rowModel]);
  const deferRef = useRef(deferMeasure);
  deferRef.current = deferMeasure;
  const measureRow = useCallback(
    (el: HTMLDivElement | null) => {
      if (!el) return;
      const i = Number(el.dataset.index);
      if (!(i >= 0 && i < rowModel.count)) return;
      const key = rowModel.rowKey(i);
      if (deferRef.current && !measuredKeys.has(key)) return;
      measuredKeys.add(key);
      virtualizer.measureElement(el);
    },
    [rowModel, measuredKeys, virtualizer],
  );
  useEffect(() => {
    if (deferMeasure) return;
    scrollRef.current
      ?.querySelectorAll<HTMLDivElement>(
        ':scope > .timeline-content > .timeline-grid > .row[data-index]',
      )
      .forEach((el) => {
        const i = Number(el.dataset.index);
        if (i >= 0 && i < rowModel.count && !measuredKeys.has(rowModel.rowKey(i))) measureRow(el);
      });
  }, [deferMeasure, rowModel, measuredKeys, measureRow, scrollRef]);
  return { deferMeasure, measuredKeys, measureRow };
}
