/**
 * Derived data of the eviction simulator (issue 4), never stored. Memoised by stage so that moving
 * the budget slider recomputes only the cheap per-budget part:
 *
 *   (transcript, provider)              → eviction parts      O(n) + a full validation, once per
 *                                         transcript/provider (in the worker for long transcripts)
 *   (parts, token table)                → EvictionContext     O(n) typed-array prefix sums, per counter
 *   (context)                           → cut markers         O(n × boundary window), once
 *   (context, policy choices)           → sweep               O(cuts × boundary window), once per choice
 *                                         (in the worker for long transcripts: `adoptSweep`)
 *   (context, policy choices, budget)   → two PolicyResults   O(log n + boundary window) per slider step
 *   (results' cuts)                     → per-message evicted flags and derived pair status, O(n),
 *                                         only when a cut point actually moves
 *
 * The store holds only what the user chose: `budget`, `policies` and `policyOptions` (keyed by
 * policy id, the shape `urlSync.ts` reads and writes).
 */
import {
  EDITED_PRIMARY,
  effectiveBudget,
  EVICTED_COMPARED,
  EVICTED_PRIMARY,
  markEvicted,
  pairAfterEviction,
  pairEviction,
  type PairEviction,
} from '../model/evict/evicted.ts';
import {
  cutPlan,
  prepareEviction,
  simulatePolicy,
  type EvictionContext,
  type PolicyResult,
} from '../model/evict/policies.ts';
import { assembleEviction, type EvictionParts } from '../model/evict/prepare.ts';
import { isPolicyId } from '../model/evict/registry.ts';
import type { BlockEdit, PolicyId, PolicyOptions } from '../model/evict/types.ts';
import type { ToolPair } from '../model/pairing.ts';
import type { TokenTable } from '../model/tokens.ts';
import type { ProviderId, Transcript } from '../model/types.ts';
import type { Analysis } from '../model/analyze.ts';
import type { PolicySweep } from '../model/evict/sweep.ts';
import { textsPending } from '../engine/client.ts';
import { selectArcPairs } from './pairs.ts';
import { selectCutMarkers, type MarkerLookup } from './cutMarkers.ts';
import type { SWEEP_PENDING } from './sweeps.ts';
import { selectSweep } from './sweeps.ts';
import { activeSession, memoN, memoWeak } from './session/index.ts';

export * from './cutMarkers.ts';
export * from './sweeps.ts';
export {
  effectiveBudget,
  evictedCount,
  EDITED_PRIMARY,
  EVICTED_COMPARED,
  EVICTED_PRIMARY,
  type PairEviction,
} from '../model/evict/evicted.ts';

/** A policy the simulator shows, with its options. */
export interface PolicyChoice {
  id: PolicyId;
  options: PolicyOptions;
}

/**
 * Read one policy's options from the store's free-form `policyOptions[id]` (as the permalink
 * writes them: `{pinFirst, keepNewestExchanges, summaryTokens, keepToolUses}`; null = the
 * policy's default). Anything else is ignored.
 */
export function readPolicyOptions(raw: unknown): PolicyOptions {
  const out: PolicyOptions = {};
  if (typeof raw !== 'object' || raw === null) return out;
  const o = raw as Record<string, unknown>;
  if (o.pinFirst === true) out.pinFirst = true;
  const k = o.keepNewestExchanges;
  if (typeof k === 'number' && Number.isInteger(k) && k > 0) out.keepNewestExchanges = k;
  const s = o.summaryTokens;
  if (typeof s === 'number' && Number.isFinite(s) && s >= 0) out.summaryTokens = Math.floor(s);
  const kt = o.keepToolUses;
  if (typeof kt === 'number' && Number.isInteger(kt) && kt >= 0) out.keepToolUses = kt;
  return out;
}

/**
 * The two compared policies from the store's `policies` and `policyOptions`. An unknown id falls
 * back to the default of its side (`message`, `exchange`). Same references in → same array out.
 */
export const selectPolicyChoices = memoN(
  (
    policies: readonly [string, string],
    policyOptions: Record<string, unknown>,
  ): [PolicyChoice, PolicyChoice] => {
    const a = isPolicyId(policies[0]) ? policies[0] : 'message';
    const b = isPolicyId(policies[1]) ? policies[1] : 'exchange';
    return [
      { id: a, options: readPolicyOptions(policyOptions[a]) },
      { id: b, options: readPolicyOptions(policyOptions[b]) },
    ];
  },
);

