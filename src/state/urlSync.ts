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
import type { PolicyOptions } from '../model/evict/types.ts';
import {
  decodePermalink,
  encodePermalink,
  encodePermalinkChecked,
  type CheckedFragment,
  type PermalinkNotice,
} from './permalink/codec.ts';
import { noticeStore } from './permalink/notices.ts';
import type { FaultSpec } from '../model/faults.ts';
import { lessonStepIndex } from '../model/lesson.ts';
import {
  DEFAULT_PERMALINK_STATE,
  FaultsSchema,
  PolicyChoiceSchema,
  SourceNameSchema,
  type PermalinkPolicy,
  type PermalinkSource,
  type PermalinkState,
} from './permalink/schema.ts';
import type { AppState, AppStore, Source } from './store.ts';

/**
 * Learn mode: the lesson step shown rides along as `learn=<step id>` (model/lesson.ts), so each
 * step has its own link. The permalink codec ignores the key; these two helpers add and read it.
 */
export function lessonFromFragment(fragment: string): string | null {
  const v = new URLSearchParams(fragment.replace(/^#/, '')).get('learn');
  return v !== null && /^[a-z0-9-]{1,60}$/.test(v) ? v : null;
}

/**
 * `fragment` with `learn=<lesson>` appended; unchanged when `lesson` is unset (null, undefined,
 * or not a step id): a key is never written without a value (no `learn=undefined`).
 */
export function withLesson(fragment: string, lesson: string | null | undefined): string {
  return typeof lesson !== 'string' || !/^[a-z0-9-]{1,60}$/.test(lesson)
    ? fragment
    : `${fragment}${fragment ? '&' : ''}learn=${encodeURIComponent(lesson)}`;
}

/**
 * The simulator panel open (`sim=1`) or collapsed (`sim=0`), as the user left it (issue 16);
 * absent = by the window's width. Rides along like `learn=`, outside the permalink codec.
 */
export function simulatorFromFragment(fragment: string): boolean | null {
  const v = new URLSearchParams(fragment.replace(/^#/, '')).get('sim');
  return v === '1' ? true : v === '0' ? false : null;
}

/** `fragment` with the lesson step (`withLesson`) and the simulator panel's state (`sim=`). */
export function withViewExtras(
  fragment: string,
  s: Pick<AppState, 'lesson' | 'simulator'>,
): string {
  const f = withLesson(fragment, s.lesson);
  return typeof s.simulator !== 'boolean' ? f : `${f}${f ? '&' : ''}sim=${s.simulator ? '1' : '0'}`;
}

/** Debounce of URL writes, in ms: long enough to coalesce a slider drag, short enough to feel live. */
export const URL_WRITE_DEBOUNCE_MS = 250;

/**
 * Longest a change waits for its URL write, in multiples of the debounce: changes that keep
 * coming (held arrow keys, a scroll that moves the anchor every frame) would otherwise postpone
 * the write for as long as they last, leaving the address a step or more behind the page.
 */
export const URL_WRITE_MAX_WAIT_FACTOR = 2;

/** `Source.name` of a transcript opened from a structure-only link (the store has no flag for it). */
export const STRUCTURE_ONLY_NAME = 'structure-only link';
/** `Source.name` of a transcript opened from a full link. */
export const LINKED_NAME = 'linked transcript';

/**
 * `PermalinkNotice.key` of the notice shown when a link holds a view but no transcript (a view-only
 * link, or one whose transcript was refused): the share bar offers a sample next to it.
 */
export const VIEW_ONLY_NOTICE_KEY = 'view-only';

/**
 * True when the store's source is the stand-in for a link that holds no transcript: nothing is
 * shown, `name` is the transcript the link was made for ('' when it does not say).
 */
export function isAwaitingTranscript(source: Source): boolean {
  return source.origin === 'link' && source.text === '' && !source.file;
}

/** A name a link may carry (`n=`), or undefined (no name, or one the schema refuses). */
function linkName(name: string): string | undefined {
  const r = SourceNameSchema.safeParse(name);
  return r.success ? r.data : undefined;
}

function policyFromStore(id: string, options: unknown, fallback: PermalinkPolicy): PermalinkPolicy {
  const o = (options ?? {}) as PolicyOptions;
  const candidate = {
    id,
    options: {
      pinFirst: o.pinFirst ?? false,
      keepNewestExchanges: o.keepNewestExchanges ?? 0,
      summaryTokens: o.summaryTokens ?? null,
    },
  };
  const r = PolicyChoiceSchema.safeParse(candidate);
  return r.success ? r.data : fallback;
}

/** The store's faults if they are in the link schema, else none (a link never carries junk). */
function faultsFromStore(faults: readonly FaultSpec[] | undefined): FaultSpec[] {
  if (!faults || faults.length === 0) return [];
  const r = FaultsSchema.safeParse(faults);
  return r.success ? (r.data as FaultSpec[]) : [];
}

/** True when the store's source is a transcript opened from a structure-only link. */
export function isStructureOnly(source: Source): boolean {
  return source.origin === 'link' && source.text !== '' && source.name === STRUCTURE_ONLY_NAME;
}

/**
 * The permalink fields of the store.
 * @param s the store state
 * @param inline which source to put in the link: `auto` = a sample id, or the text when it came
 *   from a link (the URL writer); `full` = also a pasted/dropped text (Copy link);
 *   `{text, redacted}` = this text instead (the structure-only link). A redacted text is written
 *   from the view as shown (faults already applied), so that link carries no faults.
 *   A source not put in the link is a view-only link; it names the file it was made for (`n=`)
 *   when the source is a file (or the stand-in of a view-only link that named one).
 * @returns an in-schema permalink state (store values outside the schema fall back to defaults)
 */
export function permalinkFromStore(
  s: AppState,
  inline: 'auto' | 'full' | { text: string; redacted: boolean } = 'auto',
): PermalinkState {
  const def = DEFAULT_PERMALINK_STATE.view;
  let source: PermalinkSource = { kind: 'none' };
  if (typeof inline === 'object')
    source = { kind: 'inline', text: inline.text, redacted: inline.redacted };
  else if (s.source.origin === 'sample' && s.source.sampleId)
    source = { kind: 'sample', id: s.source.sampleId };
  else if (s.source.text !== '' && (s.source.origin === 'link' || inline === 'full'))
    source = { kind: 'inline', text: s.source.text, redacted: isStructureOnly(s.source) };
  else if (s.source.origin === 'file' || isAwaitingTranscript(s.source)) {
    const name = linkName(s.source.name);
    if (name !== undefined) source = { kind: 'none', name };
  }
  const opts = s.policyOptions as Record<string, unknown>;
  const [a, b] = s.policies;
  const state: PermalinkState = {
    source,
    view: {
      format: s.formatOverride,
      provider: s.provider,
      budget: s.budget,
      policy: policyFromStore(a, opts[a], def.policy),
      compare: policyFromStore(b, opts[b], def.compare),
      selection: s.selection,
      anchor: s.anchor,
      faults: typeof inline === 'object' && inline.redacted ? [] : faultsFromStore(s.faults),
    },
  };
  return state;
}

/**
 * The store fields a permalink sets. `policyOptions` is keyed by policy id
 * (`{exchange: {keepNewestExchanges: 2}}`); a sample source leaves `text` empty for the page to
 * load the sample by `sampleId`.
 */
export function storePatchFromPermalink(p: PermalinkState): Partial<AppState> {
  const patch: Partial<AppState> = {
    formatOverride: p.view.format,
    provider: p.view.provider,
    budget: p.view.budget,
    policies: [p.view.policy.id, p.view.compare.id],
    policyOptions: {
      [p.view.compare.id]: { ...p.view.compare.options },
      [p.view.policy.id]: { ...p.view.policy.options },
    },
    selection: p.view.selection,
    anchor: p.view.anchor,
    faults: p.view.faults,
  };
  if (p.source.kind === 'sample')
    patch.source = { text: '', name: '', origin: 'sample', sampleId: p.source.id };
  else if (p.source.kind === 'inline')
    patch.source = {
      text: p.source.text,
      name: p.source.redacted ? STRUCTURE_ONLY_NAME : LINKED_NAME,
      origin: 'link',
    };
  return patch;
}

/** True when a view carries anything beyond the defaults (a link worth keeping as it is). */
function hasView(p: PermalinkState): boolean {
  const v = p.view;
  const d = DEFAULT_PERMALINK_STATE.view;
  return (
    v.format !== d.format ||
    v.provider !== d.provider ||
    v.budget !== d.budget ||
    JSON.stringify([v.policy, v.compare]) !== JSON.stringify([d.policy, d.compare]) ||
    v.selection !== null ||
    v.anchor !== null ||
    v.faults.length > 0
  );
}

/** "budget 5,000,000 tokens, message vs exchange": what a view-only link will show, in short. */
function describeView(p: PermalinkState): string {
  const v = p.view;
  const parts: string[] = [];
  if (v.budget !== null) parts.push(`budget ${v.budget.toLocaleString('en-US')} tokens`);
  parts.push(`policy ${v.policy.id} compared with ${v.compare.id}`);
  if (v.provider !== null) parts.push(`${v.provider} rules`);
  if (v.faults.length > 0) parts.push(`${v.faults.length} applied fault(s)`);
  return parts.join(', ');
}

/**
 * The notice for a link that holds a view but no transcript.
 * @param p the decoded link
 * @param refused true when the link had a transcript that was refused (its own notice says why)
 */
export function viewOnlyNotice(p: PermalinkState, refused: boolean): PermalinkNotice {
  const name = p.source.kind === 'none' ? p.source.name : undefined;
  const view = describeView(p);
  const message = refused
    ? `No transcript is shown: the one in this link was refused (see above). The link's view (${view}) is kept in the address; open the transcript as a file to see it.`
    : name !== undefined
      ? `This link holds a view only (${view}), not the transcript. It was made for the file “${name}”: open that file to see the shared view. No transcript is shown until then.`
      : `This link holds a view only (${view}), not the transcript, and does not say which transcript it was made for: open the one you were sent with it to see the shared view. No transcript is shown until then.`;
  return { key: VIEW_ONLY_NOTICE_KEY, message };
}

/**
 * The fragment (no `#`) of a link to share: the current view plus a source (and the lesson step
 * in Learn mode).
 * @param s the store state
 * @param inline `full` to carry a pasted transcript, or the structure-only text
 */
export function buildShareFragment(
  s: AppState,
  inline: 'full' | { text: string; redacted: boolean },
): string {
  return withViewExtras(encodePermalink(permalinkFromStore(s, inline)), s);
}

/**
 * `buildShareFragment`, checked against the decoder's limits (`encodePermalinkChecked`): a link
 * it returns opens in full on this page.
 * @param s the store state
 * @param inline `full` to carry a pasted transcript, or the structure-only text
 * @returns the fragment (no `#`, with the lesson step), or why it is refused (size and limit)
 */
export function buildShareLink(
  s: AppState,
  inline: 'full' | { text: string; redacted: boolean },
): CheckedFragment {
  const r = encodePermalinkChecked(permalinkFromStore(s, inline));
  return r.ok ? { ok: true, fragment: withViewExtras(r.fragment, s) } : r;
}

/**
 * A view-only link's fragment for the store: the view, and the name of the file it was made for
 * when the source is a file (never the transcript itself).
 */
export function buildViewOnlyFragment(s: AppState): string {
  const state = permalinkFromStore(s);
  if (state.source.kind !== 'none') {
    const name = s.source.origin === 'file' ? linkName(s.source.name) : undefined;
    state.source = name === undefined ? { kind: 'none' } : { kind: 'none', name };
  }
  return withViewExtras(encodePermalink(state), s);
}

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
  patch.simulator = simulatorFromFragment(fragment);
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
    const fragment = withViewExtras(
      encodePermalink(permalinkFromStore(store.getState())),
      store.getState(),
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
      s.lesson === prev.lesson &&
      s.simulator === prev.simulator
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
