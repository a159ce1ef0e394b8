/**
 * The only module that touches `location` and `history` (style.md §4.3, issues 6 and 15).
 *
 * - Boot: `bootFromUrl` decodes `location.hash` into the store before the first render.
 * - Store → URL: a vanilla `subscribe` encodes the permalink fields and writes them with
 *   `history.replaceState`, debounced (a slider drag is one URL change, not a history entry each
 *   tick; `location.hash = …` would add one per tick).
 * - URL → store: `hashchange` and `popstate` (a link opened in the tab, back/forward) decode and
 *   apply the link (`permalink/applyLink.ts`).
 * No React effect mirrors URL and store into each other.
 *
 * What the URL carries by itself: the view, and the source when it is a sample or came from a
 * link. A pasted or dropped transcript is NOT written to the address bar automatically: it would
 * land in the browser history (and history sync) without the user asking, and a large one would
 * make every write slow. The share panel puts it in a link on request (`buildShareFragment`).
 * Instead, the history entry names it by a key in `history.state` (`{transcript: key}`), and the
 * tab keeps it under that key (`tabMemory.ts`: memory, and the tab's session storage): Back and
 * Forward show each entry's own transcript with its own view, and a reload shows it again. A
 * paste too large to keep makes the page ask before it is left (`beforeunload`). Each document
 * the user opens over one shown (`AppState.entrySeq`) is a new entry (`pushState`): Back after
 * two pastes shows the first, not the page before the app.
 */