/**
 * Hand the page the token-independent eviction stage the worker prepared for a transcript it
 * holds (engine/evictionParts.ts; client.ts hands them to the session's sink right after the answer), so
 * `selectEvictionContext` does not validate the transcript again on the page's thread.
 * @param t the page's transcript (the one the answer carries)
 * @param provider the provider the parts were validated for
 * @param parts from `unpackEvictionParts(packed, t)`
 */
export function adoptEvictionParts(
  t: Transcript,
  provider: ProviderId,
  parts: EvictionParts,
): void {
  activeSession().sink.evictionParts(t, provider, parts, null);
}

/**
 * The EvictionContext (grouping, prefix sums, full validation, cut tables) of a transcript for a
 * token table and a provider, memoised on the three references. The O(n) validation stage is
 * token-independent: it comes from the worker when it prepared it (`adoptEvictionParts`), else it
 * is prepared here once per transcript and provider and kept by the session beside the worker's; a new token table (the exact count arriving
 * after the chars/4 one) only rebuilds the prefix sums (`assembleEviction`, ≈ 1 ms per 100,000
 * messages). Equal to `prepareEviction(t, table, provider)` (evictionParts.test.ts).
 *
 * Parts prepared while some messages' texts were still being read from a large file (issue 38:
 * their blocks read empty) are not kept: the memo is cleared when the texts come
 * (`sourceRead`), and the next call prepares them from the whole messages. Kept, they judged
 * every such message empty ([A10]) for the life of the transcript (`evictionReading`).
 */
export const selectEvictionContext = memoN(
  (t: Transcript, table: TokenTable, provider: ProviderId): EvictionContext => {
    const parts = activeSession().answers.evictionParts.get(t)?.get(provider);
    if (parts) return assembleEviction(parts, t, table);
    const ctx = prepareEviction(t, table, provider);
    if (!textsPending(t.messages)) adoptEvictionParts(t, provider, ctx);
    return ctx;
  },
);

/**
 * True while the page would prepare the analysis' eviction parts itself (the worker sent none)
 * but some of its messages' texts are still being read from the streamed file (issue 38,
 * engine/lazyMessage.ts): until then their blocks read empty, so the simulator would judge
 * them empty ([A10]) and its cuts, exchanges and pairs would miss their tool blocks, where the
 * verdict column (the worker's) and the CLI read them whole. Asks for every such text (one read);
 * `selectSimulator` answers null meanwhile. False when the worker prepares the parts (a long
 * transcript's follow its answer). O(messages) until the parts are kept, O(1) after.
 */
export function evictionReading(analysis: Analysis): boolean {
  const { transcript: t, provider } = analysis;
  const answers = activeSession().answers;
  if (answers.evictionParts.get(t)?.has(provider) === true) return false;
  // The worker prepares them from its whole records (`evictionPreparing`): reading every text
  // here would hold the whole file on the page (320 MiB for the 115 MB bench log).
  if (answers.evictionPending.get(t)?.has(provider) === true) return false;
  return textsPending(t.messages);
}

/**
 * True while the worker prepares the eviction parts of the analysis' transcript (they follow its
 * answer, issue 38) and they have not arrived: the simulator waits for them rather than
 * preparing them on the page's thread (`selectSimulator` answers null meanwhile).
 */
export function evictionPreparing(analysis: Analysis): boolean {
  const { transcript: t, provider } = analysis;
  const answers = activeSession().answers;
  return (
    answers.evictionPending.get(t)?.has(provider) === true &&
    answers.evictionParts.get(t)?.has(provider) !== true
  );
}

/**
 * One policy at one budget on a context, one slot: for a policy the simulator does not show (the
 * share panel's `exchange` alternative); a shown policy's result is `selectEviction`'s.
 */
export const selectPolicyAt = memoN(
  (ctx: EvictionContext, id: PolicyId, budget: number, options: PolicyOptions): PolicyResult =>
    simulatePolicy(ctx, id, budget, options),
);

