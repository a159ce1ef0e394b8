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
import { isBroken, type ToolPair } from '../model/pairing.ts';
import { cutErrorAt, cutMarkers, type CutError } from '../model/evict/cuts.ts';
import {
  cutPlan,
  POLICIES,
  prepareEviction,
  simulatePolicy,
  type EvictionContext,
  type PolicyResult,
} from '../model/evict/policies.ts';
import { isCutValid, type CutContext } from '../model/evict/simulate.ts';
import { sweepPolicy, type PolicySweep } from '../model/evict/sweep.ts';
import { isPolicyId } from '../model/evict/registry.ts';
import type { PolicyId, PolicyOptions } from '../model/evict/types.ts';
import type { TokenTable } from '../model/tokens.ts';
import type { ProviderId, Transcript } from '../model/types.ts';
import { assembleEviction, type EvictionParts } from '../model/evict/prepare.ts';
import { WORKER_EVICTION_MIN } from '../workers/evictionParts.ts';
import { memoN } from './memo.ts';

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

/** Eviction parts the worker prepared, by transcript and provider (see `adoptEvictionParts`). */
const adopted = new WeakMap<Transcript, Map<ProviderId, EvictionParts>>();

/**
 * Hand the page the token-independent eviction stage the worker prepared for a transcript it
 * holds (workers/evictionParts.ts; client.ts calls this before resolving the answer), so
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
  let m = adopted.get(t);
  if (!m) adopted.set(t, (m = new Map()));
  m.set(provider, parts);
}

let lastParts: { t: Transcript; provider: ProviderId; parts: EvictionParts } | null = null;

/**
 * The EvictionContext (grouping, prefix sums, full validation, cut tables) of a transcript for a
 * token table and a provider, memoised on the three references. The O(n) validation stage is
 * token-independent: it comes from the worker when it prepared it (`adoptEvictionParts`), else it
 * is prepared here once per transcript and provider; a new token table (the exact count arriving
 * after the chars/4 one) only rebuilds the prefix sums (`assembleEviction`, ≈ 1 ms per 100,000
 * messages). Equal to `prepareEviction(t, table, provider)` (evictionParts.test.ts).
 */
