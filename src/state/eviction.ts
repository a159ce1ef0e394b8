/**
 * Derived data of the eviction simulator (issue 4), never stored. Memoised by stage so that moving
 * the budget slider recomputes only the cheap per-budget part:
 *
 *   (transcript, token table, provider) → EvictionContext   O(n), once per transcript/counter/provider
 *   (context)                           → cut markers         O(n × boundary window), once
 *   (context, policy choices)           → sweep               O(cuts × boundary window), once per choice
 *   (context, policy choices, budget)   → two PolicyResults   O(log n + boundary window) per slider step
 *   (results' cuts)                     → per-message evicted flags and derived pair status, O(n),
 *                                         only when a cut point actually moves
 *
 * The store holds only what the user chose: `budget`, `policies` and `policyOptions` (keyed by
 * policy id, the shape `urlSync.ts` reads and writes).
 */
import { isBroken, type ToolPair } from '../model/pairing.ts';
import { cutMarkers, type CutError } from '../model/evict/cuts.ts';
import {
  cutPlan,
  POLICIES,
  prepareEviction,
  simulatePolicy,
  type EvictionContext,
  type PolicyResult,
} from '../model/evict/policies.ts';
import { checkCut, isCutValid, type CutContext } from '../model/evict/simulate.ts';
import { sweepPolicy, type PolicySweep } from '../model/evict/sweep.ts';
import type { PolicyId, PolicyOptions } from '../model/evict/types.ts';
import type { TokenTable } from '../model/tokens.ts';
import type { ProviderId, Transcript } from '../model/types.ts';

function memoN<A extends unknown[], R>(fn: (...a: A) => R): (...a: A) => R {
  let last: { args: A; r: R } | null = null;
  return (...args) => {
    if (
      last &&
      last.args.length === args.length &&
      last.args.every((x, i) => Object.is(x, args[i]))
    )
      return last.r;
    const r = fn(...args);
    last = { args, r };
    return r;
  };
}

/** True for one of the five policy ids of issue 4. */
export function isPolicyId(id: unknown): id is PolicyId {
  return typeof id === 'string' && (POLICIES as readonly string[]).includes(id);
}

/** A policy the simulator shows, with its options. */
export interface PolicyChoice {
  id: PolicyId;
  options: PolicyOptions;
}

/**
 * Read one policy's options from the store's free-form `policyOptions[id]` (as the permalink
 * writes them: `{pinFirst, keepNewestExchanges, summaryTokens}`; `summaryTokens: null` = the
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
 * The EvictionContext (grouping, prefix sums, full validation, cut tables) of a transcript for a
 * token table and a provider: the O(n) stage, memoised on the three references.
 */
export const selectEvictionContext = memoN(
  (t: Transcript, table: TokenTable, provider: ProviderId): EvictionContext =>
    prepareEviction(t, table, provider),
);

/**
 * Largest transcript (messages) for which the page classifies every cut, or sweeps every policy,
 * when the provider has no fast cut path (simulate.ts `FAST_PROVIDERS`): there each cut is a
 * validation of the kept tail, O(n), so all cuts are O(n²) — measured 1.5 s (markers) and 4.3 s
 * (sweep) for 2,000 Gemini messages on the dev machine. Above it, markers are classified on
 * demand (only the rows on screen) and the sweep is left to the CLI.
 */
export const SLOW_PATH_LIMIT = 300;

/** Cut markers as the timeline reads them: one cut at a time. */
export interface MarkerLookup {
  /** True when dropping every non-pinned message before `k` gives a valid request (k in 0..n). */
  isSafe: (k: number) => boolean;
  /** The first error of the cut at `k` (exact provider paths), or null when safe. */
  errorAt: (k: number) => CutError | null;
  /** True when every cut was classified up front; false = on demand (slow provider, long transcript). */
  eager: boolean;
}

/**
 * Cut markers of a context: every cut classified at once (`cutMarkers`) on the fast path or a
 * short transcript, else classified on demand and cached. Error bodies are always built lazily,
 * for the marker shown.
 */
export const selectCutMarkers = memoN((cuts: CutContext): MarkerLookup => {
  if (cuts.fast || cuts.n <= SLOW_PATH_LIMIT) {
    const m = cutMarkers(cuts);
    return { isSafe: (k) => m.safe[k] === 1, errorAt: m.errorAt, eager: true };
  }
  const known = new Int8Array(cuts.n + 1).fill(-1);
  const isSafe = (k: number): boolean => {
    if (k < 0 || k > cuts.n) return true;
    if (known[k] === -1) known[k] = isCutValid(cuts, k) ? 1 : 0;
    return known[k] === 1;
  };
  return {
    isSafe,
    errorAt: (k) => {
      if (isSafe(k)) return null;
      const v = checkCut(cuts, k).firstError;
      return v
        ? { rule: v.rule, code: v.code, messageIndex: v.messageIndex, providerPath: v.providerPath, message: v.message, error: v.error }
        : null;
    },
    eager: false,
  };
});

