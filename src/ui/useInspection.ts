/**
 * The page's view of what is loaded, read from the session (state/session/, through the
 * `useSession` adapter): the analysis shown, the parse error, whether an answer is pending, and
 * the load of a large file (issue 7: progress, a preview of the first rows, cancel; a file too
 * large for the tab is refused before reading). The session asks the engine; nothing here holds
 * data of its own.
 */
import { activeSession, type InspectorView, type LoadState } from '../state/session/index.ts';
import { useSession } from './useSession.ts';

export type { LoadState } from '../state/session/index.ts';
export { useTextCounter } from './useSession.ts';

export interface InspectionState extends InspectorView {
  pending: boolean;
  /** The current file load, or null when the source is text. */
  load: LoadState | null;
  /** Stop the current load (the page keeps what it showed before). */
  cancelLoad: () => void;
}

/**
 * The current view: the session parses the store's text (or streams its file) in the worker
 * whenever text, file, name, format or provider change, and keeps the last good transcript while
 * the new text fails to parse. Re-renders on every change of the session (a token table or a
 * sweep arriving too).
 */
export function useInspection(): InspectionState {
  const s = useSession((x) => x);
  return { ...s.view, pending: s.pending, load: s.load, cancelLoad: activeSession().cancelLoad };
}