export const selectEvictionContext = memoN(
  (t: Transcript, table: TokenTable, provider: ProviderId): EvictionContext => {
    const parts =
      lastParts && lastParts.t === t && lastParts.provider === provider
        ? lastParts.parts
        : (adopted.get(t)?.get(provider) ?? null);
    if (parts) {
      lastParts = { t, provider, parts };
      return assembleEviction(parts, t, table);
    }
    const ctx = prepareEviction(t, table, provider);
    lastParts = { t, provider, parts: ctx };
    return ctx;
  },
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

/** Cut markers the worker classified (`cutMarkers(cuts).safe`), by the page's cut context. */
const adoptedMarkers = new WeakMap<CutContext, Uint8Array>();

/**
 * Hand the page the cut markers the worker classified for a cut context it adopted (client.ts,
 * with `adoptEvictionParts`), so `selectCutMarkers` does not classify every cut on the page.
 * @param cuts the adopted parts' `cuts` (for the page's transcript)
 * @param safe `cutMarkers(cuts).safe` as the worker computed it: length n + 1, 1 = safe cut
 */
export function adoptCutMarkers(cuts: CutContext, safe: Uint8Array): void {
  if (safe.length === cuts.n + 1) adoptedMarkers.set(cuts, safe);
}

/**
 * Cut markers of a context: every cut classified at once (`cutMarkers`, or the worker's
 * classification when it sent one: `adoptCutMarkers`) on the fast path or a short transcript,
 * else classified on demand and cached. Error bodies are always built lazily, for the marker
 * shown.
 */
export const selectCutMarkers = memoN((cuts: CutContext): MarkerLookup => {
  const safe = adoptedMarkers.get(cuts);
  if (safe)
    return {
      isSafe: (k) => safe[k] === 1,
      errorAt: (k) => (k < 0 || k > cuts.n || safe[k] === 1 ? null : cutErrorAt(cuts, k)),
      eager: true,
    };
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
    errorAt: (k) => (isSafe(k) ? null : cutErrorAt(cuts, k)),
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
 * Which messages (ours) each policy evicts, as one Uint8Array of bit flags. Recomputed only when a
 * policy's cut point or plan changes, not on every slider step that keeps the same cut: O(cut)
 * typed-array writes from the cut, the pinned list and the plan's head (no index lists built).
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
    markEvicted(ctx, flags, a.cut, planA.head, EVICTED_PRIMARY);
    markEvicted(ctx, flags, b.cut, planB.head, EVICTED_COMPARED);
  }
  flagsCache = { ctx, key, flags };
  return flags;
}

/** Set `bit` on every message before `cut` except pinned ones and the plan's head (as `resultAt` lists them). */
function markEvicted(
  ctx: EvictionContext,
  flags: Uint8Array,
  cut: number,
  head: readonly number[],
  bit: number,
): void {
  const k = Math.min(cut, flags.length);
  for (let i = 0; i < k; i++) flags[i] = (flags[i] as number) | bit;
  const keep = ~bit & 0xff;
  const pinned = ctx.cuts.pinned;
  for (let p = 0; p < pinned.length && (pinned[p] as number) < k; p++) {
    const i = pinned[p] as number;
    flags[i] = (flags[i] as number) & keep;
  }
  for (const h of head) if (h < k) flags[h] = (flags[h] as number) & keep;
}

/**
 * Number of messages a result evicted, without listing them: non-pinned messages before its cut
 * minus the plan's head. O(log n + head).
 * @param ctx the context the result came from
 * @param choice the policy and options that produced it
 * @param cut the result's `cut`
 */
export function evictedCount(ctx: EvictionContext, choice: PolicyChoice, cut: number): number {
  const pinned = ctx.cuts.pinned;
  let lo = 0;
  let hi = pinned.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((pinned[mid] as number) < cut) lo = mid + 1;
    else hi = mid;
  }
  let head = 0;
  for (const h of cutPlan(ctx, choice.id, choice.options).head) if (h < cut) head++;
  return Math.max(0, Math.min(cut, ctx.cuts.n) - lo - head);
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

const keyIndexOf = new WeakMap<readonly ToolPair[], Map<string, number>>();

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
    const gone = (p: ToolPair, end: 'call' | 'result') => {
      const ref = p[end];
      return ref !== null && ((flags[ref.message] ?? 0) & EVICTED_PRIMARY) !== 0;
    };
    const stateOf = (p: ToolPair): PairEviction => {
      const c = gone(p, 'call');
      const r = gone(p, 'result');
      if (!c && !r) return 'kept';
      return (c || p.call === null) && (r || p.result === null) ? 'gone' : 'cut';
    };
    // Only pairs across the eviction boundary change; the rest keep their object (O(pairs) reads).
    const out = pairs.slice();
    const cut = new Map<string, PairEviction>();
    for (let i = 0; i < out.length; i++) {
      const p = out[i] as ToolPair;
      if (stateOf(p) !== 'cut') continue;
      cut.set(p.key, 'cut');
      if (isBroken(p) && p.status !== 'answered_late') continue;
      out[i] = { ...p, status: gone(p, 'call') ? 'orphan' : 'unanswered' };
    }
    let index = keyIndexOf.get(pairs);
    const state: PairStateLookup = {
      get: (key) => {
        const c = cut.get(key);
        if (c) return c;
        if (!index) {
          index = new Map(pairs.map((p, i) => [p.key, i]));
          keyIndexOf.set(pairs, index);
        }
        const i = index.get(key);
        const p = i === undefined ? undefined : pairs[i];
        const s = p ? stateOf(p) : 'kept';
        return s === 'kept' ? undefined : s;
      },
    };
    return { pairs: out, state };
  },
);

/**
 * The options each of the five policies is swept with (POLICIES order): the two shown with their
 * options, the others with defaults (as `selectSweep` sweeps them).
 */
export function sweepOptions(choices: readonly [PolicyChoice, PolicyChoice]): PolicyOptions[] {
  return POLICIES.map((id) => choices.find((c) => c.id === id)?.options ?? {});
}

/** A key naming the sweep options (`sweepOptions`): equal options, equal key. */
export function sweepKey(options: readonly PolicyOptions[]): string {
  return JSON.stringify(
    options.map((o) => [
      o.pinFirst ?? null,
      o.keepNewestExchanges ?? null,
      o.summaryTokens ?? null,
    ]),
  );
}

/**
 * Who computes sweeps off the page's thread (workers/client.ts registers itself): `has` says
 * whether it holds the context of a token table (a table it sent), `request` asks for the sweep of
 * that table with per-policy options; the answer comes back through `adoptSweep`.
 */
export interface SweepSource {
  has: (table: TokenTable, provider: ProviderId) => boolean;
  request: (table: TokenTable, provider: ProviderId, options: PolicyOptions[]) => void;
}