/**
 * The budget the simulator applies: the store's budget, clamped to [0, total]; the transcript's
 * total (nothing evicted) while none is chosen. Tokens.
 */
export function effectiveBudget(budget: number | null, total: number): number {
  if (budget === null || !Number.isFinite(budget)) return total;
  return Math.max(0, Math.min(total, Math.round(budget)));
}

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

/** Per-message eviction flags: bit 1 = evicted by the primary policy, bit 2 = by the compared one. */
export const EVICTED_PRIMARY = 1;
export const EVICTED_COMPARED = 2;

let flagsCache: {
  ctx: EvictionContext;
  key: string;
  flags: Uint8Array;
} | null = null;

/**
 * Which messages (ours) each policy evicts, as one Uint8Array of bit flags. Recomputed (O(n)) only
 * when a policy's cut point or plan changes, not on every slider step that keeps the same cut.
 * @returns flags with `EVICTED_PRIMARY` / `EVICTED_COMPARED` bits; all zero when `view.active` is false
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
  const key = view.active ? `${planKey(planA)}@${a.cut}|${planKey(planB)}@${b.cut}` : 'off';
  if (flagsCache && flagsCache.ctx === ctx && flagsCache.key === key) return flagsCache.flags;
  const flags = new Uint8Array(ctx.cuts.n);
  if (view.active) {
    for (const i of a.evicted) flags[i] = (flags[i] as number) | EVICTED_PRIMARY;
    for (const i of b.evicted) flags[i] = (flags[i] as number) | EVICTED_COMPARED;
  }
  flagsCache = { ctx, key, flags };
  return flags;
}

const planIds = new WeakMap<object, number>();
let nextPlanId = 0;
function planKey(plan: object): number {
  let id = planIds.get(plan);
  if (id === undefined) {
    id = nextPlanId++;
    planIds.set(plan, id);
  }
  return id;
}

/** How the primary policy's eviction affects one tool_use→tool_result pair. */
export type PairEviction = 'kept' | 'cut' | 'gone';

export interface EvictedPairs {
  /** The arc pairs with their status as the kept request has it: one end evicted → red. */
  pairs: ToolPair[];
  /** Per pair key: `cut` = exactly one end evicted (now broken), `gone` = both evicted. */
  state: Map<string, PairEviction>;
}

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
    const state = new Map<string, PairEviction>();
    const out = pairs.map((p) => {
      const callGone = p.call !== null && ((flags[p.call.message] ?? 0) & EVICTED_PRIMARY) !== 0;
      const resultGone =
        p.result !== null && ((flags[p.result.message] ?? 0) & EVICTED_PRIMARY) !== 0;
      if (!callGone && !resultGone) return p;
      if ((callGone || p.call === null) && (resultGone || p.result === null)) {
        state.set(p.key, 'gone');
        return p;
      }
      state.set(p.key, 'cut');
      if (isBroken(p) && p.status !== 'answered_late') return p;
      return { ...p, status: callGone ? ('orphan' as const) : ('unanswered' as const) };
    });
    return { pairs: out, state };
  },
);

/**
 * The sweep of every policy: the two shown with their options, the others with defaults.
 * O(cuts × boundary window) per policy; memoised on the context and the choices.
 * @returns null when the provider has no fast cut path and the transcript is longer than
 *   `SLOW_PATH_LIMIT` messages (the page would freeze; `npm run cli -- sweep` does it)
 */
export const selectSweep = memoN(
  (ctx: EvictionContext, choices: readonly [PolicyChoice, PolicyChoice]): PolicySweep[] | null => {
    if (!ctx.cuts.fast && ctx.cuts.n > SLOW_PATH_LIMIT) return null;
    return POLICIES.map((id) => {
      const chosen = choices.find((c) => c.id === id);
      return sweepPolicy(ctx, id, chosen?.options ?? {});
    });
  },
);

/**
 * Message index (ours) holding a violation or cut error, from its raw index; -1 when none (the
 * synthetic summary message).
 */
export function messageOfRaw(t: Transcript, rawIndex: number): number {
  const ms = t.messages;
  let lo = 0;
  let hi = ms.length - 1;
  // Raw indices are increasing in every parser; fall back to a scan when they are not.
  while (lo <= hi) {
    const mid = (lo + hi) >> 1;
    const r = ms[mid]?.rawIndex ?? 0;
    if (r === rawIndex) return mid;
    if (r < rawIndex) lo = mid + 1;
    else hi = mid - 1;
  }
  return ms.findIndex((m) => m.rawIndex === rawIndex);
}

export type { CutError };
