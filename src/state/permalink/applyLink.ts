/**
 * Apply a link to the store: what the page does when it boots from an address, or when the
 * address changes (a link opened in the tab, Back/Forward). Never touches location or history
 * (`urlSync.ts` reads them and passes the fragment, and the transcript the history entry kept).
 *
 * A link that cannot be honoured says so and shows nothing in its place (issue 15): a refused
 * transcript, a sample name the page cannot read, a history entry whose pasted transcript was too
 * large to keep over a reload. A link without a transcript, opened on a page showing one, keeps
 * that transcript (a view link for it).
 */
import type { StoreApi } from 'zustand';
import {
  PAGE_ONLY_KEYS,
  PERMALINK_KEYS,
  decodePermalink,
  refusedSource,
  type PermalinkNotice,
} from '../../model/permalink/codec.ts';
import type { FaultSpec } from '../../model/faults.ts';
import { formatBytes } from '../../model/permalink/inline.ts';
import type { PermalinkState } from '../../model/permalink/schema.ts';
import { lessonStepIndex } from '../../model/lesson.ts';
import { noticeStore } from './notices.ts';
import {
  VIEW_ONLY_NOTICE_KEY,
  describeView,
  hasView,
  isAwaitingTranscript,
  lessonFromFragment,
  simulatorFromFragment,
  storePatchFromPermalink,
  viewOnlyNotice,
} from './storeLink.ts';
import type { Recalled } from '../tabMemory.ts';
import type { AppState, AppStore, Rejected, Source } from '../store.ts';

/**
 * A view waiting for its transcript (loading a source resets the request, diff view, selection,
 * anchor and faults).
 */
interface PendingView {
  requestIndex: number | null;
  diff: AppState['diff'];
  selection: AppState['selection'];
  anchor: string | null;
  faults: FaultSpec[];
}

/**
 * Selection and anchor of a sample link (and the input that failed to parse at its history
 * entry), waiting for the sample's text: loading a source resets them (`setSource`), so they are
 * put back once the named sample has arrived.
 */
// eslint-disable-next-line cache/no-module-cache -- a link's view waiting for its sample, per store instance (the store owns it)
const pendingView = new WeakMap<
  StoreApi<AppStore>,
  PendingView & { sampleId: string; rejected: Rejected | null }
>();

/**
 * Selection, anchor and faults of a view-only link, waiting for the file it names: opening a file
 * resets them (`setSource`), so they are put back when a file of that name is opened.
 */
// eslint-disable-next-line cache/no-module-cache -- a link's view waiting for its file, per store instance (the store owns it)
const pendingFileView = new WeakMap<StoreApi<AppStore>, PendingView & { name: string }>();

const viewOf = (state: PermalinkState): PendingView => ({
  requestIndex: state.view.request,
  diff: state.view.diff === null ? null : { ...state.view.diff },
  selection: state.view.selection,
  anchor: state.view.anchor,
  faults: state.view.faults,
});

/** A decoded link: the state, the store patch it makes, and its notices so far. */
interface Decoded {
  state: PermalinkState;
  patch: Partial<AppState>;
  notices: PermalinkNotice[];
}

