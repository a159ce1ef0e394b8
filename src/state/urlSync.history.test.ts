/**
 * Back/Forward and reload with the transcript shown (issue 15), on a fake session history that
 * keeps one state per entry, as a browser does: a link opened in the tab is a new entry (state
 * null), Back and Forward move between entries and fire `popstate` (and `hashchange` when the
 * fragment differs), a reload boots a new store
 * on the same entry and the same session storage.
 */
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { ParseError } from '../model/types.ts';
import { VIEW_ONLY_NOTICE_KEY } from './permalink/storeLink.ts';
import { createAppStore, type Source } from './store.ts';
import { createTabMemory, type KeptStorage } from './tabMemory.ts';
import { bootFromUrl, startUrlSync } from './urlSync.ts';

interface Entry {
  hash: string;
  state: unknown;
}

function fakeTab(hash: string) {
  const entries: Entry[] = [{ hash, state: null }];
  let at = 0;
  const listeners = new Map<string, (e?: unknown) => void>();
  const cur = () => entries[at] as Entry;
  vi.stubGlobal('location', {
    get hash() {
      return cur().hash;
    },
    get href() {
      return `http://page.test/${cur().hash}`;
    },
  });
  vi.stubGlobal('history', {
    get state() {
      return cur().state;
    },
    replaceState: (state: unknown, _t: string, url?: string) => {
      entries[at] = { hash: url ?? cur().hash, state: structuredClone(state) };
    },
    // A new entry after the current one (the ones after it are dropped), with no event.
    pushState: (state: unknown, _t: string, url?: string) => {
      entries.splice(at + 1, entries.length, {
        hash: url ?? cur().hash,
        state: structuredClone(state),
      });
      at += 1;
    },
  });
  vi.stubGlobal('window', {
    addEventListener: (k: string, f: (e?: unknown) => void) => listeners.set(k, f),
    removeEventListener: (k: string) => listeners.delete(k),
  });
  const items = new Map<string, string>();
  const storage: KeptStorage = {
    getItem: (k) => items.get(k) ?? null,
    setItem: (k, v) => void items.set(k, v),
    removeItem: (k) => void items.delete(k),
  };
  // As Chromium does: `popstate` on every move between entries (a link opened in the tab too),
  // then `hashchange` when the fragment differs.
  const move = (to: number) => {
    const before = cur().hash;
    at = to;
    listeners.get('popstate')?.();
    if (cur().hash !== before) listeners.get('hashchange')?.();
  };
  return {
    storage,
    hash: () => cur().hash,
    /** How many entries the tab's history has, and which one is shown (0-based). */
    where: () => ({ entries: entries.length, at }),
    /** A link opened in the tab: a new entry after the current one. */
    open(h: string) {
      entries.splice(at + 1, entries.length, { hash: h, state: null });
      move(at + 1);
    },
    back: () => move(at - 1),
    forward: () => move(at + 1),
    /** What leaving the page does: true when the page asks the user first. */
    leave(): boolean {
      let asked = false;
      listeners.get('beforeunload')?.({
        preventDefault: () => (asked = true),
        returnValue: undefined,
      });
      return asked;
    },
  };
}

const pasted: Source = { text: '[{"role":"user","content":"my work"}]', name: '', origin: 'paste' };

/** A page on the tab: its store, booted from the address, and synced (fake timers). */
function openPage(tab: ReturnType<typeof fakeTab>, maxChars?: number) {
  const memory = createTabMemory(tab.storage, maxChars === undefined ? {} : { maxChars });
  const store = createAppStore();
  const notices = bootFromUrl(store, memory);
  const stop = startUrlSync(store, 250, memory);
  return { store, notices, stop };
}

afterEach(() => {
  vi.unstubAllGlobals();
  vi.useRealTimers();
});

describe('each document opened is an entry of its own (newcomer finding)', () => {
  it('paste → paste: Back shows the first with its view, Forward the second; edits stay in one', () => {
    vi.useFakeTimers();
    const tab = fakeTab('#v=1&src=invoice');
    const { store, stop } = openPage(tab);
    // The sample a link or the boot opens is no entry of its own (nothing was shown before).
    store
      .getState()
      .openSource({ text: '[]', name: 'invoice.json', origin: 'sample', sampleId: 'invoice' });
    expect(tab.where()).toEqual({ entries: 1, at: 0 });
    store.getState().openSource(pasted);
    store.getState().setBudget(700);
    vi.advanceTimersByTime(250);
    expect(tab.where()).toEqual({ entries: 2, at: 1 });
    const second: Source = {
      text: '[{"role":"user","content":"more"}]',
      name: '',
      origin: 'paste',
    };
    store.getState().openSource(second);
    // A change of the text that begins no entry (setSource; the text box's keystrokes after the
    // first of an edit session are the same, see the edit-session test below): no entry.
    const edited: Source = { ...second, text: second.text.replace('more', 'more!') };
    store.getState().setSource(edited);
    store.getState().setBudget(900);
    vi.advanceTimersByTime(250);
    expect(tab.where()).toEqual({ entries: 3, at: 2 });
    tab.back();
    expect(store.getState().source).toBe(pasted);
    expect(store.getState().budget).toBe(700);
    tab.back();
    expect(store.getState().source).toMatchObject({ origin: 'sample', sampleId: 'invoice' });
    tab.forward();
    tab.forward();
    expect(store.getState().source).toBe(edited);
    expect(store.getState().budget).toBe(900);
    stop();
  });
});

