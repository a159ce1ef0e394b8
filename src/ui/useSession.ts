/**
 * The React adapter of the session (state/session/): components read what the page knows about
 * what is loaded through `useSession(selector)`, one `useSyncExternalStore` over the session's one
 * `subscribe` (the way TanStack Virtual's React adapter wraps its framework-free `Virtualizer`).
 * A selector returns a part of the snapshot (a new snapshot object on every change), never a new
 * object of its own.
 */
import { useEffect, useSyncExternalStore } from 'react';
import { CHARS_PER_4, type TextCounter } from '../model/tokens.ts';
import { activeSession, type SessionSnapshot } from '../state/session/index.ts';

/** A part of the session's snapshot; re-renders when it changes. */
export function useSession<T>(selector: (s: SessionSnapshot) => T): T {
  const session = activeSession();
  return useSyncExternalStore(session.subscribe, () => selector(session.getSnapshot()));
}

/**
 * The page's text counter: chars/4 at first, the exact o200k BPE once its lazy chunk has loaded,
 * asked for once `start` is true (the session loads it once). Ask only where the page needs exact
 * counts itself: a transcript it counts (`countsOnPage`) once shown, and the share panel; counts
 * the worker sent need none (issue 38).
 * @returns the counter, and `loading`: it was asked for and has neither loaded nor failed yet
 */
export function useTextCounter(start: boolean): { counter: TextCounter; loading: boolean } {
  useEffect(() => {
    if (start) activeSession().startCounter();
  }, [start]);
  const counter = useSession((s) => s.counter);
  const failed = useSession((s) => s.counterFailed);
  return { counter, loading: start && counter === CHARS_PER_4 && !failed };
}
