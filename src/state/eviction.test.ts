import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { analyze } from '../model/analyze.ts';
import { cutMarkers } from '../model/evict/cuts.ts';
import { pairEviction } from '../model/evict/evicted.ts';
import { applyFault, reindexForView } from '../model/faults.ts';
import { INVOICE_ANTHROPIC, load } from '../model/testing/faults.fixtures.ts';
import { cutPlan, POLICIES, prepareEviction } from '../model/evict/policies.ts';
import { parseTranscript } from '../model/parse/index.ts';
import { assistant, call, result, system, transcript, user } from '../model/testing/index.ts';
import { CHARS_PER_4, countTokens } from '../model/tokens.ts';
import {
  adoptCutMarkers,
  effectiveBudget,
  evictedCount,
  EDITED_PRIMARY,
  EVICTED_COMPARED,
  EVICTED_PRIMARY,
  readPolicyOptions,
  selectCutMarkers,
  selectEvictedFlags,
  selectEvictedPairs,
  selectEviction,
  selectEvictionContext,
  selectPolicyChoices,
  selectSweep,
  SWEEP_PENDING,
  SLOW_PATH_LIMIT,
} from './eviction.ts';
import { selectArcPairs, selectTokens } from './selectors.ts';

const repoRoot = path.resolve(import.meta.dirname, '../..');
const samplePath = (f: string) => path.join(repoRoot, 'public/samples', f);

// the first exchange; a message-level cut between call and result orphans the result (A1).
const TRIM = transcript('anthropic-messages', [
  system('You are a billing assistant.'),
  user('Look up invoice 1042.'),
  assistant(call('toolu_1', 'get_invoice', { id: 1042 })),
  user(result('toolu_1', 'Invoice 1042: $1,200, paid.')),
  assistant('Invoice 1042 is paid.'),
  user('And 1043?'),
  assistant('Let me check.'),
]);

