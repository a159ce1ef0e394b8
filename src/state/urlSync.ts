/**
 * The only module that touches `location` and `history` (style.md §4.3, issue 6).
 *
 * - Boot: `bootFromUrl` decodes `location.hash` into the store before the first render.
 * - Store → URL: a vanilla `subscribe` encodes the permalink fields and writes them with
 *   `history.replaceState`, debounced (a slider drag is one URL change, not a history entry each
 *   tick; `location.hash = …` would add one per tick).
 * - URL → store: `hashchange` (a pasted link, back/forward) decodes and applies the link.
 * No React effect mirrors URL and store into each other.
 *
 * What the URL carries by itself: the view, and the source when it is a sample or came from a
 * link. A pasted or dropped transcript is NOT written to the address bar automatically: it would
 * land in the browser history (and history sync) without the user asking, and a large one would
 * make every write slow. The share panel puts it in a link on request (`buildShareFragment`).
 */
import type { StoreApi } from 'zustand';
import {
  decodePermalink,
  encodePermalink,
  type PermalinkNotice,
} from '../model/permalink/codec.ts';
import type { FaultSpec } from '../model/faults.ts';
import { lessonStepIndex } from '../model/lesson.ts';
import { noticeStore } from './permalink/notices.ts';
import {
  hasView,
  isAwaitingTranscript,
  lessonFromFragment,
  permalinkFromStore,
  storePatchFromPermalink,
  viewOnlyNotice,
  withLesson,
} from './permalink/storeLink.ts';
import type { AppState, AppStore } from './store.ts';

/** Debounce of URL writes, in ms: long enough to coalesce a slider drag, short enough to feel live. */
export const URL_WRITE_DEBOUNCE_MS = 250;

/**
 * Longest a change waits for its URL write, in multiples of the debounce: changes that keep
 * coming (held arrow keys, a scroll that moves the anchor every frame) would otherwise postpone
 * the write for as long as they last, leaving the address a step or more behind the page.
 */
export const URL_WRITE_MAX_WAIT_FACTOR = 2;

/** The page's URL without its fragment, for building links (`https://host/path?q`). */
export function pageUrlWithoutHash(): string {
  return location.href.split('#')[0] ?? location.href;
}

/**
 * Selection and anchor of a sample link, waiting for the sample's text: loading a source resets
 * them (`setSource`), so they are put back once the named sample has arrived.
 */
const pendingView = new WeakMap<
  StoreApi<AppStore>,
  {
    sampleId: string;
    selection: AppState['selection'];
    anchor: string | null;
    faults: FaultSpec[];
  }
>();

/**
 * Selection, anchor and faults of a view-only link, waiting for the file it names: opening a file
 * resets them (`setSource`), so they are put back when a file of that name is opened.
 */
const pendingFileView = new WeakMap<
  StoreApi<AppStore>,
  { name: string; selection: AppState['selection']; anchor: string | null; faults: FaultSpec[] }
>();

function apply(store: StoreApi<AppStore>, fragment: string): PermalinkNotice[] {
  const { state, notices } = decodePermalink(fragment);
  const patch = storePatchFromPermalink(state);
  patch.lesson = lessonFromFragment(fragment);
  // A lesson step this page does not have is said, not replaced by another step (issue 15).
  if (patch.lesson !== null && lessonStepIndex(patch.lesson) < 0) {
    notices.push({
      key: 'learn',
      message: `This page has no lesson step “${patch.lesson}”: Learn mode was not opened.`,
    });
    patch.lesson = null;
  }
  const cur = store.getState().source;
  const nothingShown = cur.text === '' && !cur.file;
  const refused = notices.some((n) => n.key === 't');
  // A link without a transcript, opened on a page that shows none (boot): keep the link as it is
  // and say what it holds, instead of loading the default sample under the link's view (which
  // would then be written back as `src=<sample>`, and show a budget clamped to the sample).
  const viewOnly =
    state.source.kind === 'none' &&
    nothingShown &&
    patch.lesson === null &&
    (refused || state.source.name !== undefined || hasView(state));
  if (viewOnly) {
    const name = state.source.kind === 'none' ? state.source.name : undefined;
    store.setState({ ...patch, source: { text: '', name: name ?? '', origin: 'link' } });
    if (name !== undefined)
      pendingFileView.set(store, {
        name,
        selection: state.view.selection,
        anchor: state.view.anchor,
        faults: state.view.faults,
      });
    const all = [...notices, viewOnlyNotice(state, refused)];
    noticeStore.getState().show(all);
    return all;
  }
  // A link without a source, or naming what is already shown, keeps the transcript on screen
  // (back/forward between view states of the same transcript).
  const same =
    state.source.kind === 'none' ||
    (state.source.kind === 'sample' &&
      cur.origin === 'sample' &&
      cur.sampleId === state.source.id &&
      cur.text !== '') ||
    (state.source.kind === 'inline' && cur.text === state.source.text);
  if (same) delete patch.source;
  else if (state.source.kind === 'sample')
    pendingView.set(store, {
      sampleId: state.source.id,
      selection: state.view.selection,
      anchor: state.view.anchor,
      faults: state.view.faults,
    });
  store.setState(patch);
  // Say what the reader is looking at: placeholders could otherwise pass for a broken transcript.
  const all =
    state.source.kind === 'inline' && state.source.redacted
      ? [
          ...notices,
          {
            key: 'r',
            message:
              'Structure-only link: every text, tool input and result is a placeholder of the same token count, and ids are renamed.',
          },
        ]
      : notices;
  noticeStore.getState().show(all);
  return all;
}