/** The two policies' results at one budget. */
export interface EvictionView {
  /** Budget in tokens actually applied (see `effectiveBudget`). */
  budget: number;
  /** True when the user chose a budget (the timeline greys evicted rows only then). */
  active: boolean;
  results: [PolicyResult, PolicyResult];
}

/**
 * One slider step: both policies at the budget (O(log n + boundary window) each; the kept and
 * evicted lists of a result are built only when read).
 * @param ctx from `selectEvictionContext`
 * @param choices from `selectPolicyChoices`
 * @param budget the store's budget (tokens) or null
 */
export const selectEviction = memoN(
  (
    ctx: EvictionContext,
    choices: readonly [PolicyChoice, PolicyChoice],
    budget: number | null,
  ): EvictionView => {
    const b = effectiveBudget(budget, ctx.table.total);
    return {
      budget: b,
      active: budget !== null,
      results: [
        simulatePolicy(ctx, choices[0].id, b, choices[0].options),
        simulatePolicy(ctx, choices[1].id, b, choices[1].options),
      ],
    };
  },
);

/**
 * Which messages (ours) each policy evicts, as one Uint8Array of bit flags. Recomputed only when a
 * policy's cut point or plan changes, not on every slider step that keeps the same cut: O(cut)
 * typed-array writes from the cut, the pinned list and the plan's head (no index lists built).
 * @returns flags with `EVICTED_PRIMARY` / `EVICTED_COMPARED` bits, and `EDITED_PRIMARY` on the kept
 *   messages the primary (rewriting) policy cleared a block of; all zero when `view.active` is false
 */
export function selectEvictedFlags(
  ctx: EvictionContext,
  choices: readonly [PolicyChoice, PolicyChoice],
  view: EvictionView,
): Uint8Array {
  const [a, b] = view.results;
  const planA = cutPlan(ctx, choices[0].id, choices[0].options);
  const planB = cutPlan(ctx, choices[1].id, choices[1].options);
  // Plans are cached per context and options, so their identity plus the cut names the eviction.
  if (!view.active) return evictedFlags(ctx, null, -1, null, -1);
  const flags = evictedFlags(ctx, planA, a.cut, planB, b.cut);
  const edits = a.edits;
  return edits && edits.length > 0 ? editedFlags(flags, edits) : flags;
}

/** The flags with `EDITED_PRIMARY` on each message a block of which the primary policy edited. */
const editedFlags = memoN((flags: Uint8Array, edits: readonly BlockEdit[]): Uint8Array => {
  const out = flags.slice();
  for (const e of edits)
    if (e.index < out.length && !((out[e.index] as number) & EVICTED_PRIMARY))
      out[e.index] = (out[e.index] as number) | EDITED_PRIMARY;
  return out;
});

type Plan = ReturnType<typeof cutPlan>;

/** The flags of two plans cut at two points (none: nothing evicted), one slot. */
const evictedFlags = memoN(
  (ctx: EvictionContext, planA: Plan | null, cutA: number, planB: Plan | null, cutB: number) => {
    const flags = new Uint8Array(ctx.cuts.n);
    if (planA) markEvicted(ctx, flags, cutA, planA.head, EVICTED_PRIMARY, planA.rewrite);
    if (planB) markEvicted(ctx, flags, cutB, planB.head, EVICTED_COMPARED, planB.rewrite);
    return flags;
  },
);

/** Eviction state by pair key (a Map-like lookup: `gone` pairs are answered on demand). */
export interface PairStateLookup {
  get: (key: string) => PairEviction | undefined;
}

export interface EvictedPairs {
  /** The arc pairs with their status as the kept request has it: one end evicted → red. */
  pairs: ToolPair[];
  /** Per pair key: `cut` = exactly one end evicted (now broken), `gone` = both evicted. */
  state: PairStateLookup;
}

/** Position of each pair by key, per pairs array (built when first asked). */
const keyIndexOf = memoWeak(
  (pairs: readonly ToolPair[]): Map<string, number> => new Map(pairs.map((p, i) => [p.key, i])),
);

/**
 * Derived pair status for the primary policy: a pair whose call was evicted while its result
 * stays becomes an `orphan` (the provider sees a result without its call); a pair whose result was
 * evicted while its call stays becomes `unanswered`. Geometry (both ends) is unchanged, so the arc
 * turns red where it is. Pairs with both ends evicted are marked `gone` (drawn greyed).
 * @param pairs the arc pairs (`selectArcPairs`)
 * @param flags from `selectEvictedFlags`
 */
