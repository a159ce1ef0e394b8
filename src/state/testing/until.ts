/**
 * Test support: wait for the active session (`activeSession`) to reach a state, as the page's
 * adapter sees it through its snapshots.
 */
import { activeSession, type SessionSnapshot } from '../session/index.ts';

/** Resolve with the first snapshot of the active session that satisfies `ok` (now or later). */
export function until(ok: (s: SessionSnapshot) => boolean): Promise<SessionSnapshot> {
  const s = activeSession();
  return new Promise((resolve) => {
    if (ok(s.getSnapshot())) return resolve(s.getSnapshot());
    const off = s.subscribe(() => {
      if (ok(s.getSnapshot())) {
        off();
        resolve(s.getSnapshot());
      }
    });
  });
}