describe('history entries keep their own transcript', () => {
  it('paste → open a link → Back shows the paste with its view → Forward the link', () => {
    vi.useFakeTimers();
    const tab = fakeTab('#v=1&src=invoice');
    const { store, stop } = openPage(tab);
    store.getState().setSource(pasted);
    store.getState().select({ kind: 'message', index: 0 });
    store.getState().setBudget(700);
    vi.advanceTimersByTime(250);
    expect(tab.hash()).toBe('#v=1&b=700&sel=m0');

    tab.open('#v=1&src=coding-agent&b=5000');
    expect(store.getState().source).toMatchObject({ origin: 'sample', sampleId: 'coding-agent' });
    expect(store.getState().budget).toBe(5000);
    expect(store.getState().selection).toBeNull();

    tab.back();
    expect(store.getState().source).toBe(pasted);
    expect(store.getState().budget).toBe(700);
    expect(store.getState().selection).toEqual({ kind: 'message', index: 0 });

    tab.forward();
    expect(store.getState().source).toMatchObject({ origin: 'sample', sampleId: 'coding-agent' });
    expect(store.getState().budget).toBe(5000);
    expect(store.getState().selection).toBeNull();
    stop();
  });

  it('two entries with pastes under the same view (the same fragment) each show their own', () => {
    vi.useFakeTimers();
    const tab = fakeTab('#v=1');
    const { store, stop } = openPage(tab);
    store.getState().setSource(pasted);
    vi.advanceTimersByTime(250);
    tab.open('#v=1&src=invoice');
    const second: Source = { text: '[]', name: '', origin: 'paste' };
    store.getState().setSource(second);
    vi.advanceTimersByTime(250);
    expect(tab.hash()).toBe('#v=1');
    tab.back();
    expect(store.getState().source).toBe(pasted);
    tab.forward();
    expect(store.getState().source).toBe(second);
    stop();
  });

  it('a paste survives a reload of the tab, with its view', () => {
    vi.useFakeTimers();
    const tab = fakeTab('#v=1&src=invoice');
    const first = openPage(tab);
    first.store.getState().setSource(pasted);
    first.store.getState().select({ kind: 'message', index: 0 });
    vi.advanceTimersByTime(250);
    expect(tab.leave()).toBe(false);
    first.stop();

    const second = openPage(tab);
    expect(second.store.getState().source).toEqual(pasted);
    expect(second.store.getState().selection).toEqual({ kind: 'message', index: 0 });
    expect(second.notices).toEqual([]);
    second.stop();
  });

  it('a paste too large to keep: the page asks before leaving, and after a reload says what is missing', () => {
    vi.useFakeTimers();
    const tab = fakeTab('#v=1&src=invoice');
    const first = openPage(tab, 10);
    first.store.getState().setSource(pasted);
    first.store.getState().setBudget(900);
    vi.advanceTimersByTime(250);
    expect(tab.leave()).toBe(true);
    first.stop();

    const second = openPage(tab, 10);
    // Nothing stands in for it: the view is not put on the default sample.
    expect(second.store.getState().source).toEqual({ text: '', name: '', origin: 'link' });
    expect(second.store.getState().budget).toBe(900);
    expect(second.notices.map((n) => n.key)).toEqual([VIEW_ONLY_NOTICE_KEY]);
    expect(second.notices[0]?.message).toMatch(
      /^This tab showed a pasted transcript here \(\d+ bytes\), too large to keep over a reload/,
    );
    second.stop();
    // Another reload says it again.
    const third = openPage(tab, 10);
    expect(third.notices.map((n) => n.key)).toEqual([VIEW_ONLY_NOTICE_KEY]);
    third.stop();
  });

  it('a sample shown again in the same entry is the entry’s transcript (the address names it)', () => {
    vi.useFakeTimers();
    const tab = fakeTab('#v=1&src=invoice');
    const { store, stop } = openPage(tab);
    store.getState().setSource(pasted);
    store.getState().setSource({ text: '', name: '', origin: 'sample', sampleId: 'coding-agent' });
    vi.advanceTimersByTime(250);
    tab.open('#v=1&src=invoice');
    tab.back();
    expect(store.getState().source).toMatchObject({ origin: 'sample', sampleId: 'coding-agent' });
    stop();
  });

  it('a view link opened over a paste keeps the paste, and that entry keeps it too', () => {
    vi.useFakeTimers();
    const tab = fakeTab('#v=1');
    const first = openPage(tab);
    first.store.getState().setSource(pasted);
    vi.advanceTimersByTime(250);
    tab.open('#v=1&b=321');
    expect(first.store.getState().source).toBe(pasted);
    expect(first.store.getState().budget).toBe(321);
    expect(tab.leave()).toBe(false);
    first.stop();
    const reloaded = openPage(tab);
    expect(reloaded.store.getState().source).toEqual(pasted);
    expect(reloaded.store.getState().budget).toBe(321);
    reloaded.stop();
  });
});