/** Decode a fragment, with the checks the codec cannot make (lesson steps, unreadable text). */
function decode(fragment: string): Decoded {
  const { state, notices } = decodePermalink(fragment);
  const patch = storePatchFromPermalink(state);
  patch.lesson = lessonFromFragment(fragment);
  patch.simulator = simulatorFromFragment(fragment);
  // A lesson step this page does not have is said, not replaced by another step (issue 15).
  if (patch.lesson !== null && lessonStepIndex(patch.lesson) < 0) {
    notices.push({
      key: 'learn',
      message: `This page has no lesson step “${patch.lesson}”: Learn mode was not opened.`,
    });
    patch.lesson = null;
  }
  const body = fragment.replace(/^#/, '');
  if (body !== '' && notices.length === 0) {
    const params = new URLSearchParams(body);
    if (![...PERMALINK_KEYS, ...PAGE_ONLY_KEYS].some((k) => params.has(k)))
      notices.push({
        key: '#',
        message: `This link’s address holds nothing this page reads (“${body.length > 40 ? `${body.slice(0, 40)}…` : body}”): it may be cut off or damaged.`,
      });
  }
  return { state, patch, notices };
}

/** Show the notices (each link replaces those of the previous one) and return them. */
function show(notices: PermalinkNotice[]): PermalinkNotice[] {
  noticeStore.getState().show(notices);
  return notices;
}

/** True when two sources are the same transcript (the same text or file, name and origin). */
function sameSource(a: Source, b: Source): boolean {
  return (
    a === b ||
    (a.text === b.text && a.file === b.file && a.name === b.name && a.origin === b.origin)
  );
}

/**
 * The history entry's own transcript (a paste, a file), kept by this tab: shown again with the
 * entry's view. One that was too large to keep over a reload is said, and nothing is shown in
 * its place (its view is not put on another transcript).
 */
function applyKept(
  store: StoreApi<AppStore>,
  d: Decoded,
  recalled: Exclude<Recalled, { kind: 'none' }>,
): PermalinkNotice[] {
  if (recalled.kind === 'kept') {
    const cur = store.getState().source;
    store.setState({
      ...d.patch,
      source: sameSource(cur, recalled.source) ? cur : recalled.source,
    });
    return show(d.notices);
  }
  const what = recalled.origin === 'file' ? `the file “${recalled.name}”` : 'a pasted transcript';
  store.setState({ ...d.patch, source: { text: '', name: recalled.name, origin: 'link' } });
  return show([
    ...d.notices,
    {
      key: VIEW_ONLY_NOTICE_KEY,
      message: `This tab showed ${what} here (${formatBytes(recalled.chars)}), too large to keep over a reload: paste or open it again to see it with its view (${describeView(d.state)}).`,
      tone: 'info',
    },
  ]);
}

/**
 * A link without a transcript (view-only, or one whose transcript was refused), opened on a page
 * that shows none: keep the link as it is and say what it holds, instead of loading the default
 * sample under the link's view (which would then be written back as `src=<sample>`, and show a
 * budget clamped to the sample).
 */
function applyViewOnly(store: StoreApi<AppStore>, d: Decoded, refused: boolean): PermalinkNotice[] {
  const name = d.state.source.kind === 'none' ? d.state.source.name : undefined;
  const source: Source = { text: '', name: name ?? '', origin: 'link' };
  store.setState({ ...d.patch, source: refused ? { ...source, unreadLink: true } : source });
  if (name !== undefined) pendingFileView.set(store, { name, ...viewOf(d.state) });
  return show([...d.notices, viewOnlyNotice(d.state, refused)]);
}

/**
 * Apply a link to the store and show its notices.
 * @param fragment the address's fragment (with or without `#`)
 * @param recalled the transcript this tab kept for the history entry (`tabMemory`), or null
 * @param rejected the input that failed to parse at the history entry (back in the text box,
 *   over the entry's transcript), or null (a link opened: the box holds its transcript)
 * @returns the notices (also put in `noticeStore`)
 */
export function applyLink(
  store: StoreApi<AppStore>,
  fragment: string,
  recalled: Recalled | null = null,
  rejected: Rejected | null = null,
): PermalinkNotice[] {
  const d = decode(fragment);
  const { state, patch, notices } = d;
  patch.rejected = rejected;
  if (state.source.kind === 'none' && recalled && recalled.kind !== 'none')
    return applyKept(store, d, recalled);
  const cur = store.getState().source;
  const nothingShown = cur.text === '' && !cur.file;
  // A refused transcript, or a sample name the page cannot read: nothing stands in for it (an
  // unreadable address, `#`, is said below). The CLI refuses the same links (refusedSource).
  const refusal = refusedSource({ state, notices });
  const refused = refusal !== null && refusal.key !== '#';
  if (
    state.source.kind === 'none' &&
    nothingShown &&
    patch.lesson === null &&
    (refused || state.source.name !== undefined || hasView(state))
  )
    return applyViewOnly(store, d, refused);
  // An address the page cannot read, or a lesson step it does not have, on a page that shows
  // nothing: its notice says so, and no sample stands in for it (issue 15).
  if (
    state.source.kind === 'none' &&
    nothingShown &&
    patch.lesson === null &&
    notices.some((n) => n.key === '#' || n.key === 'learn')
  ) {
    store.setState({ ...patch, source: { text: '', name: '', origin: 'link', unreadLink: true } });
    return show(notices);
  }
  // A link without a source, or naming what is already shown, keeps the transcript on screen
  // (a view link for the transcript shown).
  const same =
    state.source.kind === 'none' ||
    (state.source.kind === 'sample' &&
      cur.origin === 'sample' &&
      cur.sampleId === state.source.id &&
      cur.text !== '') ||
    (state.source.kind === 'inline' && cur.text === state.source.text);
  if (same) delete patch.source;
  else if (state.source.kind === 'sample')
    pendingView.set(store, { sampleId: state.source.id, ...viewOf(state), rejected });
  store.setState(patch);
  // Say what the reader is looking at: placeholders could otherwise pass for a broken transcript.
  if (state.source.kind === 'inline' && state.source.redacted)
    notices.push({
      key: 'r',
      message:
        'Structure-only link: every text, tool input and result is a placeholder of the same token count, and ids are renamed.',
      tone: 'info',
    });
  return show(notices);
}

/**
 * Put back a link's selection, anchor and faults once its transcript has loaded: a sample link's
 * (and its entry's rejected input) when the sample arrives, a view-only link's when the file it
 * names is opened.
 */
export function restorePending(store: StoreApi<AppStore>, s: AppState): void {
  const f = pendingFileView.get(store);
  if (f && !isAwaitingTranscript(s.source)) {
    // The first transcript opened after a view-only link: its view is the link's if it is the
    // file the link names (never put a selection into another transcript).
    pendingFileView.delete(store);
    if (s.source.origin === 'file' && s.source.name === f.name)
      store.setState({
        requestIndex: f.requestIndex,
        diff: f.diff,
        selection: f.selection,
        anchor: f.anchor,
        faults: f.faults,
      });
  }
  const p = pendingView.get(store);
  if (!p || s.source.text === '') return;
  pendingView.delete(store);
  if (s.source.origin === 'sample' && s.source.sampleId === p.sampleId)
    store.setState({
      requestIndex: p.requestIndex,
      diff: p.diff,
      selection: p.selection,
      anchor: p.anchor,
      faults: p.faults,
      rejected: p.rejected,
    });
}
