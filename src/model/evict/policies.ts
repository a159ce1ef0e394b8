/**
 * The eviction policies (one file each in `policy/`, listed in `registry.ts`), run as cut plans
 * over prefix sums.
 *
 * Every policy keeps the pinned system/developer messages, an optional head before the cut, and
 * everything from a cut point `k` on; it differs only in which cut points it may use and what
 * head it keeps:
 *
 * | policy              | head                                  | cut points                          |
 * |---------------------|---------------------------------------|-------------------------------------|
 * | `message`           | — (task with `pinFirst`)              | every message                       |
 * | `message-keep-task` | the first message (the task)          | every message after it              |
 * | `exchange`          | — (task with `pinFirst`)              | exchange starts (`groupExchanges`)  |
 * | `turn-pair`         | messages before the first droppable turn pair (the task) | assistant messages (`turnPairs`) |
 * | `summary`           | the task + one user summary message of `summaryTokens` | exchange starts after the task |
 *
 * "What fits" is a binary search over the cut points on the prefix sums of the TokenTable, so a
 * slider step is O(log n) plus the validation of the result (fast path in simulate.ts).
 * The newest message / turn pair / exchange is never evicted (a request needs its current turn);
 * `keepNewestExchanges` raises that floor. When even the largest allowed cut is over budget the
 * result says `fits: false` and keeps what that cut keeps.
 */
import type { Grouping } from '../exchanges.ts';
import type { TokenTable } from '../tokens.ts';
import type { Message } from '../types.ts';
import type { Violation } from '../validate/index.ts';
import { firstAfter } from './bisect.ts';
import { POLICY_REGISTRY } from './registry.ts';
import { firstErrorOf, stepValidation, type RewritePlan } from './rewrite.ts';
import { checkCut, isCutValid, NO_HEAD, type CutContext, type CutHead } from './simulate.ts';
import type { EvictionPolicy, EvictionResult, PolicyId, PolicyOptions } from './types.ts';

export { prepareEviction } from './prepare.ts';
export { MONOTONE_POLICIES, POLICIES } from './registry.ts';

/** Default size of the summary message, in tokens, when `summaryTokens` is not given. */
export const DEFAULT_SUMMARY_TOKENS = 500;

/** Everything the policies need, computed once per transcript, token table and provider. */
export interface EvictionContext {
  cuts: CutContext;
  table: TokenTable;
  grouping: Grouping;
  /** Non-pinned message indices, ascending. */
  nonPinned: Int32Array;
  /** npPrefix[i] = tokens of non-pinned messages in [0, i); length n + 1. */
  npPrefix: Float64Array;
  /** Tokens of all pinned messages (always kept). */
  pinnedTokens: number;
  /** Assistant indices of the turn pairs, ascending. */
  turnAssistants: Int32Array;
  /** First message index of each exchange, ascending. */
  exchangeStarts: Int32Array;
  /** Cut plans by policy and options (plans do not depend on the budget). */
  plans: Map<string, CutPlan>;
  /**
   * What a policy keeps from one request for the next along a chain of requests that each extend
   * the one before (a fleet scan's session calls: scan/rows.ts gives each request of one chain
   * the same map), by a key the policy chooses; absent otherwise. A policy that reads it makes
   * the same plan as without it (its state is checked to extend, else made again).
   */
  resume?: Map<string, unknown>;
}

/** A policy's plan: what it keeps before the cut, and the cut points it may use, ascending. */
export interface CutPlan {
  policy: PolicyId;
  /** Non-pinned messages kept before every cut (ours, ascending). */
  head: number[];
  /** Allowed cut points (message indices, ours), ascending; `cuts[0]` evicts nothing. */
  cuts: Int32Array;
  /** Summary size in tokens, inserted right before the cut when anything was dropped; null if none. */
  summaryTokens: number | null;
  /** Tokens of the head messages. */
  headTokens: number;
  /** @internal cached heads: [without summary, with summary] */
  heads?: [CutHead, CutHead | null];
  /** A rewriting policy's steps (rewrite.ts); `cuts[j]` is then `j − steps.length` (no message). */
  rewrite?: RewritePlan;
}

