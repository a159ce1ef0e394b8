/**
 * Hooks that connect the store's inputs to the worker client and the lazy tokenizer. The results
 * are derived data held by React, never written to the store.
 *
 * Large files (issue 7): the store holds the File (`source.file`), the worker streams it; this
 * hook exposes the load's progress (bytes and messages), a preview of the first rows while the
 * rest is read, cancel, and refuses a file too large for the tab's memory before reading it.
 * Token tables come from the worker (`primeTokens`), so a large transcript is never counted on
 * the page's thread.
 */
import {
  useCallback,
  useEffect,
  useRef,
  useState,
  type Dispatch,
  type SetStateAction,
} from 'react';
import type { Analysis } from '../model/analyze.ts';
import { CHARS_PER_4, loadBpeCounter, type TextCounter, type TokenTable } from '../model/tokens.ts';
import type { ProviderId, Transcript } from '../model/types.ts';
import {
  EMPTY_VIEW,
  nextView,
  primeTokens,
  selectRequest,
  type InspectorView,
} from '../state/selectors.ts';
import { useAppStore } from '../state/store.ts';
import { createEngineClient } from '../state/engine.ts';
import {
  isCancelled,
  type InspectClient,
  type InspectListener,
  type InspectRequest,
  type LoadProgress,
} from '../engine/client.ts';
import { refuseReason } from '../engine/limits.ts';

let client: InspectClient | null = null;
function getClient(): InspectClient {
  client ??= createEngineClient();
  return client;
}

/** The request whose answer each analysis shown is (to count it again, `recountShown`). */
const answerOf = new WeakMap<Analysis, InspectRequest>();
/** Providers for which an exact (not chars/4) token table of a transcript arrived. */
const exactFor = new WeakMap<Transcript, Set<ProviderId>>();

/** `primeTokens`, noting which transcripts have their exact table. */
function prime(t: Transcript, provider: ProviderId, table: TokenTable): void {
  primeTokens(t, provider, table);
  if (table.basis.encoding === CHARS_PER_4.encoding) return;
  let s = exactFor.get(t);
  if (!s) {
    s = new Set();
    exactFor.set(t, s);
  }
  s.add(provider);
}

/**
 * The request to count again so that `view`'s transcript gets its exact token table, or null when
 * none is needed: the view is settled on `request`, shows an analysis that answered an older
 * request (the current one failed, was refused or cancelled) and that analysis has no exact table.
 * The exact count of that older answer may have been dropped by the newer request.
 */
export function recountShown(
  view: InspectorView,
  request: InspectRequest,
  hasExact: (a: Analysis) => boolean,
  answered: (a: Analysis) => InspectRequest | undefined,
): InspectRequest | null {
  const a = view.analysis;
  if (!a || view.request !== request || hasExact(a)) return null;
  const req = answered(a);
  return req && req !== request ? req : null;
}

/** True when two requests ask for the same inspection (same text or file, name and choices). */
export function sameRequest(a: InspectRequest, b: InspectRequest): boolean {
  return (
    a.text === b.text &&
    a.name === b.name &&
    a.format === b.format &&
    a.provider === b.provider &&
    a.file === b.file &&
    a.requestIndex === b.requestIndex &&
    a.model === b.model
  );
}

/** The state of a streamed file load, for the progress bar. */
export interface LoadState {
  /** Name of the file being loaded. */
  name: string;
  /** Null until the worker's first report. */
  progress: LoadProgress | null;
  /** True while the rows shown are the preview of the first messages. */
  preview: boolean;
  /** Set when the file was refused before reading (too large): the reason. */
  refused: string | null;
  cancelled: boolean;
  /** True while the load runs. */
  active: boolean;
}

export interface InspectionState extends InspectorView {
  pending: boolean;
  /** The current file load, or null when the source is text. */
  load: LoadState | null;
  /** Stop the current load (the page keeps what it showed before). */
  cancelLoad: () => void;
}

/**
 * The transcript shown after a failed, refused or cancelled request keeps the older answer: make
 * sure its exact token count comes (the newer request dropped it, or a cancel stopped the worker).
 * @param setTokensSeen the caller's counter of tables arrived (bumped to re-render)
 */
function useRecountShown(
  view: InspectorView,
  request: InspectRequest,
  setTokensSeen: Dispatch<SetStateAction<number>>,
) {
  useEffect(() => {
    const again = recountShown(
      view,
      request,
      (a) => exactFor.get(a.transcript)?.has(a.provider) === true,
      (a) => answerOf.get(a),
    );
    if (!again || !view.analysis) return;
    const { transcript, provider } = view.analysis;
    getClient().recount(again, transcript, provider, {
      tokens: (t, p, table) => {
        prime(t, p, table);
        setTokensSeen((n) => n + 1);
      },
    });
  }, [view, request, setTokensSeen]);
}

