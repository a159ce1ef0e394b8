import { describe, expect, it } from 'vitest';
import { decodePermalink, encodePermalink } from '../../model/permalink/codec.ts';
import { MAX_LINK_TRANSCRIPT_BYTES } from '../../model/permalink/inline.ts';
import { createAppStore, type AppState } from '../store.ts';
import {
  lessonFromFragment,
  withLesson,
  buildShareFragment,
  buildShareLink,
  buildViewOnlyFragment,
  isStructureOnly,
  permalinkFromStore,
  storePatchFromPermalink,
} from './storeLink.ts';

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

  it('carries the request shown and the diff view; a structure-only copy (one request) carries neither request', () => {
    const a = createAppStore();
    a.setState({
      source: { text: '', name: '', origin: 'sample', sampleId: 'otel-trace' },
      requestIndex: 1,
      diff: { kind: 'requests', left: 0, right: 1 },
    });
    const frag = encodePermalink(permalinkFromStore(a.getState()));
    expect(frag).toContain('rq=2');
    expect(frag).toContain('d=1.2');
    const b = createAppStore();
    b.setState(storePatchFromPermalink(decodePermalink(frag).state));
    expect(b.getState().requestIndex).toBe(1);
    expect(b.getState().diff).toEqual({ kind: 'requests', left: 0, right: 1 });
    const redacted = decodePermalink(
      buildShareFragment(a.getState(), { text: '{"messages":[]}', redacted: true }),
    ).state.view;
    expect([redacted.request, redacted.diff]).toEqual([null, null]);
    a.getState().setDiff({ kind: 'cuts' });
    const cuts = decodePermalink(
      buildShareFragment(a.getState(), { text: '{"messages":[]}', redacted: true }),
    ).state.view;
    expect(cuts.diff).toEqual({ kind: 'cuts' });
    a.getState().setDiff({ kind: 'pasted', other: { text: 'x', name: '', origin: 'paste' } });
    expect(encodePermalink(permalinkFromStore(a.getState()))).not.toContain('d=');
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

describe('share links', () => {
  it('the view link of an opened file names the file; its transcript goes inline only when it fits', () => {
    const s = createAppStore();
    s.setState({ budget: 5_000_000 });
    s.getState().setSource({
      text: '',
      name: 'cc100k.jsonl',
      origin: 'file',
      file: new Blob(['x']),
    });
    expect(permalinkFromStore(s.getState()).source).toEqual({ kind: 'none', name: 'cc100k.jsonl' });
    expect(buildViewOnlyFragment(s.getState())).toBe('v=1&n=cc100k.jsonl&b=5000000');
    // The view link inside a summary made from the structure-only copy names no file (issue 37).
    expect(buildViewOnlyFragment(s.getState(), { withName: false })).toBe('v=1&b=5000000');

    // A small file: the full link carries it inline, and the view-only link still names it.
    s.getState().setSource({ text: '[]', name: 'small.json', origin: 'file' });
    const full = buildShareLink(s.getState(), 'full');
    expect(full.ok).toBe(true);
    if (full.ok) expect(decodePermalink(full.fragment).state.source).toMatchObject({ text: '[]' });
    expect(buildViewOnlyFragment(s.getState())).toBe('v=1&n=small.json&b=5000000');

    // Text past the decoder's limit: refused with the limit, nothing deflated.
    s.getState().setSource({
      text: 'x'.repeat(MAX_LINK_TRANSCRIPT_BYTES + 1),
      name: '',
      origin: 'paste',
    });
    const big = buildShareLink(s.getState(), 'full');
    expect(big.ok).toBe(false);
    if (!big.ok) expect(big.reason).toMatch(/at most 2 MiB/);
    // A pasted text has no name: the view link says nothing about it.
    expect(buildViewOnlyFragment(s.getState())).toBe('v=1&b=5000000');
  });

  it('a file name a link cannot carry is left out (the link stays view-only and valid)', () => {
    const s = createAppStore();
    s.getState().setSource({
      text: '',
      name: 'a/b\u0001.jsonl',
      origin: 'file',
      file: new Blob([]),
    });
    expect(permalinkFromStore(s.getState()).source).toEqual({ kind: 'none' });
  });
});