let sweepSource: SweepSource | null = null;
/** Register (or clear, with null) the off-thread sweep source. */
export function setSweepSource(src: SweepSource | null): void {
  sweepSource = src;
}

/** Sweeps the worker computed, by token table, then `provider|sweepKey`. */
const workerSweeps = new WeakMap<TokenTable, Map<string, PolicySweep[]>>();
let sweepVersion = 0;
const sweepListeners = new Set<() => void>();

/**
 * Hand the page a sweep of every policy the worker computed (`sweepContext` over the same context
 * as `selectEvictionContext` builds on the page, tested in workers/sweep.test.ts) for a token table
 * the page holds; `selectSweep` answers from it. Notifies `subscribeSweeps` listeners.
 * @param table the page's token table (the object the worker sent)
 * @param provider the provider the sweep validated cuts for
 * @param options the per-policy options swept (POLICIES order, `sweepOptions`)
 * @param sweeps one PolicySweep per policy, POLICIES order
 */
export function adoptSweep(
  table: TokenTable,
  provider: ProviderId,
  options: readonly PolicyOptions[],
  sweeps: PolicySweep[],
): void {
  let m = workerSweeps.get(table);
  if (!m) workerSweeps.set(table, (m = new Map()));
  m.set(`${provider}|${sweepKey(options)}`, sweeps);
  sweepSourceChanged();
}

/**
 * Tell `selectSweep` that what the sweep source can compute changed (the worker failed, was
 * cancelled or cannot sweep a table): a sweep it waited for is then computed on the page.
 */
export function sweepSourceChanged(): void {
  sweepVersion++;
  for (const l of sweepListeners) l();
}

/** Subscribe to sweeps arriving from the worker (for `useSyncExternalStore`); returns unsubscribe. */
export function subscribeSweeps(listener: () => void): () => void {
  sweepListeners.add(listener);
  return () => sweepListeners.delete(listener);
}

/** Changes each time a worker sweep arrives (the snapshot for `subscribeSweeps`). */
export function sweepsVersion(): number {
  return sweepVersion;
}

/** The sweep is being computed off the page's thread (see `selectSweep`). */
export const SWEEP_PENDING = 'pending';

/**
 * The sweep of every policy: the two shown with their options, the others with defaults.
 * O(cuts × boundary window) per policy; memoised on the context, the choices and the version of
 * the worker's sweeps. For transcripts of `WORKER_EVICTION_MIN` messages or more whose token table
 * came from the worker, the worker sweeps (`adoptSweep`; issue 7: 0.2–0.5 s on the page at 100,000
 * messages) and this answers `SWEEP_PENDING` until it arrives (`requestSweep` asks for it).
 * @param version `sweepsVersion()` (so an arriving sweep is seen); omitted = 0
 * @returns one PolicySweep per policy (POLICIES order); `SWEEP_PENDING`; or null when the provider
 *   has no fast cut path and the transcript is longer than `SLOW_PATH_LIMIT` messages (the page
 *   would freeze; `npm run cli -- sweep` does it)
 */
export const selectSweep = memoN(
  (
    ctx: EvictionContext,
    choices: readonly [PolicyChoice, PolicyChoice],
    // Read only as a memo key: a new version re-reads the worker's sweeps.
    version = 0,
  ): PolicySweep[] | typeof SWEEP_PENDING | null => {
    void version;
    if (!ctx.cuts.fast && ctx.cuts.n > SLOW_PATH_LIMIT) return null;
    const options = sweepOptions(choices);
    const provider = ctx.cuts.provider;
    const fromWorker = workerSweeps.get(ctx.table)?.get(`${provider}|${sweepKey(options)}`);
    if (fromWorker) return fromWorker;
    if (ctx.cuts.n >= WORKER_EVICTION_MIN && sweepSource?.has(ctx.table, provider))
      return SWEEP_PENDING;
    return POLICIES.map((id, i) => sweepPolicy(ctx, id, options[i] ?? {}));
  },
);

/**
 * Ask the worker for the sweep `selectSweep` answered `SWEEP_PENDING` for (a no-op when it is
 * there or nothing can compute it off the page). Called from an effect, never while rendering.
 */
export function requestSweep(
  ctx: EvictionContext,
  choices: readonly [PolicyChoice, PolicyChoice],
): void {
  const options = sweepOptions(choices);
  const provider = ctx.cuts.provider;
  if (workerSweeps.get(ctx.table)?.has(`${provider}|${sweepKey(options)}`)) return;
  if (sweepSource?.has(ctx.table, provider)) sweepSource.request(ctx.table, provider, options);
}

export type { CutError };