/** Put back a sample link's selection, anchor and faults once its text has loaded. */
function restorePending(store: StoreApi<AppStore>, s: AppState): void {
  const f = pendingFileView.get(store);
  if (f && !isAwaitingTranscript(s.source)) {
    // The first transcript opened after a view-only link: its view is the link's if it is the
    // file the link names (never put a selection into another transcript).
    pendingFileView.delete(store);
    if (s.source.origin === 'file' && s.source.name === f.name)
      store.setState({ selection: f.selection, anchor: f.anchor, faults: f.faults });
  }
  const p = pendingView.get(store);
  if (!p || s.source.text === '') return;
  pendingView.delete(store);
  if (s.source.origin === 'sample' && s.source.sampleId === p.sampleId)
    store.setState({ selection: p.selection, anchor: p.anchor, faults: p.faults });
}

/**
 * Boot: apply `location.hash` to the store. Call before the first render.
 * @returns the notices (also put in `noticeStore`)
 */
export function bootFromUrl(store: StoreApi<AppStore>): PermalinkNotice[] {
  if (location.hash.length <= 1) return [];
  return apply(store, location.hash);
}

/**
 * Start syncing: store → URL (debounced `replaceState`) and URL → store (`hashchange`).
 * Each write encodes the store as it is when the write runs (never a state captured when the
 * timer was set); a write waits `debounceMs` after the last change, and at most
 * `URL_WRITE_MAX_WAIT_FACTOR × debounceMs` after the first unwritten one.
 * @param debounceMs quiet time before a write, in ms
 * @returns a function that stops both
 */
export function startUrlSync(
  store: StoreApi<AppStore>,
  debounceMs: number = URL_WRITE_DEBOUNCE_MS,
): () => void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  /** When the oldest unwritten change happened (ms, `Date.now()`), or null when all are written. */
  let pendingSince: number | null = null;
  let lastWritten = location.hash.replace(/^#/, '');
  const write = () => {
    timer = null;
    pendingSince = null;
    const fragment = withLesson(
      encodePermalink(permalinkFromStore(store.getState())),
      store.getState().lesson,
    );
    if (fragment === lastWritten) return;
    lastWritten = fragment;
    history.replaceState(history.state, '', `#${fragment}`);
  };
  const unsubscribe = store.subscribe((s, prev) => {
    if (s.source !== prev.source) restorePending(store, s);
    // Only the permalink fields matter; hover, find and filters do not touch the URL.
    if (
      s.source === prev.source &&
      s.formatOverride === prev.formatOverride &&
      s.provider === prev.provider &&
      s.budget === prev.budget &&
      s.policies === prev.policies &&
      s.policyOptions === prev.policyOptions &&
      s.selection === prev.selection &&
      s.anchor === prev.anchor &&
      s.faults === prev.faults &&
      s.lesson === prev.lesson
    )
      return;
    const now = Date.now();
    pendingSince ??= now;
    const wait = Math.max(
      0,
      Math.min(debounceMs, pendingSince + URL_WRITE_MAX_WAIT_FACTOR * debounceMs - now),
    );
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(write, wait);
  });
  const onHashChange = () => {
    const fragment = location.hash.replace(/^#/, '');
    if (fragment === lastWritten) return;
    lastWritten = fragment;
    apply(store, fragment);
  };
  window.addEventListener('hashchange', onHashChange);
  return () => {
    unsubscribe();
    window.removeEventListener('hashchange', onHashChange);
    if (timer !== null) clearTimeout(timer);
  };
}