/**
 * The cut plan of a policy (independent of the budget).
 * @param ctx from `prepareEviction`
 * @param policy which policy
 * @param options pinFirst (message, exchange), keepNewestExchanges, summaryTokens (default 500)
 */
export function cutPlan(
  ctx: EvictionContext,
  policy: PolicyId,
  options: PolicyOptions = {},
): CutPlan {
  const key = `${policy}|${options.pinFirst === true}|${options.keepNewestExchanges ?? 0}|${options.summaryTokens ?? ''}|${options.keepToolUses ?? ''}|${options.clearAtLeast ?? ''}|${options.clearToolInputs === true}|${(options.excludeTools ?? []).join('\u0000')}`;
  let plan = ctx.plans.get(key);
  if (!plan) {
    plan = buildPlan(ctx, policy, options);
    ctx.plans.set(key, plan);
  }
  return plan;
}

function buildPlan(ctx: EvictionContext, policy: PolicyId, options: PolicyOptions): CutPlan {
  const n = ctx.cuts.n;
  const np = ctx.nonPinned;
  const def: EvictionPolicy = POLICY_REGISTRY[policy];
  if (def.rewrite) {
    const rewrite = def.rewrite(ctx, options);
    // A rewriting plan cuts nothing: its cuts are the steps' ids, negative (−m … −1), ascending.
    const m = rewrite.steps.length;
    const cuts = new Int32Array(m);
    for (let j = 0; j < m; j++) cuts[j] = j - m;
    return newPlan(policy, [], cuts, null, 0, rewrite);
  }
  const summaryTokens = def.summarises
    ? Math.max(0, options.summaryTokens ?? DEFAULT_SUMMARY_TOKENS)
    : null;
  if (np.length === 0) return newPlan(policy, [], Int32Array.of(n), summaryTokens, 0);
  const task = np[0] as number;
  const pinTask = def.keepsTask || (options.pinFirst === true && def.options.includes('pinFirst'));
  const exStarts = ctx.exchangeStarts;
  const keepN = Math.max(0, Math.floor(options.keepNewestExchanges ?? 0));
  const { candidates, floor: policyFloor, head: policyHead } = def.cuts(ctx, task);
  const head: number[] = policyHead ?? (pinTask ? [task] : []);
  let floor = policyFloor; // the largest cut allowed
  if (keepN > 0 && exStarts.length > 0)
    floor = Math.min(floor, exStarts[Math.max(0, exStarts.length - keepN)] as number);
  const lastHead = head[head.length - 1];
  // The cut that evicts nothing: the first non-pinned message after the head.
  const k0 = lastHead === undefined ? task : (np[firstAfter(np, lastHead)] ?? n);
  // The candidates in (k0, floor]: a contiguous run of an ascending list.
  const from = firstAfter(candidates, k0);
  const to = Math.max(from, firstAfter(candidates, floor));
  // When k0 is the candidate before the run (the message policies: k0 is the task), the cuts
  // are a view of the candidates instead of a copy (a scan makes six plans per request).
  let cuts: Int32Array;
  if (from > 0 && candidates[from - 1] === k0) cuts = candidates.subarray(from - 1, to);
  else {
    cuts = new Int32Array(1 + to - from);
    cuts[0] = k0;
    cuts.set(candidates.subarray(from, to), 1);
  }
  let headTokens = 0;
  for (const h of head) headTokens += ctx.table.perMessage[h] ?? 0;
  return newPlan(policy, head, cuts, summaryTokens, headTokens);
}

/**
 * A CutPlan with every field present, in one order, whatever the policy: the sweep's loops then
 * see one object shape (a plan with fields added later or in another order made V8 drop the
 * loops' optimised code in the middle of a sweep).
 */
function newPlan(
  policy: PolicyId,
  head: number[],
  cuts: Int32Array,
  summaryTokens: number | null,
  headTokens: number,
  rewrite?: RewritePlan,
): CutPlan {
  return { policy, head, cuts, summaryTokens, headTokens, heads: undefined, rewrite };
}