describe('input that failed to parse: the address follows what is shown, the entry keeps both', () => {
  const error: ParseError = { kind: 'json', message: 'Unexpected token' };
  const invoice: Source = {
    text: '[{"role":"user","content":"invoice"}]',
    name: 'invoice.json',
    origin: 'sample',
    sampleId: 'invoice',
  };

  it('a small file that fails: the address names the transcript shown; a reload shows it with the box', () => {
    vi.useFakeTimers();
    const tab = fakeTab('#v=1&src=invoice');
    const first = openPage(tab);
    first.store.getState().openSource(invoice);
    const failed: Source = { text: 'null', name: 'null.json', origin: 'file' };
    first.store.getState().openSource(failed);
    // What the page does once the engine says the file does not parse (useShownSource).
    first.store.getState().rejectSource({ source: failed, error }, invoice);
    vi.advanceTimersByTime(250);
    expect(tab.hash()).toBe('#v=1&src=invoice');
    expect(tab.leave()).toBe(false);
    first.stop();

    const second = openPage(tab);
    expect(second.store.getState().source).toMatchObject({ origin: 'sample', sampleId: 'invoice' });
    expect(second.store.getState().rejected).toEqual({ source: failed, error });
    // The sample's text arrives (the page opens it): the box still holds the failed file.
    second.store.getState().openSource(invoice);
    expect(second.store.getState().rejected).toEqual({ source: failed, error });
    expect(tab.hash()).toBe('#v=1&src=invoice');
    second.stop();
  });

  it('Back to the entry of a failed paste shows its text over the transcript then shown, not a later one', () => {
    vi.useFakeTimers();
    const tab = fakeTab('#v=1&src=invoice');
    const first = openPage(tab);
    const { store } = first;
    store.getState().openSource(invoice);
    store.getState().openSource(pasted);
    const bad: Source = { text: '{"messages": [', name: '', origin: 'paste' };
    store.getState().openSource(bad);
    store.getState().rejectSource({ source: bad, error }, pasted);
    vi.advanceTimersByTime(250);
    const later: Source = {
      text: '[{"role":"user","content":"later"}]',
      name: '',
      origin: 'paste',
    };
    store.getState().openSource(later);
    vi.advanceTimersByTime(250);
    expect(tab.where()).toEqual({ entries: 4, at: 3 });

    tab.back();
    expect(store.getState().source).toBe(pasted);
    expect(store.getState().rejected).toEqual({ source: bad, error });
    tab.back();
    expect(store.getState().source).toBe(pasted);
    expect(store.getState().rejected).toBeNull();
    tab.forward();
    expect(store.getState().rejected).toEqual({ source: bad, error });
    expect(tab.leave()).toBe(false);
    first.stop();

    // A reload of that entry shows it the same way.
    const second = openPage(tab);
    expect(second.store.getState().source).toEqual(pasted);
    expect(second.store.getState().rejected).toEqual({ source: bad, error });
    second.stop();
  });
});

describe('an edit of the text is an entry of its own, one per edit session (reviewer finding)', () => {
  it('Back returns to the transcript before the edit; the keystrokes of one session are one entry', () => {
    vi.useFakeTimers();
    const tab = fakeTab('#v=1&src=invoice');
    const { store, stop } = openPage(tab);
    store
      .getState()
      .openSource({ text: '[]', name: 'invoice.json', origin: 'sample', sampleId: 'invoice' });
    store.getState().openSource(pasted);
    store.getState().select({ kind: 'message', index: 0 });
    vi.advanceTimersByTime(250);
    expect(tab.where()).toEqual({ entries: 2, at: 1 });
    const typed = (text: string): Source => ({ text, name: '', origin: 'paste' });
    // The first change of an edit session (the text box says so), then more keystrokes.
    store.getState().editSource(typed(`${pasted.text} `), true);
    vi.advanceTimersByTime(300);
    store.getState().editSource(typed(`${pasted.text}  `), false);
    const last = typed(`${pasted.text}   `);
    store.getState().editSource(last, false);
    vi.advanceTimersByTime(250);
    expect(tab.where()).toEqual({ entries: 3, at: 2 });

    tab.back();
    expect(store.getState().source).toBe(pasted);
    expect(store.getState().selection).toEqual({ kind: 'message', index: 0 });
    tab.forward();
    expect(store.getState().source).toBe(last);
    // Another session: another entry.
    store.getState().editSource(typed('[]'), true);
    vi.advanceTimersByTime(250);
    expect(tab.where()).toEqual({ entries: 4, at: 3 });
    tab.back();
    expect(store.getState().source).toBe(last);
    stop();
  });
});
