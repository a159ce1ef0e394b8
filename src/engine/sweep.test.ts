import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { generate } from '../../scripts/gen.ts';
import { analyze } from '../model/analyze.ts';
import { cutMarkers } from '../model/evict/cuts.ts';
import { POLICIES, prepareEviction } from '../model/evict/policies.ts';
import { groupExchanges } from '../model/exchanges.ts';
import { sweepContext, sweepPolicy, type PolicySweep } from '../model/evict/sweep.ts';
import type { PolicyOptions } from '../model/evict/types.ts';
import type { TokenTable } from '../model/tokens.ts';
import type { Transcript } from '../model/types.ts';
import {
  adoptCutMarkers,
  adoptEvictionParts,
  adoptSweep,
  selectEvictionContext,
  selectPolicyChoices,
  requestSweep,
  selectCutMarkers,
  selectSweep,
  setSweepSource,
  sweepOptions,
  sweepsVersion,
  SWEEP_PENDING,
} from '../state/eviction.ts';
import { WORKER_EVICTION_MIN, unpackEvictionParts } from './evictionParts.ts';
import { joinLists, joinTranscript } from './pack.ts';
import { unpackLists } from './packLists.ts';
import { unpackMessages } from './packMessages.ts';
import type { WorkerResponse } from './protocol.ts';
import { resetRun, runRequest, runSweep } from './run.ts';

type SweepMsg = Extract<WorkerResponse, { kind: 'sweep' }>;

/** What the page receives: a structured clone with the message's transfer list. */
function posted(): {
  posts: WorkerResponse[];
  post: (m: WorkerResponse, tr?: Transferable[]) => void;
} {
  const posts: WorkerResponse[] = [];
  return {
    posts,
    post: (m, tr = []) => {
      posts.push(structuredClone(m, { transfer: tr }));
    },
  };
}

/** Run a long generated transcript through the worker loop; the page's view of the answer. */
async function longAnswer(bpe: boolean) {
  resetRun();
  const text = generate({
    format: 'anthropic-messages',
    seed: 11,
    messages: WORKER_EVICTION_MIN + 300,
    broken: 3,
  });
  const { posts, post } = posted();
  await runRequest(
    { id: 1, req: { text, name: 'long.json', format: null, provider: null }, bpe },
    post,
  );
  const res = posts.find((m) => m.kind === 'result');
  if (res?.kind !== 'result' || !res.tokens || res.tableSeq === undefined)
    throw new Error('no result with a token table');
  const messages = posts.flatMap((m) => (m.kind === 'messages' ? unpackMessages(m.messages) : []));
  // The pairs and exchanges came in batches before the answer (`lists`).
  expect(res.lists).toBe(true);
  const lists = posts.flatMap((m) => (m.kind === 'lists' ? [unpackLists(m.lists)] : []));
  const pairs = lists.flatMap((l) => l.pairs);
  const exchanges = lists.flatMap((l) => l.exchanges);
  const usage = lists.flatMap((l) => l.usage);
  const insp = joinTranscript(
    joinLists(res.result, pairs, exchanges, usage),
    messages,
    { text, name: 'long.json', format: null },
    null,
  );
  if (!insp.ok) throw new Error('no analysis');
  const direct = analyze(insp.analysis.transcript, insp.analysis.provider);
  expect(insp.analysis.pairs).toEqual(direct.pairs);
  expect(insp.analysis.grouping).toEqual(direct.grouping);
  return { posts, post, res, t: insp.analysis.transcript, provider: insp.analysis.provider };
}

/** The reference: each policy swept with its options over a context prepared on the page. */
function reference(
  t: Transcript,
  table: TokenTable,
  provider: Parameters<typeof prepareEviction>[2],
  options: readonly PolicyOptions[],
): PolicySweep[] {
  const ctx = prepareEviction(t, table, provider);
  return POLICIES.map((p, i) => sweepPolicy(ctx, p, options[i] ?? {}));
}

const sweepsOf = (posts: WorkerResponse[], seq: number): SweepMsg[] =>
  posts.filter((m): m is SweepMsg => m.kind === 'sweep' && m.tableSeq === seq);

