import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { generate, type GenFormat } from '../../scripts/gen.ts';
import { analyze } from '../model/analyze.ts';
import { VALIDATORS } from '../model/validate/index.ts';
import { cutMarkers } from '../model/evict/cuts.ts';
import { POLICIES, prepareEviction, simulatePolicy } from '../model/evict/policies.ts';
import { sweepPolicy } from '../model/evict/sweep.ts';
import { parseTranscript } from '../model/parse/index.ts';
import { arbTranscript } from '../model/testing/index.ts';
import { countTokens } from '../model/tokens.ts';
import type { Transcript } from '../model/types.ts';
import { adoptEvictionParts, selectEvictionContext } from '../state/eviction.ts';
import { joinTranscript } from './pack.ts';
import { unpackMessages } from './packMessages.ts';
import type { WorkerResponse } from './protocol.ts';
import { resetRun, runRequest } from './run.ts';
import { assembleEviction, prepareEvictionParts } from '../model/evict/prepare.ts';
import { WORKER_EVICTION_MIN, packEvictionParts, unpackEvictionParts } from './evictionParts.ts';

/** The parts as the page receives them: packed, structured-cloned with the transfer list, unpacked. */
function viaPost(t: Transcript, provider: Parameters<typeof prepareEvictionParts>[1]) {
  const { packed, transfer } = packEvictionParts(prepareEvictionParts(t, provider));
  expect(transfer.length).toBeGreaterThan(3);
  const cloned = structuredClone(packed, { transfer });
  return unpackEvictionParts(cloned, t);
}

/** Everything the simulator reads from a context, for a few budgets. */
function readings(ctx: ReturnType<typeof prepareEviction>) {
  const total = ctx.table.total;
  const budgets = [
    total,
    Math.round(total * 0.8),
    Math.round(total * 0.5),
    Math.round(total * 0.2),
    0,
  ];
  const markers = cutMarkers(ctx.cuts);
  return {
    safe: Array.from(markers.safe),
    results: POLICIES.flatMap((id) =>
      budgets.map((b) => {
        const r = simulatePolicy(ctx, id, b);
        return {
          id,
          b,
          cut: r.cut,
          kept: r.tokensKept,
          freed: r.freed,
          evicted: r.evicted.length,
          valid: r.validation.valid,
          errors: r.validation.violations.map((v) => v.message),
        };
      }),
    ),
    sweeps: POLICIES.map((id) => {
      const s = sweepPolicy(ctx, id);
      return { id, share400: s.share400, invalidBudgets: s.invalidBudgets, minBudget: s.minBudget };
    }),
  };
}

describe('eviction parts (prepared in the worker, adopted on the page)', () => {
  const cases: [GenFormat, number][] = [
    ['anthropic-messages', 2500],
    ['openai-chat', 2500],
    ['claude-code-jsonl', 1500],
  ];
  for (const [format, messages] of cases) {
    it(`${format}: parts + token table equal prepareEviction, after a structured-clone round trip too`, () => {
      const text = generate({ format, seed: 3, messages, broken: 3 });
      const p = parseTranscript(text, { format });
      if (!p.ok) throw new Error('generated file does not parse');
      const a = analyze(p.value.transcript);
      const t = a.transcript;
      const table = countTokens(t, a.provider);
      const ref = prepareEviction(t, table, a.provider);
      expect(assembleEviction(prepareEvictionParts(t, a.provider), t, table)).toEqual(ref);
      const page = assembleEviction(viaPost(t, a.provider), t, table);
      expect(page.cuts.t).toBe(t);
      expect(ref.cuts.fast).toBe(true);
      expect(page.cuts.fast).toBe(true);
      const want = readings(ref);
      expect(want.results.some((r) => !r.valid)).toBe(true);
      expect(readings(page)).toEqual(want);
    });
  }

  it('a second token table reuses the parts: same readings as a fresh prepareEviction', () => {
    fc.assert(
      fc.property(arbTranscript('anthropic-messages'), fc.integer({ min: 1, max: 5 }), (t, k) => {
        const parts = viaPost(t, 'anthropic');
        const quick = countTokens(t, 'anthropic');
        const scaled = { ...quick, perMessage: quick.perMessage.map((x) => x * k) };
        let s = 0;
        const prefix = new Float64Array(scaled.perMessage.length + 1);
        scaled.perMessage.forEach((x, i) => (prefix[i + 1] = s += x));
        const table = { ...scaled, prefix, total: quick.system + s };
        const ref = prepareEviction(t, table, 'anthropic');
        const page = assembleEviction(parts, t, table);
        expect(Array.from(page.npPrefix)).toEqual(Array.from(ref.npPrefix));
        expect(page.pinnedTokens).toBe(ref.pinnedTokens);
        expect(readings(page)).toEqual(readings(ref));
      }),
      { numRuns: 40 },
    );
  });
});

