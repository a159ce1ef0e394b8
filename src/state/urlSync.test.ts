import { afterEach, describe, expect, it, vi } from 'vitest';
import { decodePermalink, encodePermalink } from './permalink/codec.ts';
import { noticeStore } from './permalink/notices.ts';
import { createAppStore, type AppState } from './store.ts';
import {
  URL_WRITE_MAX_WAIT_FACTOR,
  lessonFromFragment,
  withLesson,
  bootFromUrl,
  startUrlSync,
  buildShareFragment,
  isStructureOnly,
  permalinkFromStore,
  storePatchFromPermalink,
} from './urlSync.ts';

describe('store ⇄ permalink mapping', () => {
  it('carries every permalink field of the store through a link and back', () => {
    const a = createAppStore();
    a.setState({
      source: {
        text: '{"messages":[]}',
        name: 'x.json',
        origin: 'sample',
        sampleId: 'coding-agent',
      },
      provider: 'openai-chat',
      formatOverride: 'openai-chat',
      budget: 32000,
      policies: ['exchange', 'summary'],
      policyOptions: {
        exchange: { pinFirst: true, keepNewestExchanges: 2 },
        summary: { summaryTokens: 300 },
      },
      selection: { kind: 'pair', key: 'p3' },
      anchor: 'x4',
    });
    const frag = encodePermalink(permalinkFromStore(a.getState()));
    expect(frag).toContain('src=coding-agent');
    const { state, notices } = decodePermalink(frag);
    expect(notices).toEqual([]);
    const b = createAppStore();
    b.setState(storePatchFromPermalink(state));
    expect(permalinkFromStore(b.getState())).toEqual(permalinkFromStore(a.getState()));
    expect(b.getState().source).toEqual({
      text: '',
      name: '',
      origin: 'sample',
      sampleId: 'coding-agent',
    });
    expect(b.getState().selection).toEqual({ kind: 'pair', key: 'p3' });
  });

  it('keeps a pasted transcript out of the address bar unless a link is asked for', () => {
    const s = createAppStore();
    s.getState().setSource({
      text: '[{"role":"user","content":"secret plans"}]',
      name: '',
      origin: 'paste',
    });
    expect(permalinkFromStore(s.getState()).source).toEqual({ kind: 'none' });
    const full = decodePermalink(buildShareFragment(s.getState(), 'full')).state;
    expect(full.source).toEqual({
      kind: 'inline',
      text: '[{"role":"user","content":"secret plans"}]',
      redacted: false,
    });
  });

  it('marks a structure-only link and keeps the mark when the view is re-encoded', () => {
    const s = createAppStore();
    const frag = buildShareFragment(s.getState(), { text: '[]', redacted: true });
    const opened = createAppStore();
    opened.setState(storePatchFromPermalink(decodePermalink(frag).state));
    expect(isStructureOnly(opened.getState().source)).toBe(true);
    expect(permalinkFromStore(opened.getState()).source).toEqual({
      kind: 'inline',
      text: '[]',
      redacted: true,
    });
  });

  it('never writes a key whose value is unset: no learn=undefined (a view object without `lesson`)', () => {
    const s = createAppStore();
    s.setState({ source: { text: '', name: '', origin: 'sample', sampleId: 'coding-agent' } });
    // What the share panel passed before: the link fields without `lesson`.
    const noLesson: Partial<AppState> = { ...s.getState() };
    delete noLesson.lesson;
    for (const state of [noLesson as AppState, s.getState()]) {
      for (const inline of ['full', { text: '[]', redacted: true }] as const) {
        const frag = buildShareFragment(state, inline);
        expect(frag).not.toMatch(/undefined|learn=/);
        expect(lessonFromFragment(frag)).toBeNull();
      }
    }
    expect(withLesson('v=1', undefined)).toBe('v=1');
    expect(withLesson('v=1', null)).toBe('v=1');
    expect(withLesson('v=1', 'step-two')).toBe('v=1&learn=step-two');
  });

  it('carries the applied faults; a structure-only link (faults already applied) does not', () => {
    const a = createAppStore();
    a.setState({
      source: { text: '', name: '', origin: 'sample', sampleId: 'coding-agent' },
      selection: { kind: 'pair', key: 'p0' },
      faults: [{ kind: 'timeout', pairKey: 'p0' }],
    });
    const frag = buildShareFragment(a.getState(), 'full');
    expect(frag).toContain('fx=');
    const b = createAppStore();
    b.setState(storePatchFromPermalink(decodePermalink(frag).state));
    expect(b.getState().faults).toEqual([{ kind: 'timeout', pairKey: 'p0' }]);
    const structure = buildShareFragment(a.getState(), { text: '[]', redacted: true });
    expect(decodePermalink(structure).state.view.faults).toEqual([]);
    // Store faults outside the link schema are left out rather than written broken.
    a.setState({ faults: [{ kind: 'truncate', count: 0 }] });
    expect(permalinkFromStore(a.getState()).view.faults).toEqual([]);
  });

  it('drops store values outside the schema instead of writing a broken link', () => {
    const s = createAppStore();
    s.setState({
      policies: ['lru', 'exchange'],
      policyOptions: { lru: { keepNewestExchanges: -1 } },
    });
    const p = permalinkFromStore(s.getState());
    expect(p.view.policy.id).toBe('message');
    expect(decodePermalink(encodePermalink(p)).notices).toEqual([]);
  });
});

