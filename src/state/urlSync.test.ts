import { afterEach, describe, expect, it, vi } from 'vitest';
import { deflateSync } from 'fflate';
import { decodePermalink } from '../model/permalink/codec.ts';
import { MAX_INLINE_BYTES, toBase64Url } from '../model/permalink/inline.ts';
import { noticeStore } from './permalink/notices.ts';
import { isAwaitingTranscript, VIEW_ONLY_NOTICE_KEY } from './permalink/storeLink.ts';
import { createAppStore } from './store.ts';
import { URL_WRITE_MAX_WAIT_FACTOR, bootFromUrl, startUrlSync } from './urlSync.ts';

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

  describe('links without a transcript (view-only, or a refused one)', () => {
    it('keeps a view-only link as it is, shows no stand-in sample and names the file it expects', () => {
      vi.useFakeTimers();
      const b = fakeBrowser('#v=1&n=cc100k.jsonl&b=5000000&sel=m3');
      const store = createAppStore();
      const notices = bootFromUrl(store);
      // Not the default sample (origin 'sample' without text would make the page load it).
      expect(store.getState().source).toEqual({ text: '', name: 'cc100k.jsonl', origin: 'link' });
      expect(isAwaitingTranscript(store.getState().source)).toBe(true);
      expect(store.getState().budget).toBe(5_000_000);
      expect(notices.map((n) => n.key)).toEqual([VIEW_ONLY_NOTICE_KEY]);
      expect(notices[0]?.message).toBe(
        'This link holds a view only (budget 5,000,000 tokens, policy message compared with exchange), not the transcript. It was made for the file “cc100k.jsonl”: open that file to see the shared view. No transcript is shown until then.',
      );
      const stop = startUrlSync(store, 250);
      vi.advanceTimersByTime(1000);
      expect(b.writes).toEqual([]);
      // A change of view is written without inventing a source.
      store.getState().setProvider('anthropic');
      vi.advanceTimersByTime(250);
      expect(b.writes).toEqual(['#v=1&n=cc100k.jsonl&pr=anthropic&b=5000000&sel=m3']);
      // Opening the named file: the link's selection comes back (setSource cleared it).
      const file = new Blob(['x']);
      store.getState().setSource({ text: '', name: 'cc100k.jsonl', origin: 'file', file });
      expect(store.getState().selection).toEqual({ kind: 'message', index: 3 });
      vi.advanceTimersByTime(250);
      expect(b.writes.at(-1)).toBe('#v=1&n=cc100k.jsonl&pr=anthropic&b=5000000&sel=m3');
      stop();
    });

    it('opening another file after a view-only link does not carry its selection over', () => {
      fakeBrowser('#v=1&n=a.jsonl&b=900&sel=m3');
      const store = createAppStore();
      bootFromUrl(store);
      const stop = startUrlSync(store);
      store.getState().setSource({ text: '[]', name: 'b.json', origin: 'file' });
      expect(store.getState().selection).toBeNull();
      expect(store.getState().budget).toBe(900);
      stop();
    });

    it('says so when a view-only link does not name its transcript (links made before n=)', () => {
      fakeBrowser('#v=1&b=5000000');
      const store = createAppStore();
      const notices = bootFromUrl(store);
      expect(store.getState().source).toEqual({ text: '', name: '', origin: 'link' });
      expect(notices[0]?.message).toMatch(
        /^This link holds a view only \(budget 5,000,000 tokens.*\), not the transcript, and does not say which transcript it was made for/,
      );
    });

    it('a refused inline link: no sample, and the budget in the store is the one in the address', () => {
      vi.useFakeTimers();
      // Inflates past the decoder's limit (what the old encoder wrote for a 100k-message log).
      const big = deflateSync(new Uint8Array(MAX_INLINE_BYTES + 1024).fill(120), { level: 9 });
      const b = fakeBrowser(`#v=1&t=1.d.${toBase64Url(big)}&r=1&b=5000000`);
      const store = createAppStore();
      const notices = bootFromUrl(store);
      expect(notices.map((n) => n.key)).toEqual(['t', VIEW_ONLY_NOTICE_KEY]);
      expect(notices[0]?.message).toBe(
        'The inline transcript expands beyond 16 MiB and was refused (a decompression bomb, or too large for a link).',
      );
      expect(notices[1]?.message).toMatch(
        /^No transcript is shown: the one in this link was refused/,
      );
      expect(store.getState().source.origin).toBe('link');
      expect(store.getState().budget).toBe(5_000_000);
      const stop = startUrlSync(store, 250);
      store.getState().setProvider('anthropic');
      vi.advanceTimersByTime(250);
      const written = b.writes.at(-1) ?? '';
      expect(written).toBe('#v=1&pr=anthropic&b=5000000');
      expect(decodePermalink(written).state.view.budget).toBe(store.getState().budget);
      stop();
    });

    it('a link with no view and no transcript, or a lesson link, still opens the default sample', () => {
      // (A lesson step the page does not have shows nothing instead: applyLink.test.ts.)
      for (const hash of ['#v=1', '#v=1&b=lots&pr=nope', '#learn=one-unit']) {
        fakeBrowser(hash);
        const store = createAppStore();
        const notices = bootFromUrl(store);
        expect(store.getState().source.origin, hash).toBe('sample');
        expect(notices.map((n) => n.key)).not.toContain(VIEW_ONLY_NOTICE_KEY);
      }
    });

    it('a view-only link pasted while a transcript is shown keeps that transcript (back/forward)', () => {
      const b = fakeBrowser('#v=1&src=invoice');
      const store = createAppStore();
      bootFromUrl(store);
      const stop = startUrlSync(store);
      const shown = {
        text: '[]',
        name: 'invoice.json',
        origin: 'sample' as const,
        sampleId: 'invoice',
      };
      store.getState().setSource(shown);
      b.navigate('#v=1&b=321');
      expect(store.getState().source).toEqual(shown);
      expect(store.getState().budget).toBe(321);
      stop();
    });
  });
});
