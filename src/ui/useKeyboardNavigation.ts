/**
 * Keyboard navigation outside text fields: `?` help, Escape, `/` find, j/k (↓/↑) messages,
 * J/K (Shift+↓/↑) exchanges, n/N violations, Home/End (in the timeline) the first and last
 * message, Enter or Space opens the current row.
 */
import { useEffect, type Dispatch, type RefObject, type SetStateAction } from 'react';
import type { Analysis } from '../model/analyze.ts';
import { selectViolationMessages } from '../state/selectors.ts';
import { useAppStore } from '../state/store.ts';
import { isTypingTarget } from './input/typingTarget.ts';
import { nextInList, stepExchange, stepMessage } from './navigation.ts';

export interface KeyboardTargets {
  analysis: Analysis | null;
  /** The selected message (-1: none). */
  currentMessage: number;
  /** Select a message and bring its row into view; `focus`: and focus the row. */
  jump: (message: number, focus?: boolean) => void;
  toggle: (message: number) => void;
  setHelp: Dispatch<SetStateAction<boolean>>;
  findRef: RefObject<HTMLInputElement | null>;
}

/** The message a navigation key moves to (-2: not a navigation key; -1: nowhere to go). */
function navigationTarget(e: KeyboardEvent, analysis: Analysis, current: number): number {
  const n = analysis.transcript.messages.length;
  if (e.key === 'j' || (e.key === 'ArrowDown' && !e.shiftKey)) return stepMessage(n, current, 1);
  if (e.key === 'k' || (e.key === 'ArrowUp' && !e.shiftKey)) return stepMessage(n, current, -1);
  if (e.key === 'J' || (e.key === 'ArrowDown' && e.shiftKey))
    return stepExchange(analysis.grouping, current, 1);
  if (e.key === 'K' || (e.key === 'ArrowUp' && e.shiftKey))
    return stepExchange(analysis.grouping, current, -1);
  if (e.key === 'n') return nextInList(selectViolationMessages(analysis), current, 1);
  if (e.key === 'N') return nextInList(selectViolationMessages(analysis), current, -1);
  // A treegrid's Home/End on a row: its first and last row (elsewhere they scroll the page).
  if ((e.key === 'Home' || e.key === 'End') && inTimeline(e.target) && n > 0)
    return e.key === 'Home' ? 0 : n - 1;
  return -2;
}

/**
 * True for a row of the timeline's treegrid itself: inside a row (an opened message's text or
 * raw JSON box) Home and End scroll that box.
 */
function inTimeline(target: EventTarget | null): boolean {
  return (
    target instanceof Element &&
    target.getAttribute('role') === 'row' &&
    target.closest('[role="treegrid"]') !== null
  );
}

/**
 * True when a key reached the page with nothing focused (the body, or the document itself): a
 * navigation key then moves the focus to the row it selects, so Tab and the screen reader go on
 * from there (newcomer: `n` selected a row and left the focus on the body, and Tab went to the
 * Skip link). With a row focused, focus already follows the selection
 * (`useFocusFollowsSelection`); elsewhere (a panel's button) the focus stays where the user put it.
 */
export function nothingFocused(target: EventTarget | null, doc: Document = document): boolean {
  return target === null || target === doc.body || target === doc.documentElement || target === doc;
}

/**
 * True when a navigation key should move the focus to the row it selects: nothing is focused
 * (`nothingFocused`), or the focus is on a control of the page header outside its popovers ("Open
 * file…", the samples, Learn, Share): those act on the page, not on the selected row, and left
 * focused, Enter would open the file picker again instead of the row just selected (newcomer:
 * Open file… from the keyboard, then n and Enter). A panel's control (a fault, a verdict's jump)
 * acts on the selection, so there the focus stays where the user put it.
 */
export function focusFollowsKey(target: EventTarget | null, doc: Document = document): boolean {
  if (nothingFocused(target, doc)) return true;
  return (
    target instanceof Element &&
    target.closest('header.top') !== null &&
    target.closest('[role="dialog"]') === null
  );
}

/** Listen for the page's keys on the window while mounted. */
export function useKeyboardNavigation(k: KeyboardTargets): void {
  const { analysis, currentMessage, jump, toggle, setHelp, findRef } = k;
  const select = useAppStore((s) => s.select);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey || isTypingTarget(e.target)) return;
      if (e.key === '?') {
        setHelp((h) => !h);
        e.preventDefault();
        return;
      }
      if (e.key === 'Escape') {
        setHelp(false);
        select(null);
        return;
      }
      if (e.key === '/') {
        findRef.current?.focus();
        e.preventDefault();
        return;
      }
      if (!analysis) return;
      const target = navigationTarget(e, analysis, currentMessage);
      if (target === -2 && (e.key === 'Enter' || e.key === ' ') && currentMessage >= 0) {
        if (e.target instanceof HTMLButtonElement) return;
        toggle(currentMessage);
        e.preventDefault();
        return;
      }
      if (target >= 0) {
        e.preventDefault();
        jump(target, focusFollowsKey(e.target));
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [analysis, currentMessage, jump, select, toggle, setHelp, findRef]);
}
