/**
 * The timeline's scrolling and measuring (Timeline.tsx): scroll to the selection, keep and
 * restore the scroll anchor (the top exchange, for permalinks), and measure rows — deferred while
 * a long timeline scrolls (issue 7).
 */
import { measureElement as measureNow, type Virtualizer } from '@tanstack/react-virtual';
import { useCallback, useEffect, useMemo, useRef, type RefObject } from 'react';
import type { Analysis } from '../model/analyze.ts';
import type { ToolPair } from '../model/pairing.ts';
import type { RowModel } from '../state/selectors.ts';
import { appStore, type AppState } from '../state/store.ts';

type RowVirtualizer = Virtualizer<HTMLDivElement, Element>;

/** Above this many rows, rows first seen during a scroll are measured when it stops (issue 7). */
const DEFER_MEASURE_ROWS = 2000;

/**
 * A request to bring the selected row into view on the page too, not only in the timeline's own
 * scroll: at narrow widths the columns stack and the timeline may sit below the screen (a jump
 * from the verdict, the simulator or a key). Each request is a new object; `focus` also moves the
 * focus to the row (a jump from a panel, as an in-page link does).
 */
export interface RevealRequest {
  message: number;
  focus: boolean;
}

/**
 * Frames a scroll to the selection may take to settle: rows mounted on the way are measured
 * after the jump (on a long timeline only once the scroll stops, issue 7) and shift it.
 */
const SETTLE_FRAMES = 120;
/** Frames the row must stay put before it is revealed on the page, and watched after. */
const STEADY_FRAMES = 3;
const WATCH_FRAMES = 12;
/** Input by which the user scrolls the timeline themselves. */
const USER_SCROLL = ['wheel', 'touchstart', 'pointerdown', 'keydown'] as const;
/** The keys that scroll a focused scroll box (a key that does not scroll leaves the watch on). */
const SCROLL_KEYS: ReadonlySet<string> = new Set([
  'PageUp',
  'PageDown',
  'Home',
  'End',
  'ArrowUp',
  'ArrowDown',
  ' ',
]);

/** Call `onUser` when the user scrolls the box themselves. @returns the unsubscribe */
function onUserScroll(el: HTMLElement, onUser: () => void): () => void {
  const handler = (e: Event) => {
    if (e instanceof KeyboardEvent && !SCROLL_KEYS.has(e.key)) return;
    onUser();
  };
  for (const t of USER_SCROLL) el.addEventListener(t, handler, { passive: true });
  return () => {
    for (const t of USER_SCROLL) el.removeEventListener(t, handler);
  };
}

/** The rendered row at a virtual index, if mounted. */
function rowElement(scroller: HTMLElement, row: number): HTMLElement | null {
  return scroller.querySelector<HTMLElement>(
    `:scope > .timeline-content > .timeline-grid > .row[data-index="${row}"]`,
  );
}

/** Whether the row is inside the timeline's visible box (its top, when it is taller than it). Exported for tests. */
export function rowInBox(scroller: HTMLElement, row: HTMLElement | null): boolean {
  if (!row) return false;
  const b = scroller.getBoundingClientRect();
  const r = row.getBoundingClientRect();
  if (r.top < b.top - 1) return false;
  // A row taller than the box is in it when its top is; one below the box is not.
  return r.height > b.height ? r.top <= b.bottom : r.bottom <= b.bottom + 1;
}

/**
 * Bring the row, already inside the timeline's box, onto the screen: scroll the page by as
 * little as shows the whole timeline box (or, when the box is taller than the screen, centre the
 * row); then focus the row if asked. A page that does not scroll (wide layouts) does not move.
 */
function revealOnPage(scroller: HTMLElement, row: HTMLElement | null, focus: boolean): void {
  if (!row) return;
  const vh = document.documentElement.clientHeight;
  const box = scroller.getBoundingClientRect();
  const r = row.getBoundingClientRect();
  let dy = 0;
  if (r.top < 0 || r.bottom > vh) {
    if (box.height <= vh) dy = box.top < 0 ? box.top : Math.max(0, box.bottom - vh);
    else dy = r.top + r.height / 2 - vh / 2;
  }
  if (dy !== 0) window.scrollBy({ top: dy, behavior: 'instant' });
  if (focus) row.focus({ preventScroll: true });
}

/** The row to scroll to: the message's, or the partner end of a selected pair; -1 = none. */
function targetRowOf(
  selection: NonNullable<AppState['selection']>,
  selectedPair: ToolPair | undefined,
  rowOfMessage: RowModel['rowOfMessage'],
  visible: (row: number) => boolean,
): number {
  if (selection.kind === 'message') return rowOfMessage[selection.index] ?? -1;
  if (!selectedPair) return -1;
  const callRow = selectedPair.call ? (rowOfMessage[selectedPair.call.message] ?? -1) : -1;
  const resultRow = selectedPair.result ? (rowOfMessage[selectedPair.result.message] ?? -1) : -1;
  return resultRow >= 0 && !visible(resultRow) ? resultRow : callRow;
}