export const selectEvictedPairs = memoN(
  (pairs: readonly ToolPair[], flags: Uint8Array): EvictedPairs => {
    const stateOf = (p: ToolPair) => pairEviction(p, flags, EVICTED_PRIMARY);
    // Only pairs across the eviction boundary change; the rest keep their object (O(pairs) reads).
    const out = pairs.slice();
    const cut = new Map<string, PairEviction>();
    let anyGone = false;
    for (let i = 0; i < out.length; i++) {
      const p = out[i] as ToolPair;
      const s = stateOf(p);
      if (s === 'gone') anyGone = true;
      if (s !== 'cut') continue;
      cut.set(p.key, 'cut');
      out[i] = pairAfterEviction(p, flags, EVICTED_PRIMARY);
    }
    const state: PairStateLookup = {
      get: (key) => {
        const c = cut.get(key);
        if (c) return c;
        // Nothing gone (nothing evicted yet: a 100 MB log's first render, issue 38): every
        // other pair is kept, and the 30,000 keys' index (20–50 ms there) is not built.
        if (!anyGone) return undefined;
        const i = keyIndexOf(pairs).get(key);
        const p = i === undefined ? undefined : pairs[i];
        const s = p ? stateOf(p) : 'kept';
        return s === 'kept' ? undefined : s;
      },
    };
    return { pairs: out, state };
  },
);

export interface SimulatorModel {
  ctx: EvictionContext;
  choices: [PolicyChoice, PolicyChoice];
  view: EvictionView;
  /** Per message (ours): EVICTED_PRIMARY / EVICTED_COMPARED bits. */
  flags: Uint8Array;
  /** Arc pairs with the primary policy's derived status. */
  pairs: EvictedPairs;
  markers: MarkerLookup;
  /** The sweep of every policy (`selectSweep`): `SWEEP_PENDING` while the worker computes it. */
  sweeps: PolicySweep[] | typeof SWEEP_PENDING | null;
}

/**
 * Everything the simulator and the timeline need for the shown transcript at the store's choices,
 * from one call (the budget → cut-marker path goes through the state once): the context, the two
 * policies' results, the evicted flags and pairs, the cut markers and the sweep.
 * @param analysis the shown analysis (after faults), or null while loading
 * @param tokens its token table, or null
 * @param budget the store's budget (deferred by the caller), tokens or null
 * @param version the session's `answers` count (an arriving sweep is then seen)
 * @returns null until the analysis and its tokens are known, while the worker prepares its
 *   eviction parts (`evictionPreparing`) and while the messages' texts the page would prepare
 *   them from are being read from the file (`evictionReading`); new object only when a part
 *   changes
 */
export function selectSimulator(
  analysis: Analysis | null,
  tokens: TokenTable | null,
  budget: number | null,
  policies: readonly [string, string],
  policyOptions: Record<string, unknown>,
  version: number,
): SimulatorModel | null {
  if (!analysis || !tokens || evictionPreparing(analysis) || evictionReading(analysis)) return null;
  const ctx = selectEvictionContext(analysis.transcript, tokens, analysis.provider);
  const choices = selectPolicyChoices(policies, policyOptions);
  const sweeps = selectSweep(ctx, choices, version);
  const view = selectEviction(ctx, choices, budget);
  const flags = selectEvictedFlags(ctx, choices, view);
  const pairs = selectEvictedPairs(selectArcPairs(analysis), flags);
  return simulatorModel(ctx, choices, view, flags, pairs, selectCutMarkers(ctx.cuts), sweeps);
}

/** The model as one object, the same while its parts are the same (one slot). */
const simulatorModel = memoN(
  (
    ctx: EvictionContext,
    choices: [PolicyChoice, PolicyChoice],
    view: EvictionView,
    flags: Uint8Array,
    pairs: EvictedPairs,
    markers: MarkerLookup,
    sweeps: PolicySweep[] | typeof SWEEP_PENDING | null,
  ): SimulatorModel => ({ ctx, choices, view, flags, pairs, markers, sweeps }),
);