import type { StoreApi } from 'zustand';
import { encodePermalink, type PermalinkNotice } from '../model/permalink/codec.ts';
import { applyLink, restorePending } from './permalink/applyLink.ts';
import { isAwaitingTranscript, permalinkFromStore, withViewExtras } from './permalink/storeLink.ts';
import type { AppState, AppStore, Rejected, Source } from './store.ts';
import { needsKeeping, tabMemory, type Recalled, type TabMemory } from './tabMemory.ts';

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
 * The keys of `history.state` that name what the tab keeps for the entry: its transcript, and the
 * input that failed to parse there (`AppState.rejected`: the text box's text and its error).
 */
const ENTRY_KEY = 'transcript';
const REJECTED_KEY = 'rejected';
type EntryKeyName = typeof ENTRY_KEY | typeof REJECTED_KEY;

/** A kept-item key of the current history entry (its transcript by default), or null. */
function entryKey(name: EntryKeyName = ENTRY_KEY): string | null {
  const state: unknown = history.state;
  if (state === null || typeof state !== 'object') return null;
  const key = (state as Record<string, unknown>)[name];
  return typeof key === 'string' ? key : null;
}

/** Name (or, with null, stop naming) a kept item of the current entry; the URL stays. */
function setEntryKey(key: string | null, name: EntryKeyName = ENTRY_KEY): void {
  const state: Record<string, unknown> =
    history.state !== null && typeof history.state === 'object'
      ? { ...(history.state as Record<string, unknown>) }
      : {};
  if (key === null) delete state[name];
  else state[name] = key;
  // The URL argument is the address as it is (left out when it has no fragment: same address).
  if (location.hash.length > 1) history.replaceState(state, '', location.hash);
  else history.replaceState(state, '');
}

// eslint-disable-next-line cache/no-module-cache -- a counter that makes history entry keys unique in this tab; no data
let keyCount = 0;
/** A key no other entry of this tab has, even across reloads (session storage outlives them). */
function newKey(): string {
  keyCount += 1;
  return `${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}-${keyCount}`;
}

/**
 * Keep the transcript shown as the current history entry's own, when no URL can bring it back
 * (a paste, a file): named in `history.state` at once (a link opened right after must find it),
 * written to session storage with the next URL write.
 * @returns the entry's key afterwards (null when it names no kept transcript)
 */
function keepShown(memory: TabMemory, source: Source): string | null {
  const key = entryKey();
  if (!needsKeeping(source)) {
    // The stand-in for a transcript this entry lost (too large for a reload) keeps its key, so
    // that the page says so again after another reload.
    if (key === null || isAwaitingTranscript(source)) return key;
    setEntryKey(null);
    return null;
  }
  const k = key ?? newKey();
  memory.keep(k, source);
  if (k !== key) setEntryKey(k);
  return k;
}

/**
 * Keep the input that failed to parse in the current entry (`AppState.rejected`), so that Back,
 * Forward and a reload show the entry as it was: that text in the box with its error, over the
 * transcript then shown.
 * @returns the entry's key for it afterwards (null when it has none)
 */
function keepRejected(memory: TabMemory, rejected: Rejected | null): string | null {
  const key = entryKey(REJECTED_KEY);
  if (rejected === null) {
    if (key !== null) setEntryKey(null, REJECTED_KEY);
    return null;
  }
  const k = key ?? newKey();
  memory.keep(k, rejected.source, rejected.error);
  if (k !== key) setEntryKey(k, REJECTED_KEY);
  return k;
}

/**
 * Keep what the current entry shows (`keepShown`, `keepRejected`).
 * @returns the entry's keys afterwards, as one string (to tell entries of the same fragment apart)
 */
function keepEntry(memory: TabMemory, s: Pick<AppState, 'source' | 'rejected'>): string {
  return `${keepShown(memory, s.source) ?? ''} ${keepRejected(memory, s.rejected) ?? ''}`;
}

/** The current entry's keys, as `keepEntry` returns them. */
function entryKeys(): string {
  return `${entryKey() ?? ''} ${entryKey(REJECTED_KEY) ?? ''}`;
}

/** True when a source has a transcript on screen to go back to (not a sample or link still loading). */
function shows(source: Source): boolean {
  return source.text !== '' || source.file !== undefined;
}

/** What the tab kept for the current history entry, or null when it names none. */
function recallEntry(memory: TabMemory): Recalled | null {
  const key = entryKey();
  return key === null ? null : memory.recall(key);
}

/** The input that failed to parse at the current entry, or null (none, or not kept over a reload). */
function recallRejected(memory: TabMemory): Rejected | null {
  const key = entryKey(REJECTED_KEY);
  const r = key === null ? null : memory.recall(key);
  return r?.kind === 'kept' && r.error ? { source: r.source, error: r.error } : null;
}

/**
 * Boot: apply `location.hash` (and the transcript this tab kept for the entry, after a reload) to
 * the store. Call before the first render.
 * @param memory the tab's kept transcripts (tests pass their own)
 * @returns the notices (also put in `noticeStore`)
 */
export function bootFromUrl(
  store: StoreApi<AppStore>,
  memory: TabMemory = tabMemory,
): PermalinkNotice[] {
  const recalled = recallEntry(memory);
  const rejected = recallRejected(memory);
  if (location.hash.length <= 1 && recalled === null && rejected === null) return [];
  return applyLink(store, location.hash, recalled, rejected);
}

/** True when only fields outside the link changed (hover, find, filters: no URL write). */
function sameLinkFields(s: AppStore, prev: AppStore): boolean {
  return (
    s.source === prev.source &&
    s.formatOverride === prev.formatOverride &&
    s.provider === prev.provider &&
    s.requestIndex === prev.requestIndex &&
    s.diff === prev.diff &&
    s.model === prev.model &&
    s.budget === prev.budget &&
    s.policies === prev.policies &&
    s.policyOptions === prev.policyOptions &&
    s.selection === prev.selection &&
    s.anchor === prev.anchor &&
    s.faults === prev.faults &&
    s.lesson === prev.lesson &&
    s.simulator === prev.simulator
  );
}

/**
 * Start syncing: store → URL (debounced `replaceState`) and URL → store (`hashchange`), and ask
 * before the page is left with a paste a reload would lose.
 * Each write encodes the store as it is when the write runs (never a state captured when the
 * timer was set); a write waits `debounceMs` after the last change, and at most
 * `URL_WRITE_MAX_WAIT_FACTOR × debounceMs` after the first unwritten one.
 * @param debounceMs quiet time before a write, in ms
 * @param memory the tab's kept transcripts (tests pass their own)
 * @returns a function that stops all of it
 */
export function startUrlSync(
  store: StoreApi<AppStore>,
  debounceMs: number = URL_WRITE_DEBOUNCE_MS,
  memory: TabMemory = tabMemory,
): () => void {
  let timer: ReturnType<typeof setTimeout> | null = null;
  /** When the oldest unwritten change happened (ms, `Date.now()`), or null when all are written. */
  let pendingSince: number | null = null;
  let lastWritten = location.hash.replace(/^#/, '');
  /** Write the store's link into the entry (`push`: into a new entry after it). */
  const write = (push = false) => {
    if (timer !== null) clearTimeout(timer);
    timer = null;
    pendingSince = null;
    memory.flush();
    const fragment = withViewExtras(
      encodePermalink(permalinkFromStore(store.getState())),
      store.getState(),
    );
    if (fragment === lastWritten && !push) return;
    lastWritten = fragment;
    if (push) history.pushState(null, '', `#${fragment}`);
    else history.replaceState(history.state, '', `#${fragment}`);
  };
  /** The kept-item keys of the entry the store shows (`lastWritten` is its fragment). */
  let lastKeys = keepEntry(memory, store.getState());
  const unsubscribe = store.subscribe((s, prev) => {
    if (s.source !== prev.source) {
      // A document opened over one shown: an entry of its own, so Back returns to the last one
      // (which keeps its key, fragment and kept transcript; view tweaks not yet written stay so).
      if (s.entrySeq !== prev.entrySeq && shows(prev.source)) write(true);
      restorePending(store, s);
    }
    if (s.source !== prev.source || s.rejected !== prev.rejected)
      lastKeys = keepEntry(memory, store.getState());
    if (sameLinkFields(s, prev)) return;
    const now = Date.now();
    pendingSince ??= now;
    const wait = Math.max(
      0,
      Math.min(debounceMs, pendingSince + URL_WRITE_MAX_WAIT_FACTOR * debounceMs - now),
    );
    if (timer !== null) clearTimeout(timer);
    timer = setTimeout(write, wait);
  });
  // Back/Forward fire `popstate` (and `hashchange` only when the fragment differs: two entries
  // with pastes under the same view differ by their key alone); a link opened in the tab fires
  // both. Each entry is applied once.
  const onNavigate = () => {
    const fragment = location.hash.replace(/^#/, '');
    if (fragment === lastWritten && entryKeys() === lastKeys) return;
    lastWritten = fragment;
    applyLink(store, fragment, recallEntry(memory), recallRejected(memory));
    // A link without a transcript kept the one shown: this entry keeps it too (for a reload).
    lastKeys = keepEntry(memory, store.getState());
  };
  const onBeforeUnload = (e: BeforeUnloadEvent) => {
    // Leaving (a reload, another page): the kept transcript must be in session storage. The
    // address is not written here: Chromium reloads the entry as it was before a `replaceState`
    // made during `beforeunload` (the history state and fragment were both lost in a trial).
    memory.flush();
    const keys = [entryKey(), entryKey(REJECTED_KEY)];
    if (keys.every((key) => key === null || memory.survivesReload(key))) return;
    e.preventDefault();
    e.returnValue = true; // Chromium before 119, Safari
  };
  window.addEventListener('hashchange', onNavigate);
  window.addEventListener('popstate', onNavigate);
  window.addEventListener('beforeunload', onBeforeUnload);
  return () => {
    unsubscribe();
    window.removeEventListener('hashchange', onNavigate);
    window.removeEventListener('popstate', onNavigate);
    window.removeEventListener('beforeunload', onBeforeUnload);
    if (timer !== null) clearTimeout(timer);
  };
}