/**
 * Scroll to the selection when it is off screen (centred): a message, or the partner end of a
 * selected pair. With a new `reveal` request, also bring the row onto the page once the
 * timeline's scroll has settled (`revealOnPage`), and focus it if asked.
 */
export function useScrollToSelection(
  virtualizer: RowVirtualizer,
  scrollRef: RefObject<HTMLDivElement | null>,
  analysis: Analysis,
  selection: AppState['selection'],
  selectedPair: ToolPair | undefined,
  rowOfMessage: RowModel['rowOfMessage'],
  reveal: RevealRequest | null,
): void {
  const handled = useRef<RevealRequest | null>(null);
  useEffect(() => {
    // A request stays pending until the row is revealed: a re-run meanwhile (a new analysis
    // when the tokenizer loads) carries it on. One for another message than the selection's is
    // dropped.
    const pending = reveal !== handled.current ? reveal : null;
    const request =
      pending && selection?.kind === 'message' && selection.index === pending.message
        ? pending
        : null;
    if (pending && !request) handled.current = pending;
    const el = scrollRef.current;
    if (!selection || !el) return;
    const top = el.scrollTop;
    const bottom = top + el.clientHeight;
    const visible = (row: number) => {
      const m = virtualizer.measurementsCache[row];
      return m !== undefined && m.start >= top && m.end <= bottom;
    };
    const target = targetRowOf(selection, selectedPair, rowOfMessage, visible);
    if (target < 0) return;
    if (!request && rowInBox(el, rowElement(el, target))) return;
    if (!rowInBox(el, rowElement(el, target)))
      virtualizer.scrollToIndex(target, { align: 'center' });
    // Settle on what is drawn (the row's box), not on the estimates: the row must stay put in
    // view for a few frames with no scroll under way, since a long timeline measures the rows it
    // passed once the scroll stops and that shifts them. Then reveal it on the page, and keep
    // watching a little: a late shift scrolls back to it (and reveals it again).
    let frames = 0;
    let steady = 0;
    let lastTop = NaN;
    let revealed = false;
    let raf = 0;
    // The user's own scroll (wheel, touch, the scrollbar, a key) ends the watch: it must never pull the
    // view back from where the user went. While it runs the timeline says so (data-settling).
    const stop = () => {
      cancelAnimationFrame(raf);
      el.removeAttribute('data-settling');
      unlisten();
    };
    // The user went elsewhere: the request is done with (a later re-run must not scroll back).
    const unlisten = onUserScroll(el, () => {
      if (request) handled.current = request;
      stop();
    });
    el.setAttribute('data-settling', 'true');
    const settle = () => {
      const row = rowElement(el, target);
      const top = row ? row.getBoundingClientRect().top - el.getBoundingClientRect().top : NaN;
      if (!rowInBox(el, row)) {
        steady = 0;
        virtualizer.scrollToIndex(target, { align: 'center' });
      } else if (!virtualizer.isScrolling && top === lastTop) steady++;
      else steady = 0;
      lastTop = top;
      const last = frames++ >= SETTLE_FRAMES;
      if (request && (steady === STEADY_FRAMES || (last && !revealed))) {
        revealed = true;
        handled.current = request;
        revealOnPage(el, row, request.focus);
      }
      if (steady < WATCH_FRAMES && !last) raf = requestAnimationFrame(settle);
      else stop();
    };
    raf = requestAnimationFrame(settle);
    return stop;
    // Only a new selection (or request) scrolls; re-measuring must not pull the view back.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [selection, analysis, reveal]);
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
 * How a row's height is read (the virtualiser's `measureElement`). A long timeline reads it from
 * the row's ResizeObserver entry only, which the browser delivers after its own layout, in the
 * same frame, before paint: read when React attaches a row (no entry), the height made the commit
 * lay out the whole page first, inside its task (34–80 ms of a 115 MB log's first rows and
 * answer). There, with no entry, the height known so far is returned: nothing changes until the
 * observer reports. A short timeline, or a page without ResizeObserver, measures at once.
 * @param rows the row model's count
 */
export function rowSizeOf(
  rows: number,
): (el: Element, entry: ResizeObserverEntry | undefined, v: RowVirtualizer) => number {
  if (rows <= DEFER_MEASURE_ROWS || typeof ResizeObserver === 'undefined') return measureNow;
  return (el, entry, v) => {
    if (entry) return measureNow(el, entry, v);
    const item = v.measurementsCache[v.indexFromElement(el)];
    return item ? item.size : measureNow(el, entry, v);
  };
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
