import fc from 'fast-check';
import { deflateSync, strToU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import type { FaultSpec } from '../faults.ts';
import { decodePermalink, encodePermalink, PERMALINK_KEYS } from './codec.ts';
import { decodeInlinePayload, encodeInlinePayload, inflateCapped, toBase64Url } from './inline.ts';
import {
  DEFAULT_PERMALINK_STATE,
  FORMAT_IDS,
  MAX_BUDGET_TOKENS,
  MAX_KEEP_EXCHANGES,
  MAX_REQUEST_INDEX,
  MAX_SUMMARY_TOKENS,
  POLICY_IDS,
  PROVIDER_IDS,
  PermalinkStateSchema,
  type PermalinkPolicy,
  type PermalinkState,
} from './schema.ts';

const policyArb: fc.Arbitrary<PermalinkPolicy> = fc.record({
  id: fc.constantFrom(...POLICY_IDS),
  options: fc.record({
    pinFirst: fc.boolean(),
    keepNewestExchanges: fc.integer({ min: 0, max: MAX_KEEP_EXCHANGES }),
    summaryTokens: fc.option(fc.integer({ min: 1, max: MAX_SUMMARY_TOKENS }), { nil: null }),
    keepToolUses: fc.option(fc.integer({ min: 0, max: MAX_KEEP_EXCHANGES }), { nil: null }),
  }),
});

const sampleIdArb = fc
  .tuple(
    fc.stringMatching(/^[A-Za-z0-9_-][A-Za-z0-9_-]{0,20}$/),
    fc.constantFrom('.json', '.jsonl', '.json.gz', ''),
  )
  .map(([a, b]) => `samples/${a}${b}`);

const pairKeyArb = fc.integer({ min: 0, max: 99_999_999 }).map((n) => `p${n}`);
const indexArb = fc.integer({ min: 0, max: 10_000_000 });
/** Every `FaultSpec` kind (model/faults.ts), a cancel with and without its own user text. */
const faultArb: fc.Arbitrary<FaultSpec> = fc.oneof(
  fc.record({ kind: fc.constant('timeout' as const), pairKey: pairKeyArb }),
  fc.record({ kind: fc.constant('tool_raised' as const), pairKey: pairKeyArb }),
  fc.record({ kind: fc.constant('cancel' as const), messageIndex: indexArb }),
  fc.record({
    kind: fc.constant('cancel' as const),
    messageIndex: indexArb,
    userText: fc.string({ unit: 'grapheme', maxLength: 40 }),
  }),
  fc.record({ kind: fc.constant('retry' as const), messageIndex: indexArb }),
  fc.record({ kind: fc.constant('drop' as const), messageIndex: indexArb }),
  fc.record({ kind: fc.constant('truncate' as const), count: fc.integer({ min: 1, max: 10_000 }) }),
);

const stateArb: fc.Arbitrary<PermalinkState> = fc.record({
  source: fc.oneof(
    fc.constant({ kind: 'none' as const }),
    sampleIdArb.map((id) => ({ kind: 'sample' as const, id })),
    fc.record({
      kind: fc.constant('inline' as const),
      text: fc.string({ unit: 'grapheme', maxLength: 300 }),
      redacted: fc.boolean(),
    }),
    // Long, repetitive JSON: the case deflate is for.
    fc.record({
      kind: fc.constant('inline' as const),
      text: fc.json({ maxDepth: 4 }),
      redacted: fc.boolean(),
    }),
  ),
  view: fc.record({
    format: fc.option(fc.constantFrom(...FORMAT_IDS), { nil: null }),
    provider: fc.option(fc.constantFrom(...PROVIDER_IDS), { nil: null }),
    request: fc.option(fc.integer({ min: 0, max: MAX_REQUEST_INDEX }), { nil: null }),
    model: fc.option(fc.stringMatching(/^[\w.:/@-]{1,120}$/), { nil: null }),
    budget: fc.option(fc.integer({ min: 0, max: MAX_BUDGET_TOKENS }), { nil: null }),
    policy: policyArb,
    compare: policyArb,
    selection: fc.option(
      fc.oneof(
        fc
          .integer({ min: 0, max: 10_000_000 })
          .map((index) => ({ kind: 'message' as const, index })),
        fc
          .integer({ min: 0, max: 99_999_999 })
          .map((n) => ({ kind: 'pair' as const, key: `p${n}` })),
      ),
      { nil: null },
    ),
    anchor: fc.option(
      fc.integer({ min: 0, max: 99_999_999 }).map((n) => `x${n}`),
      { nil: null },
    ),
    faults: fc.array(faultArb, { maxLength: 6 }),
    diff: fc.option(
      fc.oneof(
        fc.constant({ kind: 'previous' as const }),
        fc.constant({ kind: 'cuts' as const }),
        fc.record({
          kind: fc.constant('requests' as const),
          left: fc.integer({ min: 0, max: MAX_REQUEST_INDEX }),
          right: fc.integer({ min: 0, max: MAX_REQUEST_INDEX }),
        }),
      ),
      { nil: null },
    ),
  }),
});

describe('permalink codec', () => {
  it('round-trips every in-schema state without notices', () => {
    fc.assert(
      fc.property(stateArb, (s) => {
        expect(PermalinkStateSchema.safeParse(s).success).toBe(true);
        const { state, notices } = decodePermalink(`#${encodePermalink(s)}`);
        expect(notices).toEqual([]);
        expect(state).toEqual(s);
      }),
      { numRuns: 300 },
    );
  });

  it('encodes the defaults as just the version', () => {
    expect(encodePermalink(DEFAULT_PERMALINK_STATE)).toBe('v=1');
    expect(decodePermalink('')).toEqual({ state: DEFAULT_PERMALINK_STATE, notices: [] });
    expect(decodePermalink('#')).toEqual({ state: DEFAULT_PERMALINK_STATE, notices: [] });
  });

  it('reads the readable form from style.md §4.3', () => {
    const { state, notices } = decodePermalink(
      '#v=1&src=samples%2Fswe-1.json&b=32000&p=exchange&sel=m42&at=x17',
    );
    expect(notices).toEqual([]);
    expect(state.source).toEqual({ kind: 'sample', id: 'samples/swe-1.json' });
    expect(state.view.budget).toBe(32000);
    expect(state.view.policy.id).toBe('exchange');
    expect(state.view.selection).toEqual({ kind: 'message', index: 42 });
    expect(state.view.anchor).toBe('x17');
  });

  it('never throws on any string and always yields an in-schema state', () => {
    const keys = [
      'v',
      'src',
      't',
      'r',
      'f',
      'pr',
      'b',
      'p',
      'pin',
      'keep',
      'sum',
      'kt',
      'p2',
      'pin2',
      'keep2',
      'sum2',
      'kt2',
      'sel',
      'at',
      'fx',
      'zz',
    ];
    const fragmentArb = fc.oneof(
      fc.string({ unit: 'binary', maxLength: 200 }),
      fc
        .array(fc.tuple(fc.constantFrom(...keys), fc.string({ maxLength: 30 })), { maxLength: 12 })
        .map((kv) => kv.map(([k, v]) => `${k}=${encodeURIComponent(v)}`).join('&')),
      fc
        .array(fc.tuple(fc.constantFrom(...keys), fc.string({ unit: 'binary', maxLength: 30 })), {
          maxLength: 12,
        })
        .map((kv) => `#${kv.map(([k, v]) => `${k}=${v}`).join('&')}`),
    );
    fc.assert(
      fc.property(fragmentArb, (frag) => {
        const r = decodePermalink(frag);
        expect(PermalinkStateSchema.safeParse(r.state).success).toBe(true);
        for (const n of r.notices) expect(typeof n.message).toBe('string');
      }),
      { numRuns: 1000 },
    );
  });

  it('falls back per key with a notice and ignores unknown keys', () => {
    const { state, notices } = decodePermalink(
      '#v=1&b=-5&pr=nope&p=lru&sel=q1&at=17&unknown=1&f=gemini&keep=3',
    );
    expect(state.view.budget).toBeNull();
    expect(state.view.provider).toBeNull();
    expect(state.view.policy.id).toBe('message');
    expect(state.view.selection).toBeNull();
    expect(state.view.anchor).toBeNull();
    expect(state.view.format).toBe('gemini');
    expect(state.view.policy.options.keepNewestExchanges).toBe(3);
    expect(notices.map((n) => n.key).sort()).toEqual(['at', 'b', 'p', 'pr', 'sel']);
  });

  it('says so when a link comes from a newer version', () => {
    const { notices } = decodePermalink('#v=9&b=100');
    expect(notices).toHaveLength(1);
    expect(notices[0]?.key).toBe('v');
  });

  it('refuses an oversized fragment with a notice', () => {
    const { state, notices } = decodePermalink(`#v=1&b=5&pad=${'a'.repeat(5000)}`, {
      maxFragmentChars: 4096,
    });
    expect(state).toEqual(DEFAULT_PERMALINK_STATE);
    expect(notices).toHaveLength(1);
    expect(notices[0]?.key).toBe('#');
  });

  it('refuses a decompression bomb before expanding it, keeping the view', () => {
    // 16 MiB of zeros deflates to ~16 KB; the cap is 1 MiB.
    const bomb = deflateSync(new Uint8Array(16 * 1024 * 1024), { level: 9 });
    expect(bomb.length).toBeLessThan(50_000);
    const frag = `#v=1&t=1.d.${toBase64Url(bomb)}&b=1234`;
    const { state, notices } = decodePermalink(frag, { maxInlineBytes: 1024 * 1024 });
    expect(state.source).toEqual({ kind: 'none' });
    expect(state.view.budget).toBe(1234);
    expect(notices).toHaveLength(1);
    expect(notices[0]?.key).toBe('t');
    expect(notices[0]?.message).toMatch(/bomb/);
    expect(inflateCapped(bomb, 1024 * 1024)).toBe('too-large');
  });

  it('refuses damaged, truncated and unknown-version payloads', () => {
    const good = encodeInlinePayload(
      JSON.stringify({
        messages: Array.from({ length: 50 }, (_, i) => ({ role: 'user', content: `hello ${i}` })),
      }),
    );
    expect(good.startsWith('1.d.')).toBe(true);
    expect(decodeInlinePayload(good).ok).toBe(true);
    expect(decodeInlinePayload(good.slice(0, good.length - 20)).ok).toBe(false);
    expect(decodeInlinePayload(`2${good.slice(1)}`).ok).toBe(false);
    expect(decodeInlinePayload('1.d.!!!').ok).toBe(false);
    expect(decodeInlinePayload(`1.n.${toBase64Url(new Uint8Array([0xff, 0xfe]))}`).ok).toBe(false);
    expect(decodeInlinePayload(`1.n.${toBase64Url(strToU8('x'.repeat(100)))}`, 10).ok).toBe(false);
  });

  it('prefers the inline transcript over a sample, with a notice', () => {
    const frag = encodePermalink({
      ...DEFAULT_PERMALINK_STATE,
      source: { kind: 'inline', text: '[]', redacted: true },
    });
    const { state, notices } = decodePermalink(`${frag}&src=samples%2Fa.json`);
    expect(state.source).toEqual({ kind: 'inline', text: '[]', redacted: true });
    expect(notices.map((n) => n.key)).toEqual(['src']);
  });

  it('says that an empty inline transcript (t=) is empty', () => {
    expect(decodeInlinePayload('')).toEqual({
      ok: false,
      reason: 'The link’s transcript (t=) is empty: the link was cut off or damaged on its way.',
    });
  });

  it('lists every key it writes in PERMALINK_KEYS (the page tells a link it cannot read by them)', () => {
    fc.assert(
      fc.property(stateArb, (state) => {
        for (const key of new URLSearchParams(encodePermalink(state)).keys())
          expect(PERMALINK_KEYS).toContain(key);
      }),
      { numRuns: 200 },
    );
  });

  it('carries the request shown (rq, 1-based as --request N) and the diff view (d)', () => {
    const s = structuredClone(DEFAULT_PERMALINK_STATE);
    s.view.request = 1;
    s.view.diff = { kind: 'requests', left: 0, right: 2 };
    const f = encodePermalink(s);
    expect(f).toBe('v=1&rq=2&d=1.3');
    expect(decodePermalink(f)).toEqual({ state: s, notices: [] });
    expect(decodePermalink('#v=1&d=prev').state.view.diff).toEqual({ kind: 'previous' });
    expect(decodePermalink('#v=1&d=cuts&b=900').state.view.diff).toEqual({ kind: 'cuts' });
    for (const bad of ['rq=0', 'rq=-1', 'rq=x', 'd=0.2', 'd=left', 'd=1.']) {
      const { state, notices } = decodePermalink(`#v=1&${bad}`);
      expect(state.view.request).toBeNull();
      expect(state.view.diff).toBeNull();
      expect(notices.map((n) => n.key)).toEqual([bad.split('=')[0]]);
    }
  });

  it('rejects sample ids that leave the samples folder', () => {
    for (const bad of [
      '../secret.json',
      'samples/../../x',
      'https://evil.example/x.json',
      '/etc/passwd',
    ]) {
      const { state, notices } = decodePermalink(`v=1&src=${encodeURIComponent(bad)}`);
      expect(state.source).toEqual({ kind: 'none' });
      expect(notices).toHaveLength(1);
    }
  });

  it('carries applied faults in `fx` and falls back to none with a notice on a bad list', () => {
    const faults: FaultSpec[] = [
      { kind: 'timeout', pairKey: 'p0' },
      { kind: 'cancel', messageIndex: 5, userText: 'Stop & do X' },
      { kind: 'truncate', count: 2 },
    ];
    const view = { ...DEFAULT_PERMALINK_STATE.view, faults };
    const frag = encodePermalink({ source: { kind: 'sample', id: 'coding-agent' }, view });
    expect(frag).toMatch(/&fx=1%3Atp0%2Cc5\.[A-Za-z0-9_-]+%2Cn2$/);
    expect(decodePermalink(frag)).toEqual({
      state: { source: { kind: 'sample', id: 'coding-agent' }, view },
      notices: [],
    });
    // No faults: no key at all.
    expect(encodePermalink(DEFAULT_PERMALINK_STATE)).not.toContain('fx');
    for (const bad of ['tp0', '2:tp0', '1:', '1:tq0', '1:n0', '1:tp0,,n1', '1:c1.%%', '1:x1']) {
      const r = decodePermalink(`v=1&b=10&fx=${encodeURIComponent(bad)}`);
      expect(r.state.view.faults, bad).toEqual([]);
      expect(r.state.view.budget).toBe(10);
      expect(
        r.notices.map((n) => n.key),
        bad,
      ).toEqual(['fx']);
    }
    const tooMany = `1:${Array.from({ length: 51 }, () => 'n1').join(',')}`;
    expect(decodePermalink(`fx=${tooMany}`).notices.map((n) => n.key)).toEqual(['fx']);
  });

  it('a view-only link names the transcript it was made for (n=), and refuses a bad name', () => {
    const state: PermalinkState = {
      ...DEFAULT_PERMALINK_STATE,
      source: { kind: 'none', name: 'cc 100k.jsonl' },
      view: { ...DEFAULT_PERMALINK_STATE.view, budget: 5_000_000 },
    };
    const frag = encodePermalink(state);
    expect(frag).toBe('v=1&n=cc+100k.jsonl&b=5000000');
    expect(decodePermalink(frag)).toEqual({ state, notices: [] });
    for (const bad of ['../etc/passwd', 'a\\b', 'x'.repeat(201), '\u0001a']) {
      const r = decodePermalink(`v=1&b=7&n=${encodeURIComponent(bad)}`);
      expect(r.state.source, bad).toEqual({ kind: 'none' });
      expect(r.state.view.budget).toBe(7);
      expect(r.notices.map((n) => n.key)).toEqual(['n']);
    }
    // A name is only for a link without a transcript: a sample wins, silently.
    expect(decodePermalink('v=1&src=invoice&n=a.jsonl').state.source).toEqual({
      kind: 'sample',
      id: 'invoice',
    });
  });
});