/** Tokens kept by a plan at its j-th cut (system + pinned + head + summary + messages ≥ cut). */
export function planCost(ctx: EvictionContext, plan: CutPlan, j: number): number {
  if (plan.rewrite) return plan.rewrite.steps[j]?.tokensKept ?? ctx.table.total;
  const k = plan.cuts[j] as number;
  const n = ctx.cuts.n;
  const head = plan.headTokens;
  const suffix = (ctx.npPrefix[n] as number) - (ctx.npPrefix[k] as number);
  return (
    ctx.table.system +
    ctx.pinnedTokens +
    head +
    suffix +
    (plan.summaryTokens !== null && j > 0 ? plan.summaryTokens : 0)
  );
}

/** All cut costs of a plan at once (tokens), O(cuts). */
export function planCosts(ctx: EvictionContext, plan: CutPlan): Float64Array {
  const out = new Float64Array(plan.cuts.length);
  if (plan.rewrite) return out.map((_, j) => planCost(ctx, plan, j));
  if (plan.cuts.length === 0) return out;
  const base =
    planCost(ctx, plan, 0) -
    ((ctx.npPrefix[ctx.cuts.n] as number) - (ctx.npPrefix[plan.cuts[0] as number] as number));
  const n = ctx.cuts.n;
  for (let j = 0; j < plan.cuts.length; j++) {
    const k = plan.cuts[j] as number;
    out[j] =
      base +
      (ctx.npPrefix[n] as number) -
      (ctx.npPrefix[k] as number) +
      (plan.summaryTokens !== null && j > 0 ? plan.summaryTokens : 0);
  }
  return out;
}

/**
 * Which cut of a plan a budget selects: the first (least evicting) cut whose cost fits.
 * @returns the cut's position in `plan.cuts` and whether it fits (else the last cut)
 */
export function chooseCut(
  ctx: EvictionContext,
  plan: CutPlan,
  budget: number,
): { j: number; fits: boolean } {
  const j = fittingCut(ctx, plan, budget);
  return j >= 0 ? { j, fits: true } : { j: plan.cuts.length - 1, fits: false };
}

/**
 * `chooseCut` without an object per call (a fleet scan asks it 4.2 million times): the position
 * of the first cut whose cost fits the budget, or −1 when none does (then `chooseCut` takes the
 * last cut).
 */
export function fittingCut(ctx: EvictionContext, plan: CutPlan, budget: number): number {
  const m = plan.cuts.length;
  if (planCost(ctx, plan, 0) <= budget) return 0;
  if (m === 1) return -1;
  // Costs are non-increasing from j = 1 on (j = 0 has no summary).
  let lo = 1;
  let hi = m;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (planCost(ctx, plan, mid) <= budget) hi = mid;
    else lo = mid + 1;
  }
  return lo < m ? lo : -1;
}

/**
 * The head (CutHead) of a plan at a cut, with the summary message when anything was dropped.
 * The same object is returned for every cut of a plan (with or without the summary), so window
 * checks can be cached per head.
 */
export function planHead(ctx: EvictionContext, plan: CutPlan, j: number): CutHead {
  if (!plan.heads) {
    const ms = ctx.cuts.t.messages;
    const messages = plan.head.map((i) => ms[i] as Message);
    const own = POLICY_REGISTRY[plan.policy] as EvictionPolicy;
    const make = own.summaryMessage
      ? (tokens: number) =>
          (own.summaryMessage as NonNullable<typeof own.summaryMessage>)(ctx.cuts.provider, tokens)
      : (tokens: number) => summaryMessage(null, tokens);
    plan.heads = [
      { messages, summary: null },
      plan.summaryTokens === null ? null : { messages, summary: make(plan.summaryTokens) },
    ];
  }
  return (j > 0 && plan.heads[1]) || plan.heads[0];
}

