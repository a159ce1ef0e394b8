/**
 * The page's session (one per page), made on first use over the app store, and the memo table the
 * selectors use (the active session's). Tests make their own with `resetSession`.
 */
import { appStore } from '../store.ts';
import type { SlotHandle } from './answerSlot.ts';
import { Session, type ClientFactory } from './session.ts';

const holder: { session: Session | null } = { session: null };

/** The page's session (made over `appStore` on first use). */
export function activeSession(): Session {
  holder.session ??= new Session(appStore);
  return holder.session;
}

/**
 * Replace the page's session by a new one (tests: nothing remembered, no engine answers; or a
 * given engine). The old one stops following the store and its engine stops.
 * @param store the store the new session follows (default: the app store)
 * @param makeClient its engine (default: the worker client)
 */
export function resetSession(
  store: ConstructorParameters<typeof Session>[0] = appStore,
  makeClient?: ClientFactory,
): Session {
  holder.session?.dispose();
  holder.session = new Session(store, makeClient);
  return holder.session;
}

/**
 * A module's handle on one kind of worker answer held by the active session (`answerSlot`): the
 * handle reads the slot on each use and keeps nothing.
 * @param kind the kind's name (the asking module's)
 * @param run asks the worker for a job's answer
 */
export function sessionSlot<J extends object, V>(
  kind: string,
  run: (job: J) => Promise<V>,
): SlotHandle<J, V> {
  const key = Symbol(kind);
  return {
    get store() {
      return activeSession().answerSlot(key, run).store;
    },
    ensure: (job) => activeSession().answerSlot(key, run).ensure(job),
  };
}