/**
 * A request's `tokens` listener: prime the table and draw the page again. Also once the request
 * is superseded: when it fails, the worker counts the transcript still shown and answers on this
 * listener, while the store's source may have gone back to that transcript already
 * (useShownSource), ending the request's effect; the table is for a transcript the page shows.
 * @param setTokensSeen the caller's counter of tables arrived (bumped to re-render)
 */
function tokensListener(
  setTokensSeen: Dispatch<SetStateAction<number>>,
): NonNullable<InspectListener['tokens']> {
  return (t, provider, table) => {
    prime(t, provider, table);
    setTokensSeen((n) => n + 1);
  };
}

/**
 * The current view: parse the store's text (or stream its file) in the worker whenever text,
 * file, name, format or provider change; keep the last good transcript while the new text fails
 * to parse.
 */
export function useInspection(): InspectionState {
  const request = useAppStore(selectRequest);
  const [view, setView] = useState<InspectorView>(EMPTY_VIEW);
  const [load, setLoad] = useState<LoadState | null>(null);
  const [, setTokensSeen] = useState(0);
  /** The request whose whole answer is on screen (a failed, refused or cancelled one leaves it). */
  const answered = useRef<InspectRequest | null>(null);
  useEffect(() => {
    let live = true;
    if (request.text.length === 0 && !request.file) return;
    const shown = answered.current;
    if (shown && sameRequest(shown, request)) {
      // The source on screen again (a cancelled or failed load gave it back to the store): its
      // answer is already shown, so nothing is parsed or streamed again, and a note about the
      // cancelled load stays.
      setView((prev) => ({ ...prev, request, error: null }));
      setLoad((l) => (l?.cancelled ? l : null));
      return;
    }
    const file = request.file;
    if (file) {
      const refused = refuseReason(file.size);
      const base = { name: request.name, progress: null, preview: false, cancelled: false };
      if (refused) {
        setLoad({ ...base, refused, active: false });
        setView((prev) => ({ ...prev, request }));
        return;
      }
      setLoad({ ...base, refused: null, active: true });
    } else setLoad(null);
    // What the page showed before a preview replaced it: restored when the load is cancelled.
    let beforePreview: InspectorView | null = null;
    void getClient()
      .inspect(request, {
        progress: (p) => {
          if (live && file) setLoad((l) => (l ? { ...l, progress: p } : l));
        },
        preview: (r, tokens) => {
          if (!live || !r.ok) return;
          if (tokens) prime(r.analysis.transcript, r.analysis.provider, tokens);
          setView((prev) => {
            if (prev.request === request) return prev;
            beforePreview ??= prev;
            return { ...nextView(prev, request, r), request: prev.request };
          });
          setLoad((l) => (l ? { ...l, preview: true } : l));
        },
        tokens: tokensListener(setTokensSeen),
      })
      .then((result) => {
        if (!live) return;
        if (isCancelled(result)) {
          setLoad((l) => (l ? { ...l, active: false, cancelled: true, preview: false } : l));
          setView((prev) => ({ ...(beforePreview ?? prev), request }));
          return;
        }
        setLoad((l) => (l ? { ...l, active: false, preview: false } : l));
        if (result.ok) {
          answerOf.set(result.analysis, request);
          answered.current = request;
        }
        // A failed load shows what the page showed before its preview, next to the error.
        setView((prev) => nextView(beforePreview ?? prev, request, result));
      });
    return () => {
      live = false;
    };
  }, [request]);
  useRecountShown(view, request, setTokensSeen);
  const cancelLoad = useCallback(() => getClient().cancel(), []);
  return {
    ...view,
    pending: (request.text.length > 0 || request.file !== undefined) && view.request !== request,
    load,
    cancelLoad,
  };
}

/**
 * The text counter: chars/4 at first, the exact o200k BPE once its lazy chunk has loaded
 * (started after the first transcript is shown, so it never delays the first paint).
 */
export function useTextCounter(start: boolean): TextCounter {
  const [counter, setCounter] = useState<TextCounter>(CHARS_PER_4);
  useEffect(() => {
    if (!start || counter !== CHARS_PER_4) return;
    let live = true;
    loadBpeCounter('o200k_base')
      .then((c) => {
        if (live) setCounter(c);
      })
      .catch(() => {
        // Keep the chars/4 estimate (it is labelled as such).
      });
    return () => {
      live = false;
    };
  }, [start, counter]);
  return counter;
}
