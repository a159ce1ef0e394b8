import { describe, expect, it } from 'vitest';
import { decodePermalink, encodePermalink } from './permalink/codec.ts';
import { createAppStore } from './store.ts';
import {
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