describe('the sweep computed in the worker', { timeout: 30_000 }, () => {
  it('follows the eviction parts unasked and equals sweepContext on the same transcript and table', async () => {
    const { posts, res, t, provider } = await longAnswer(false);
    const seq = res.tableSeq as number;
    const tokens = res.tokens as TokenTable;
    const [msg, ...more] = sweepsOf(posts, seq);
    expect(more).toEqual([]);
    if (!msg?.sweeps) throw new Error('no sweep posted');
    expect(msg.provider).toBe(provider);
    expect(msg.options).toEqual(POLICIES.map(() => ({})));
    const ref = sweepContext(prepareEviction(t, tokens, provider));
    expect(msg.sweeps).toEqual(ref.policies);
    // The sample has 400s to find (a sweep of all-valid cuts would prove less).
    expect(ref.policies.some((p) => p.share400 > 0)).toBe(true);
  });

  it('answers a request with other options (property: any options, same as sweepPolicy)', async () => {
    const { posts, post, res, t, provider } = await longAnswer(false);
    const seq = res.tableSeq as number;
    const tokens = res.tokens as TokenTable;
    const refCtx = prepareEviction(t, tokens, provider);
    const arbOptions: fc.Arbitrary<PolicyOptions> = fc.record(
      {
        pinFirst: fc.constant(true),
        keepNewestExchanges: fc.integer({ min: 1, max: 40 }),
        summaryTokens: fc.integer({ min: 0, max: 5000 }),
      },
      { requiredKeys: [] },
    );
    await fc.assert(
      fc.asyncProperty(fc.array(arbOptions, { minLength: 5, maxLength: 5 }), async (options) => {
        const before = posts.length;
        runSweep({ kind: 'sweep', parseId: res.parseId, provider, tableSeq: seq, options }, post);
        const got = posts.slice(before);
        expect(got).toHaveLength(1);
        const m = got[0];
        if (m?.kind !== 'sweep' || !m.sweeps) throw new Error('no sweep answer');
        expect(m.options).toEqual(options);
        // The reference context is prepared once (plans are cached per options inside it).
        expect(m.sweeps).toEqual(POLICIES.map((p, i) => sweepPolicy(refCtx, p, options[i] ?? {})));
      }),
      { numRuns: 8 },
    );
  }, 60_000);

  it('ignores a request for another parse, provider or table', async () => {
    const { posts, post, res, provider } = await longAnswer(false);
    const seq = res.tableSeq as number;
    const options = POLICIES.map(() => ({}));
    const before = posts.length;
    runSweep({ kind: 'sweep', parseId: res.parseId + 1, provider, tableSeq: seq, options }, post);
    runSweep(
      { kind: 'sweep', parseId: res.parseId, provider: 'gemini', tableSeq: seq, options },
      post,
    );
    runSweep({ kind: 'sweep', parseId: res.parseId, provider, tableSeq: seq + 99, options }, post);
    expect(posts.length).toBe(before);
  });

  it('sweeps the exact token table when it arrives, with the options last asked for', async () => {
    resetRun();
    const { posts, post, res, t, provider } = await longAnswer(false);
    const options: PolicyOptions[] = POLICIES.map((p) =>
      p === 'summary' ? { summaryTokens: 100 } : {},
    );
    runSweep(
      { kind: 'sweep', parseId: res.parseId, provider, tableSeq: res.tableSeq as number, options },
      post,
    );
    // Same text again with the BPE: the worker reuses the parse and counts exactly.
    const text = generate({
      format: 'anthropic-messages',
      seed: 11,
      messages: WORKER_EVICTION_MIN + 300,
      broken: 3,
    });
    await runRequest(
      { id: 2, req: { text, name: 'long.json', format: null, provider: null } },
      post,
    );
    const exact = posts.find((m) => m.kind === 'tokens');
    if (exact?.kind !== 'tokens') throw new Error('no exact token table');
    expect(exact.tokens.basis.encoding).toBe('o200k_base');
    expect(exact.tokens.total).not.toBe((res.tokens as TokenTable).total);
    const [msg] = sweepsOf(posts, exact.tableSeq);
    if (!msg?.sweeps) throw new Error('no sweep of the exact table');
    expect(msg.options).toEqual(options);
    expect(msg.sweeps).toEqual(reference(t, exact.tokens, provider, options));
  }, 60_000);

  it('adopted on the page, selectSweep answers the worker sweep, equal to its own', async () => {
    const { posts, res, t, provider } = await longAnswer(false);
    const ev = posts.find((m) => m.kind === 'eviction');
    if (ev?.kind !== 'eviction' || !ev.parts) throw new Error('no eviction parts');
    adoptEvictionParts(t, provider, unpackEvictionParts(ev.parts, t));
    const tokens = res.tokens as TokenTable;
    const ctx = selectEvictionContext(t, tokens, provider);
    const choices = selectPolicyChoices(['message', 'exchange'], {});
    // The cut markers came with the parts (classified in the worker): the same as on the page.
    if (!ev.safe) throw new Error('no cut markers with the parts');
    expect(ev.safe).toEqual(cutMarkers(ctx.cuts).safe);
    expect(ev.parts.grouping).toBeUndefined();
    expect(ctx.grouping).toEqual(groupExchanges(t.messages));
    adoptCutMarkers(ctx.cuts, ev.safe);
    const markers = selectCutMarkers(ctx.cuts);
    const ref = cutMarkers(prepareEviction(t, tokens, provider).cuts);
    for (let k = 0; k <= ctx.cuts.n; k += 7) {
      expect(markers.isSafe(k)).toBe(ref.safe[k] === 1);
      if (k % 49 === 0) expect(markers.errorAt(k)).toEqual(ref.errorAt(k));
    }
    const local = selectSweep(ctx, choices, -1);
    const [msg] = sweepsOf(posts, res.tableSeq as number);
    if (!msg?.sweeps) throw new Error('no sweep posted');
    adoptSweep(tokens, provider, sweepOptions(choices), msg.sweeps);
    const page = selectSweep(ctx, choices, sweepsVersion());
    expect(page).toBe(msg.sweeps);
    expect(page).toEqual(local);
  });

  it('pending while the worker holds the table: requestSweep asks it, the answer replaces pending', async () => {
    const { posts, post, res, t, provider } = await longAnswer(false);
    const ev = posts.find((m) => m.kind === 'eviction');
    if (ev?.kind !== 'eviction' || !ev.parts) throw new Error('no eviction parts');
    adoptEvictionParts(t, provider, unpackEvictionParts(ev.parts, t));
    const tokens = res.tokens as TokenTable;
    const ctx = selectEvictionContext(t, tokens, provider);
    const choices = selectPolicyChoices(['message', 'summary'], { summary: { summaryTokens: 7 } });
    const asked: PolicyOptions[][] = [];
    setSweepSource({
      has: (table) => table === tokens,
      request: (_table, p, options) => {
        asked.push(options);
        runSweep(
          {
            kind: 'sweep',
            parseId: res.parseId,
            provider: p,
            tableSeq: res.tableSeq as number,
            options,
          },
          post,
        );
      },
    });
    try {
      expect(selectSweep(ctx, choices, sweepsVersion())).toBe(SWEEP_PENDING);
      requestSweep(ctx, choices);
      expect(asked).toEqual([sweepOptions(choices)]);
      const answer = posts[posts.length - 1];
      if (answer?.kind !== 'sweep' || !answer.sweeps) throw new Error('no answer');
      adoptSweep(tokens, answer.provider, answer.options, answer.sweeps);
      const got = selectSweep(ctx, choices, sweepsVersion());
      expect(got).toBe(answer.sweeps);
      expect(got).toEqual(reference(t, tokens, provider, sweepOptions(choices)));
      // Once there, it is not asked for again.
      requestSweep(ctx, choices);
      expect(asked).toHaveLength(1);
    } finally {
      setSweepSource(null);
    }
    // Without a source the page sweeps itself.
    const other = selectPolicyChoices(['exchange', 'summary'], {});
    expect(selectSweep(ctx, other, sweepsVersion())).toEqual(
      reference(t, tokens, provider, sweepOptions(other)),
    );
  });
});
