import { describe, expect, it } from 'vitest';
import { createAppStore } from '../store.ts';
import { applyLink } from './applyLink.ts';
import { VIEW_ONLY_NOTICE_KEY } from './storeLink.ts';

describe('a link that cannot be honoured says so, and nothing stands in for it (issue 15)', () => {
  it('a sample name the page cannot read: no sample is loaded in its place', () => {
    const store = createAppStore();
    const notices = applyLink(store, '#v=1&src=..%2Fsecret&b=900');
    expect(notices.map((n) => n.key)).toEqual(['src', VIEW_ONLY_NOTICE_KEY]);
    expect(notices[0]?.message).toMatch(/^The link names the sample “\.\.\/secret”, which is not/);
    expect(store.getState().source).toEqual({
      text: '',
      name: '',
      origin: 'link',
      unreadLink: true,
    });
    expect(store.getState().budget).toBe(900);
  });

  it('an empty transcript (t=) is named as such', () => {
    const store = createAppStore();
    const notices = applyLink(store, '#v=1&t=');
    expect(notices[0]).toEqual({
      key: 't',
      message: 'The link’s transcript (t=) is empty: the link was cut off or damaged on its way.',
    });
    expect(store.getState().source.origin).toBe('link');
  });

  it('an address with nothing the page reads says so', () => {
    for (const hash of ['#%%%garbage', '#foo=1&bar=2']) {
      const notices = applyLink(createAppStore(), hash);
      expect(
        notices.map((n) => n.key),
        hash,
      ).toEqual(['#']);
      expect(notices[0]?.message).toMatch(/holds nothing this page reads/);
    }
    // On a page that shows nothing yet, no sample is loaded in its place (it would be written
    // back into the address as `src=…` while the notice names the link).
    const store = createAppStore();
    applyLink(store, '#foo=bar');
    expect(store.getState().source).toEqual({
      text: '',
      name: '',
      origin: 'link',
      unreadLink: true,
    });
    // A lesson link, and an address with only the version, are links the page reads.
    for (const hash of ['#learn=one-unit', '#v=1', ''])
      expect(applyLink(createAppStore(), hash), hash).toEqual([]);
  });

  it('a lesson step the page does not have: Learn is not opened and no sample stands in', () => {
    const store = createAppStore();
    const notices = applyLink(store, '#v=1&learn=nosuch');
    expect(notices.map((n) => n.key)).toContain('learn');
    expect(store.getState().lesson).toBeNull();
    expect(store.getState().source).toEqual({
      text: '',
      name: '',
      origin: 'link',
      unreadLink: true,
    });
    // With a transcript of its own, the link still shows it.
    applyLink(store, '#v=1&src=invoice&learn=nosuch');
    expect(store.getState().source).toMatchObject({ origin: 'sample', sampleId: 'invoice' });
  });

  it('a damaged transcript is an unread link (no file awaited); a view-only link awaits its file', () => {
    const damaged = createAppStore();
    const notices = applyLink(damaged, '#v=1&t=1.d.AAAAgarbage');
    expect(notices.length).toBeGreaterThan(0);
    expect(damaged.getState().source).toEqual({
      text: '',
      name: '',
      origin: 'link',
      unreadLink: true,
    });
    const viewOnly = createAppStore();
    applyLink(viewOnly, '#v=1&n=session.jsonl&b=900');
    expect(viewOnly.getState().source).toEqual({ text: '', name: 'session.jsonl', origin: 'link' });
  });

  it('a kept transcript is shown with the entry’s view; a lost one is said, with no stand-in', () => {
    const store = createAppStore();
    const source = { text: '[]', name: 'a.json', origin: 'file' as const };
    expect(applyLink(store, '#v=1&b=42&sel=m0', { kind: 'kept', source })).toEqual([]);
    expect(store.getState().source).toBe(source);
    expect(store.getState().selection).toEqual({ kind: 'message', index: 0 });

    const notices = applyLink(store, '#v=1&b=42', {
      kind: 'lost',
      name: 'session.jsonl',
      origin: 'file',
      chars: 3 * 1024 * 1024,
    });
    expect(store.getState().source).toEqual({ text: '', name: 'session.jsonl', origin: 'link' });
    expect(notices[0]?.message).toMatch(
      /^This tab showed the file “session\.jsonl” here \(3 MiB\), too large to keep over a reload/,
    );
  });

  it('a link that carries its transcript wins over what the entry kept', () => {
    const store = createAppStore();
    const kept = { text: '[]', name: '', origin: 'paste' as const };
    applyLink(store, '#v=1&src=invoice', { kind: 'kept', source: kept });
    expect(store.getState().source).toMatchObject({ origin: 'sample', sampleId: 'invoice' });
  });
});