/**
 * The synthetic summary message: a plain user message with no tool blocks (rawIndex −1).
 * @param before the message index (ours) it is inserted before, for its path; null for a generic one
 * @param tokens its size in tokens (stated in its text)
 */
export function summaryMessage(before: number | null, tokens: number): Message {
  return {
    index: -1,
    rawIndex: -1,
    path: before === null ? 'summary' : `summary before message ${before}`,
    role: 'user',
    blocks: [{ type: 'text', text: `[Summary of the earlier conversation, ${tokens} tokens]` }],
    raw: undefined,
  };
}

/** EvictionResult plus the cut that produced it and the exact first error. */
export interface PolicyResult extends EvictionResult {
  /** The cut point (message index, ours): non-pinned messages before it were evicted, except the head. */
  cut: number;
  /** The 400 the kept request gets (the first error), or null when valid. */
  firstError: Violation | null;
}

/**
 * Run one policy at one budget (one slider step for one policy).
 * @param ctx from `prepareEviction` (memoise it; it is the O(n) part)
 * @param policy which policy
 * @param budget budget in tokens, system prompt included
 * @param options pinFirst, keepNewestExchanges, summaryTokens
 * @returns kept/evicted indices (ours), tokens before/kept (tokens), deficit, freed, overshoot
 *   (freed ÷ deficit), fits, and the validation of the kept request (lazy getter; `firstError`
 *   is computed eagerly; `kept`/`evicted` are listed on first access, O(n)). O(log n + boundary window).
 */
export function simulatePolicy(
  ctx: EvictionContext,
  policy: PolicyId,
  budget: number,
  options: PolicyOptions = {},
): PolicyResult {
  const plan = cutPlan(ctx, policy, options);
  return resultAt(ctx, plan, chooseCut(ctx, plan, budget), budget);
}

/** Build the result of a plan at cut position j. */
export function resultAt(
  ctx: EvictionContext,
  plan: CutPlan,
  choice: { j: number; fits: boolean },
  budget: number,
): PolicyResult {
  if (plan.rewrite) return rewriteResultAt(ctx, plan, plan.rewrite, choice, budget);
  const { j, fits } = choice;
  const k = plan.cuts[j] as number;
  const n = ctx.cuts.n;
  // kept/evicted are listed on first access (a slider step does not need 100,000 indices).
  let lists: { kept: number[]; evicted: number[] } | null = null;
  const list = () => {
    if (lists) return lists;
    const pinned = ctx.cuts.pinned;
    const head = plan.head;
    const evicted: number[] = [];
    const keptBefore: number[] = [];
    let h = 0;
    let p = 0;
    for (let i = 0; i < k && i < n; i++) {
      while (h < head.length && (head[h] as number) < i) h++;
      while (p < pinned.length && (pinned[p] as number) < i) p++;
      if (head[h] === i || pinned[p] === i) keptBefore.push(i);
      else evicted.push(i);
    }
    const kept = new Array<number>(keptBefore.length + Math.max(0, n - k));
    for (let i = 0; i < keptBefore.length; i++) kept[i] = keptBefore[i] as number;
    for (let i = k, j = keptBefore.length; i < n; i++, j++) kept[j] = i;
    lists = { kept, evicted };
    return lists;
  };
  const tokensBefore = ctx.table.total;
  const tokensKept = planCost(ctx, plan, j);
  const deficit = Math.max(0, tokensBefore - budget);
  const freed = tokensBefore - tokensKept;
  const head = planHead(ctx, plan, j);
  const verdict = checkCut(ctx.cuts, k, head);
  const result: PolicyResult = {
    policy: plan.policy,
    budget,
    tokensBefore,
    tokensKept,
    deficit,
    freed,
    overshoot: deficit > 0 ? freed / deficit : null,
    fits,
    get kept() {
      return list().kept;
    },
    get evicted() {
      return list().evicted;
    },
    provider: ctx.cuts.provider,
    cut: k,
    firstError: verdict.firstError,
    get validation() {
      return verdict.validation();
    },
  };
  if (head.summary && plan.summaryTokens !== null)
    result.summary = { before: k, tokens: plan.summaryTokens };
  return result;
}