describe('eviction selectors', () => {
  const table = selectTokens(TRIM, 'anthropic', CHARS_PER_4);
  const ctx = selectEvictionContext(TRIM, table, 'anthropic');

  it('memoise by stage: context per transcript/table/provider, results per budget', () => {
    const again = selectEvictionContext(TRIM, table, 'anthropic');
    expect(selectEvictionContext(TRIM, table, 'anthropic')).toBe(again);
    expect(again.table).toBe(ctx.table);
    const choices = selectPolicyChoices(['message', 'exchange'], {});
    expect(selectPolicyChoices(['message', 'exchange'], {})).not.toBe(choices); // new options object
    const opts = {};
    const policies: [string, string] = ['message', 'exchange'];
    const c1 = selectPolicyChoices(policies, opts);
    expect(selectPolicyChoices(policies, opts)).toBe(c1);
    const v1 = selectEviction(ctx, c1, 30);
    expect(selectEviction(ctx, c1, 30)).toBe(v1);
    expect(selectEviction(ctx, c1, 29)).not.toBe(v1);
    expect(selectCutMarkers(ctx.cuts)).toBe(selectCutMarkers(ctx.cuts));
  });

  it('unknown policy ids fall back to message / exchange; options are read per policy', () => {
    const c = selectPolicyChoices(['lru', 'nope'], {
      message: { pinFirst: true },
      exchange: { keepNewestExchanges: 2, summaryTokens: null },
    });
    expect(c).toEqual([
      { id: 'message', options: { pinFirst: true } },
      { id: 'exchange', options: { keepNewestExchanges: 2 } },
    ]);
    expect(
      readPolicyOptions({ pinFirst: 'yes', keepNewestExchanges: -1, summaryTokens: 120.7 }),
    ).toEqual({ summaryTokens: 120 });
    expect(readPolicyOptions(null)).toEqual({});
  });

  it("clear-tool-results evicts nothing: the kept rows whose results it cleared are marked edited (newcomer: 'edited 26 results cleared', no row marked)", () => {
    const long = transcript(
      'anthropic-messages',
      Array.from({ length: 6 }, (_, k) => [
        user(`Step ${k}.`),
        assistant(call(`toolu_${k}`, 'read', { k })),
        user(result(`toolu_${k}`, `a long result ${'x'.repeat(400)} ${k}`)),
        assistant(`Done ${k}.`),
      ]).flat(),
    );
    const t = selectTokens(long, 'anthropic', CHARS_PER_4);
    const c = selectEvictionContext(long, t, 'anthropic');
    const choices = selectPolicyChoices(['clear-tool-results', 'message'], {});
    const v = selectEviction(c, choices, Math.round(t.total * 0.6));
    const [ctr] = v.results;
    expect(ctr.evicted).toEqual([]);
    const cleared = new Set((ctr.edits ?? []).map((e) => e.index));
    expect(cleared.size).toBeGreaterThan(0);
    const flags = selectEvictedFlags(c, choices, v);
    flags.forEach((f, i) => {
      expect(f & EVICTED_PRIMARY, `#${i}`).toBe(0);
      expect((f & EDITED_PRIMARY) !== 0, `#${i}`).toBe(cleared.has(i));
    });
    expect(selectEvictedFlags(c, choices, v)).toBe(flags);
    // A policy that evicts marks nothing edited.
    const m = selectPolicyChoices(['message', 'exchange'], {});
    const mv = selectEviction(c, m, Math.round(t.total * 0.6));
    expect(Array.from(selectEvictedFlags(c, m, mv)).some((f) => f & EDITED_PRIMARY)).toBe(false);
  });

  it('no budget chosen: the total, nothing evicted, nothing greyed', () => {
    const choices = selectPolicyChoices(['message', 'exchange'], {});
    const v = selectEviction(ctx, choices, null);
    expect(v.budget).toBe(table.total);
    expect(v.active).toBe(false);
    expect(v.results.map((r) => r.evicted)).toEqual([[], []]);
    expect(Array.from(selectEvictedFlags(ctx, choices, v))).toEqual(
      new Array(TRIM.messages.length).fill(0),
    );
    expect(effectiveBudget(-5, 100)).toBe(0);
    expect(effectiveBudget(500, 100)).toBe(100);
  });

  it('at the budget that drops exactly the call: message gives A1 with the result orphaned, exchange stays valid', () => {
    const choices = selectPolicyChoices(['message', 'exchange'], {});
    // The budget that keeps everything from the tool_result on (message 3), system pinned.
    const keepFrom3 =
      table.total - (table.perMessage[1] as number) - (table.perMessage[2] as number);
    const v = selectEviction(ctx, choices, keepFrom3);
    const [msg, ex] = v.results;
    expect(msg.evicted).toEqual([1, 2]);
    expect(msg.validation.valid).toBe(false);
    expect(msg.firstError?.code).toBe('A1');
    expect(msg.firstError?.index).toBe(3);
    expect(ex.validation.valid).toBe(true);
    expect(ex.evicted).toEqual([1, 2, 3, 4]);
    expect(ex.overshoot).toBeGreaterThan(1);

    const flags = selectEvictedFlags(ctx, choices, v);
    expect(Array.from(flags)).toEqual([
      0,
      EVICTED_PRIMARY | EVICTED_COMPARED,
      EVICTED_PRIMARY | EVICTED_COMPARED,
      EVICTED_COMPARED,
      EVICTED_COMPARED,
      0,
      0,
    ]);
    const a = analyze(TRIM, 'anthropic');
    const pairs = selectEvictedPairs(selectArcPairs(a), flags);
    expect(pairs.state.get('p0')).toBe('cut');
    expect(pairs.pairs[0]?.status).toBe('orphan');
    // The arc was answered before the eviction.
    expect(selectArcPairs(a)[0]?.status).toBe('answered');
  });

  it('the flags are the same array while the slider stays on the same cut, a new one when it moves', () => {
    const choices = selectPolicyChoices(['message', 'exchange'], {});
    const f1 = selectEvictedFlags(ctx, choices, selectEviction(ctx, choices, table.total - 1));
    const f2 = selectEvictedFlags(ctx, choices, selectEviction(ctx, choices, table.total - 2));
    expect(f2).toBe(f1);
    const f3 = selectEvictedFlags(ctx, choices, selectEviction(ctx, choices, 10));
    expect(f3).not.toBe(f1);
  });

  it('both ends evicted: the pair is gone, not red; result evicted alone: unanswered', () => {
    const a = analyze(TRIM, 'anthropic');
    const both = new Uint8Array([0, 1, 1, 1, 0, 0, 0]);
    expect(selectEvictedPairs(selectArcPairs(a), both).state.get('p0')).toBe('gone');
    expect(selectEvictedPairs(selectArcPairs(a), both).pairs[0]?.status).toBe('answered');
    const resultOnly = new Uint8Array([0, 0, 0, 1, 0, 0, 0]);
    expect(selectEvictedPairs(selectArcPairs(a), resultOnly).pairs[0]?.status).toBe('unanswered');
  });

  it('property: flags agree with the results and pair status with the kept request', () => {
    const a = analyze(TRIM, 'anthropic');
    const choices = selectPolicyChoices(['message-keep-task', 'turn-pair'], {});
    fc.assert(
      fc.property(fc.integer({ min: 0, max: table.total }), (budget) => {
        const v = selectEviction(ctx, choices, budget);
        const flags = selectEvictedFlags(ctx, choices, v);
        expect(evictedCount(ctx, choices[0], v.results[0].cut)).toBe(v.results[0].evicted.length);
        expect(evictedCount(ctx, choices[1], v.results[1].cut)).toBe(v.results[1].evicted.length);
        for (let i = 0; i < TRIM.messages.length; i++) {
          expect(((flags[i] as number) & EVICTED_PRIMARY) !== 0).toBe(
            v.results[0].evicted.includes(i),
          );
          expect(((flags[i] as number) & EVICTED_COMPARED) !== 0).toBe(
            v.results[1].evicted.includes(i),
          );
        }
        const pairs = selectEvictedPairs(selectArcPairs(a), flags);
        for (const p of pairs.pairs) {
          const keptCall = p.call !== null && !v.results[0].evicted.includes(p.call.message);
          const keptResult = p.result !== null && !v.results[0].evicted.includes(p.result.message);
          if (keptCall !== keptResult) expect(p.status).not.toBe('answered');
        }
        // Each pair's state by key, as the flags give it (`undefined` for kept).
        for (const p of selectArcPairs(a)) {
          const s = pairEviction(p, flags, EVICTED_PRIMARY);
          expect(pairs.state.get(p.key)).toBe(s === 'kept' ? undefined : s);
        }
      }),
      { numRuns: 60 },
    );
  });

  it('sweep covers every policy, with the shown options, and exchange never gives a 400 here', () => {
    const choices = selectPolicyChoices(['message', 'summary'], { summary: { summaryTokens: 5 } });
    const s = selectSweep(ctx, choices);
    if (!s || s === SWEEP_PENDING)
      throw new Error('the page skipped the sweep of a short transcript');
    expect(s.map((p) => p.policy)).toEqual([
      'message',
      'message-keep-task',
      'exchange',
      'turn-pair',
      'summary',
      'clear-tool-results',
      'provider-compaction',
      'ai-sdk-prune',
      'langchain-trim',
    ]);
    expect(s.find((p) => p.policy === 'exchange')?.share400).toBe(0);
    expect(s.find((p) => p.policy === 'clear-tool-results')?.share400).toBe(0);
    expect(s.find((p) => p.policy === 'message')?.invalidCuts).toContain(3);
    expect(s[4]?.cuts).toBe(cutPlan(ctx, 'summary', { summaryTokens: 5 }).cuts);
  });

  it('cut markers: exchange boundaries are safe, the cut between call and result is not', () => {
    const m = selectCutMarkers(ctx.cuts);
    expect(m.eager).toBe(true);
    expect(m.isSafe(1)).toBe(true);
    expect(m.isSafe(5)).toBe(true);
    expect(m.isSafe(3)).toBe(false);
    expect(m.errorAt(3)?.code).toBe('A1');
    expect(m.errorAt(5)).toBeNull();
  });

  it('a provider without the fast cut path on a long transcript: markers on demand agree with cutMarkers, no page sweep', () => {
    const ms = [];
    for (let i = 0; i < 80; i++)
      ms.push(
        user(`q${i}`),
        assistant(call(`t${i}`, 'f')),
        user(result(`t${i}`)),
        assistant(`a${i}`),
      );
    const long = transcript('anthropic-messages', ms);
    expect(long.messages.length).toBeGreaterThan(SLOW_PATH_LIMIT);
    const lt = countTokens(long, 'gemini');
    const lctx = prepareEviction(long, lt, 'gemini');
    expect(lctx.cuts.fast).toBe(false);
    const lazy = selectCutMarkers(lctx.cuts);
    expect(lazy.eager).toBe(false);
    const eager = cutMarkers(lctx.cuts);
    for (const k of [1, 2, 3, 4, 5, 100, 101, 102, 318]) {
      expect(lazy.isSafe(k)).toBe(eager.safe[k] === 1);
      expect(lazy.errorAt(k)).toEqual(eager.errorAt(k));
    }
    expect(selectSweep(lctx, selectPolicyChoices(['message', 'exchange'], {}))).toBeNull();
  });

  it('never throws on degenerate transcripts: no messages, only a system message, one user message', () => {
    for (const t of [
      transcript('anthropic-messages', []),
      transcript('openai-chat', [system('Be brief.')]),
      transcript('openai-chat', [user('Hi')]),
    ]) {
      const tb = countTokens(t, 'openai-chat');
      const c = prepareEviction(t, tb, 'openai-chat');
      const choices = selectPolicyChoices(['summary', 'turn-pair'], {});
      for (const b of [null, 0, 1, tb.total]) {
        const v = selectEviction(c, choices, b);
        const flags = selectEvictedFlags(c, choices, v);
        expect(flags.length).toBe(t.messages.length);
        expect(evictedCount(c, choices[0], v.results[0].cut)).toBe(v.results[0].evicted.length);
      }
      const m = selectCutMarkers(c.cuts);
      for (let k = 0; k <= t.messages.length; k++) expect(typeof m.isSafe(k)).toBe('boolean');
      expect(selectSweep(c, choices)?.length).toBe(POLICIES.length);
    }
  });

  it('parses a real sample without throwing; our index is the position of each message (Violation.index finds rows by it)', () => {
    const p = parseTranscript(readFileSync(samplePath('invoice.json'), 'utf8'));
    if (!p.ok) throw new Error('invoice does not parse');
    const t = p.value.transcript;
    expect(t.messages.map((m) => m.index)).toEqual(t.messages.map((_, i) => i));
  });
});

describe('cut marker errors name the cause by our index', () => {
  it('after a retry fault, eager and adopted (worker) markers give the copy (#6), not raw index 5', () => {
    const r = applyFault(load(INVOICE_ANTHROPIC), { kind: 'retry', messageIndex: 5 });
    if (!r.ok) throw new Error(r.error);
    const t = reindexForView(r.value.transcript);
    const fresh = () => prepareEviction(t, countTokens(t, 'anthropic'), 'anthropic').cuts;
    const eager = selectCutMarkers(fresh());
    const adoptedCuts = fresh();
    adoptCutMarkers(adoptedCuts, cutMarkers(adoptedCuts).safe);
    const adopted = selectCutMarkers(adoptedCuts);
    for (const m of [eager, adopted]) {
      expect(m.errorAt(0)).toMatchObject({ code: 'A6', messageIndex: 5, index: 6 });
    }
  });
});