describe('worker → page', () => {
  it('a long transcript: the answer says eviction parts follow, they come next, and the page adopts them', async () => {
    resetRun();
    const text = generate({
      format: 'anthropic-messages',
      seed: 5,
      messages: WORKER_EVICTION_MIN + 200,
      broken: 2,
    });
    const posts: WorkerResponse[] = [];
    await runRequest(
      { id: 1, req: { text, name: 'big.json', format: null, provider: null }, bpe: false },
      (m) => {
        posts.push(m);
      },
    );
    const ri = posts.findIndex((m) => m.kind === 'result');
    const res = posts[ri];
    const ev = posts[ri + 1];
    if (res?.kind !== 'result' || ev?.kind !== 'eviction')
      throw new Error('expected result then eviction');
    expect(res.evictionFollows).toBe(true);
    const messages = posts.flatMap((m) =>
      m.kind === 'messages' ? unpackMessages(m.messages) : [],
    );
    const insp = joinTranscript(
      res.result,
      messages,
      { text, name: 'big.json', format: null },
      null,
    );
    if (!insp.ok || !ev.parts || !res.tokens) throw new Error('no answer');
    const t = insp.analysis.transcript;
    const parts = unpackEvictionParts(structuredClone(ev.parts), t);
    adoptEvictionParts(t, ev.provider, parts);
    const ctx = selectEvictionContext(t, res.tokens, insp.analysis.provider);
    expect(ctx.cuts).toBe(parts.cuts);
    expect(readings(ctx)).toEqual(readings(prepareEviction(t, res.tokens, insp.analysis.provider)));
    // A better token table later: the same parts, new prefix sums.
    const exact = countTokens(t, insp.analysis.provider);
    const again = selectEvictionContext(t, exact, insp.analysis.provider);
    expect(again.cuts).toBe(parts.cuts);
    expect(readings(again)).toEqual(readings(prepareEviction(t, exact, insp.analysis.provider)));
  });

  it('a short transcript: no eviction message, the answer resolves at once', async () => {
    resetRun();
    const text = generate({ format: 'openai-chat', seed: 5, messages: 50 });
    const posts: WorkerResponse[] = [];
    await runRequest(
      { id: 2, req: { text, name: 'small.json', format: null, provider: null }, bpe: false },
      (m) => {
        posts.push(m);
      },
    );
    const res = posts.find((m) => m.kind === 'result');
    expect(res?.kind === 'result' && res.evictionFollows).toBeFalsy();
    expect(posts.some((m) => m.kind === 'eviction')).toBe(false);
  });

  it("reusing the analysis' validation and grouping gives the parts a fresh validation gives", () => {
    // The worker passes its analysis (validated with `uniqueToolUseIds` when pairing found no
    // duplicate id) instead of validating again: it must be the same validation.
    const formats = ['anthropic-messages', 'openai-chat'] as const;
    fc.assert(
      fc.property(
        fc.constantFrom(...formats).chain((f) => arbTranscript(f)),
        fc.constantFrom(...VALIDATORS.map((v) => v.id)),
        (t, provider) => {
          const a = analyze(t, provider);
          const known = { validation: a.validation, grouping: a.grouping };
          expect(prepareEvictionParts(t, provider, {}, known)).toEqual(
            prepareEvictionParts(t, provider),
          );
        },
      ),
      { numRuns: 150 },
    );
  });
});