describe('URL sync (location/history faked)', () => {
  function fakeBrowser(hash: string) {
    const listeners = new Map<string, () => void>();
    const loc = { hash, href: `http://page.test/${hash}` };
    const writes: string[] = [];
    vi.stubGlobal('location', loc);
    vi.stubGlobal('history', {
      state: null,
      replaceState: (_s: unknown, _t: string, url: string) => {
        writes.push(url);
        loc.hash = url;
        loc.href = `http://page.test/${url}`;
      },
    });
    vi.stubGlobal('window', {
      addEventListener: (k: string, f: () => void) => listeners.set(k, f),
      removeEventListener: (k: string) => listeners.delete(k),
    });
    return {
      writes,
      navigate(h: string) {
        loc.hash = h;
        listeners.get('hashchange')?.();
      },
      listening: () => listeners.has('hashchange'),
    };
  }

  afterEach(() => {
    vi.unstubAllGlobals();
    vi.useRealTimers();
  });

  it('boots from the fragment, writes once per burst of changes, follows hashchange', () => {
    vi.useFakeTimers();
    const b = fakeBrowser('#v=1&src=invoice&b=777&pr=zzz');
    const store = createAppStore();
    const notices = bootFromUrl(store);
    expect(store.getState().budget).toBe(777);
    expect(store.getState().source).toEqual({
      text: '',
      name: '',
      origin: 'sample',
      sampleId: 'invoice',
    });
    expect(notices.map((n) => n.key)).toEqual(['pr']);
    expect(noticeStore.getState().notices).toEqual(notices);

    const stop = startUrlSync(store, 250);
    for (let i = 1; i <= 5; i++) store.getState().setBudget(1000 * i);
    expect(b.writes).toEqual([]);
    vi.advanceTimersByTime(250);
    expect(b.writes).toEqual(['#v=1&src=invoice&b=5000']);
    // Find text and filters are not permalink fields: no write.
    store.getState().setFind('abc');
    vi.advanceTimersByTime(1000);
    expect(b.writes).toHaveLength(1);

    b.navigate('#v=1&src=invoice&b=42&sel=p1');
    expect(store.getState().budget).toBe(42);
    expect(store.getState().selection).toEqual({ kind: 'pair', key: 'p1' });
    stop();
    expect(b.listening()).toBe(false);
  });

  it('puts a sample link selection back once the sample text has loaded', () => {
    fakeBrowser('#v=1&src=coding-agent&sel=m7&at=x2');
    const store = createAppStore();
    bootFromUrl(store);
    const stop = startUrlSync(store);
    // What the page does when the sample arrives: setSource resets selection and anchor.
    store.getState().setSource({
      text: '[]',
      name: 'coding-agent.json',
      origin: 'sample',
      sampleId: 'coding-agent',
    });
    expect(store.getState().selection).toEqual({ kind: 'message', index: 7 });
    expect(store.getState().anchor).toBe('x2');
    stop();
  });

  it("puts a sample link's faults back once the sample text has loaded (setSource clears them)", () => {
    fakeBrowser('#v=1&src=coding-agent&sel=p0&fx=1%3Atp0');
    const store = createAppStore();
    bootFromUrl(store);
    const stop = startUrlSync(store);
    store.getState().setSource({
      text: '[]',
      name: 'coding-agent.json',
      origin: 'sample',
      sampleId: 'coding-agent',
    });
    expect(store.getState().faults).toEqual([{ kind: 'timeout', pairKey: 'p0' }]);
    expect(store.getState().selection).toEqual({ kind: 'pair', key: 'p0' });
    stop();
  });

  it('writes the latest state even while changes keep coming, and clears sel= on deselect', () => {
    vi.useFakeTimers();
    const b = fakeBrowser('#v=1&src=invoice');
    const store = createAppStore();
    bootFromUrl(store);
    const stop = startUrlSync(store, 250);
    // Keyboard moves every 100 ms (a held arrow key), each also moving the scroll anchor.
    for (let i = 0; i < 20; i++) {
      store.getState().select({ kind: 'message', index: i });
      store.getState().setAnchor(`x${i}`);
      vi.advanceTimersByTime(100);
      // Never more than the max wait behind: the address shows a recent selection.
      if (i >= 5) {
        const last = b.writes.at(-1) ?? '';
        const shown = Number(/sel=m(\d+)/.exec(last)?.[1] ?? -1);
        expect(i - shown, `after move ${i}: ${last}`).toBeLessThanOrEqual(
          Math.ceil((URL_WRITE_MAX_WAIT_FACTOR * 250) / 100),
        );
      }
    }
    vi.advanceTimersByTime(250);
    expect(b.writes.at(-1)).toBe('#v=1&src=invoice&sel=m19&at=x19');
    // Esc: the selection is cleared, and so is sel= in the address.
    store.getState().select(null);
    vi.advanceTimersByTime(250);
    expect(b.writes.at(-1)).toBe('#v=1&src=invoice&at=x19');
    // Faults are part of the view: applying one writes fx=.
    store.getState().setFaults([{ kind: 'truncate', count: 1 }]);
    vi.advanceTimersByTime(250);
    expect(b.writes.at(-1)).toBe('#v=1&src=invoice&at=x19&fx=1%3An1');
    stop();
  });
});