/** The result of a rewriting plan at step j: nothing is cut; blocks are edited, messages dropped. */
function rewriteResultAt(
  ctx: EvictionContext,
  plan: CutPlan,
  rewrite: RewritePlan,
  choice: { j: number; fits: boolean },
  budget: number,
): PolicyResult {
  const { j, fits } = choice;
  const step = rewrite.steps[j] as NonNullable<RewritePlan['steps'][number]>;
  const n = ctx.cuts.n;
  const tokensBefore = ctx.table.total;
  const deficit = Math.max(0, tokensBefore - budget);
  const freed = tokensBefore - step.tokensKept;
  const validation = stepValidation(ctx, rewrite, j);
  let lists: { kept: number[]; evicted: number[] } | null = null;
  const list = () => {
    if (!lists) {
      const gone = new Set(step.evicted);
      const kept: number[] = [];
      for (let i = 0; i < n; i++) if (!gone.has(i)) kept.push(i);
      lists = { kept, evicted: step.evicted.slice() };
    }
    return lists;
  };
  return {
    policy: plan.policy,
    budget,
    tokensBefore,
    tokensKept: step.tokensKept,
    deficit,
    freed,
    overshoot: deficit > 0 ? freed / deficit : null,
    fits,
    get kept() {
      return list().kept;
    },
    get evicted() {
      return list().evicted;
    },
    edits: step.edits,
    provider: ctx.cuts.provider,
    cut: plan.cuts[j] as number,
    firstError: firstErrorOf(validation),
    validation,
  };
}

/** True when the plan's j-th cut gives a valid request (no error objects built). */
export function planCutValid(ctx: EvictionContext, plan: CutPlan, j: number): boolean {
  if (plan.rewrite) return plan.rewrite.valid?.(j) ?? stepValidation(ctx, plan.rewrite, j).valid;
  return isCutValid(ctx.cuts, plan.cuts[j] as number, cutHead(ctx, plan, j));
}

/**
 * `planCutValid(ctx, plan, j)` for every j, as 1 (valid) or 0: what does not depend on j (the
 * policy, its heads) is looked up once, and the cuts are checked in one loop here, ascending (the
 * order the sweep asked them in before). The sweep's walk reads the array instead of calling a
 * closure per cut: a closure per policy made V8 drop the walk's optimised code at each new
 * policy ("wrong call target") and run the next policy's cuts unoptimised (issue 38).
 * O(cuts × boundary window).
 */
export function planCutValidities(ctx: EvictionContext, plan: CutPlan): Uint8Array {
  const cuts = plan.cuts;
  const m = cuts.length;
  const valid = new Uint8Array(m);
  if (plan.rewrite) {
    for (let j = 0; j < m; j++) valid[j] = planCutValid(ctx, plan, j) ? 1 : 0;
    return valid;
  }
  if (m === 0) return valid;
  const c = ctx.cuts;
  valid[0] = isCutValid(c, cuts[0] as number, cutHead(ctx, plan, 0)) ? 1 : 0;
  if (m === 1) return valid;
  const rest = cutHead(ctx, plan, 1);
  for (let j = 1; j < m; j++) valid[j] = isCutValid(c, cuts[j] as number, rest) ? 1 : 0;
  return valid;
}

/** The head a plan's j-th cut is validated with (it depends on j only through j > 0). */
function cutHead(ctx: EvictionContext, plan: CutPlan, j: number): CutHead {
  const own: EvictionPolicy = POLICY_REGISTRY[plan.policy];
  // A summary the provider's rules read past (Anthropic's compaction block) leaves the verdict of
  // the cut without it: the cached cut validity, not a window per cut (sweep.test.ts holds the
  // sweep equal to simulatePolicy's validation at every budget).
  return j > 0 && own.summaryTransparent?.(ctx.cuts.provider) === true && plan.head.length === 0
    ? NO_HEAD
    : planHead(ctx, plan, j);
}
