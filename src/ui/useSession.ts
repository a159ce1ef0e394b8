/**
 * The React adapter of the session (state/session/): components read what the page knows about
 * what is loaded through `useSession(selector)`, one `useSyncExternalStore` over the session's one
 * `subscribe` (the way TanStack Virtual's React adapter wraps its framework-free `Virtualizer`).
 * A selector returns a part of the snapshot (a new snapshot object on every change), never a new
 * object of its own.
 */
import { useEffect, useSyncExternalStore } from 'react';
import type { TextCounter } from '../model/tokens.ts';
import { activeSession, type SessionSnapshot } from '../state/session/index.ts';

/** A part of the session's snapshot; re-renders when it changes. */
export function useSession<T>(selector: (s: SessionSnapshot) => T): T {
  const session = activeSession();
  return useSyncExternalStore(session.subscribe, () => selector(session.getSnapshot()));
}

/**
 * The text counter: chars/4 at first, the exact o200k BPE once its lazy chunk has loaded (asked
 * for once `start` is true: after the first transcript is shown, so it never delays the first
 * paint; the session loads it once).
 */
export function useTextCounter(start: boolean): TextCounter {
  useEffect(() => {
    if (start) activeSession().startCounter();
  }, [start]);
  return useSession((s) => s.counter);
}
