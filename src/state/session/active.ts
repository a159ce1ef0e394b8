/**
 * The page's session (one per page), made on first use over the app store, and the memo table the
 * selectors use (the active session's). Tests make their own with `resetSession`.
 */
import { appStore } from '../store.ts';
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
