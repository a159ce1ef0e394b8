/**
 * The sweep: every budget from the smallest a policy can reach to the transcript's total, for
 * each policy — where the result is valid or a 400, the tokens kept, the share of budgets that
 * give a 400, and the mean overshoot (tokens freed ÷ deficit, issue 4).
 *
 * A policy's result only changes at its cut points, so the sweep walks the cuts (not the budgets):
 * cut j is chosen for the integer budgets [cost_j, min_{i<j} cost_i − 1].
 */
import type { TokenTable } from '../tokens.ts';
import type { ProviderId, Transcript } from '../types.ts';
import type { ValidateOptions } from '../validate/index.ts';
import {
  cutPlan,
  planCosts,
  planCutValidities,
  POLICIES,
  prepareEviction,
  type EvictionContext,
} from './policies.ts';
import type { PolicyId, PolicyOptions } from './types.ts';

export interface PolicySweep {
  policy: PolicyId;
  /** The policy's cut points (message indices, ours), ascending; cuts[0] evicts nothing. */
  cuts: Int32Array;
  /** Tokens kept at each cut. */
  costs: Float64Array;
  /** 1 when the request kept at that cut is valid. */
  valid: Uint8Array;
  /**
   * Budget range (tokens, inclusive) that selects each cut: [budgetLo[j], budgetHi[j]], with
   * `budgetHi[j]` −1 when no budget selects cut j. `budgetLo` is `costs` itself (a cut is chosen
   * from its own cost up; issue 38: one array less per policy of each sweep, on both threads).
   */
  budgetLo: Float64Array;
  budgetHi: Float64Array;
  /** Cut points that give a 400 for some budget. */
  invalidCuts: number[];
  /** Merged budget intervals [lo, hi] (tokens, inclusive) that give a 400. */
  invalidBudgets: [number, number][];
  /** Smallest budget at which this policy fits (tokens). */
  minBudget: number;
  /** Share of integer budgets in [minBudget, total] that give a 400 (0..1). */
  share400: number;
  /** Mean of freed ÷ deficit over integer budgets in [minBudget, total − 1]; null when that range is empty. */
  meanOvershoot: number | null;
}

export interface SweepResult {
  /** Tokens before eviction (system + all messages). */
  total: number;
  policies: PolicySweep[];
}

const EULER_GAMMA = 0.5772156649015329;

/** H(x) = Σ_{d=1..x} 1/d, exact below 64, Euler–Maclaurin above (error < 1e-12). */
function harmonic(x: number): number {
  if (x <= 0) return 0;
  if (x < 64) {
    let s = 0;
    for (let d = 1; d <= x; d++) s += 1 / d;
    return s;
  }
  // Products of 1/x, not `x ** 4`: the sweep calls this once per cut, and the power cost 4×.
  const inv = 1 / x;
  const inv2 = inv * inv;
  return Math.log(x) + EULER_GAMMA + 0.5 * inv - inv2 / 12 + (inv2 * inv2) / 120;
}

/**
 * Sweep one policy.
 * @param ctx from `prepareEviction`
 * @returns per-cut costs and validity, the budgets that give a 400 and their share, the mean overshoot.
 *   O(cuts × boundary window).
 */
export function sweepPolicy(
  ctx: EvictionContext,
  policy: PolicyId,
  options: PolicyOptions = {},
): PolicySweep {
  const plan = cutPlan(ctx, policy, options);
  const costs = planCosts(ctx, plan);
  const walk = walkCuts(plan.cuts, costs, ctx.table.total, planCutValidities(ctx, plan));
  const { minBudget, invalidBudgets } = walk;
  const total = ctx.table.total;
  // Listed in cut order: descending budgets wherever the costs fall with j (they do from j = 1
  // on), so most often a reverse, not a sort of tens of thousands of intervals.
  if (descending(invalidBudgets)) invalidBudgets.reverse();
  else invalidBudgets.sort((a, b) => a[0] - b[0]);
  const count = total - minBudget + 1;
  return {
    policy,
    cuts: plan.cuts,
    costs,
    valid: walk.valid,
    budgetLo: walk.budgetLo,
    budgetHi: walk.budgetHi,
    invalidCuts: walk.invalidCuts,
    invalidBudgets,
    minBudget,
    share400: count > 0 ? walk.bad / count : 0,
    meanOvershoot: total - minBudget > 0 ? walk.overshootSum / (total - minBudget) : null,
  };
}

/** True when the intervals' starts strictly fall. */
function descending(xs: readonly [number, number][]): boolean {
  for (let i = 1; i < xs.length; i++)
    if ((xs[i] as [number, number])[0] >= (xs[i - 1] as [number, number])[0]) return false;
  return true;
}

/**
 * The walk over a plan's cuts (j ascending): the budgets that select each cut, its validity, the
 * count of budgets that give a 400 and the sum of freed ÷ deficit over the budgets. Its own
 * function, apart from the plan's making and the result's, so that V8 optimises this loop alone
 * and at once (inside sweepPolicy the loop ran unoptimised for the tens of milliseconds its
 * optimising took, and the code after the loop dropped the optimised loop on first use).
 * @param cuts the plan's cuts; @param costs tokens kept at each; @param total tokens before
 * eviction; @param valid 1 where cut j gives a valid request (`planCutValidities`), returned as
 * the sweep's `valid`
 */
function walkCuts(
  cuts: Int32Array,
  costs: Float64Array,
  total: number,
  valid: Uint8Array,
): {
  valid: Uint8Array;
  budgetLo: Float64Array;
  budgetHi: Float64Array;
  invalidCuts: number[];
  invalidBudgets: [number, number][];
  bad: number;
  overshootSum: number;
  minBudget: number;
} {
  const m = cuts.length;
  // A cut's budgets start at its own cost: the same array (read-only, like every sweep array).
  const budgetLo = costs;
  const budgetHi = new Float64Array(m);
  const invalidCuts: number[] = [];
  const invalidBudgets: [number, number][] = [];
  let prevMin = Infinity;
  let bad = 0;
  let overshootSum = 0;
  let minBudget = total;
  let lastHArg = -1;
  let lastH = 0;
  for (let j = 0; j < m; j++) {
    const cost = costs[j] as number;
    const lo = cost;
    const hi = Math.min(total, prevMin - 1);
    prevMin = Math.min(prevMin, cost);
    budgetHi[j] = hi >= lo ? hi : -1;
    // No budget selects this cut; its validity (`valid[j]`) is still shown on the markers.
    if (hi < lo) continue;
    minBudget = Math.min(minBudget, lo);
    if (valid[j] !== 1) {
      invalidCuts.push(cuts[j] as number);
      bad += hi - lo + 1;
      const prev = invalidBudgets[invalidBudgets.length - 1];
      if (prev && prev[0] === hi + 1) prev[0] = lo;
      else invalidBudgets.push([lo, hi]);
    }
    // Σ over b in [lo, min(hi, total − 1)] of (total − cost) / (total − b). Adjacent intervals
    // share an end, so H(total − top − 1) is usually the previous interval's H(total − lo).
    const top = Math.min(hi, total - 1);
    if (top >= lo) {
      const upper = harmonic(total - lo);
      const lowerArg = total - top - 1;
      const lower = lowerArg === lastHArg ? lastH : harmonic(lowerArg);
      overshootSum += (total - cost) * (upper - lower);
      lastHArg = total - lo;
      lastH = upper;
    }
  }
  return { valid, budgetLo, budgetHi, invalidCuts, invalidBudgets, bad, overshootSum, minBudget };
}

/**
 * Sweep several policies over a prepared context (the page memoises the context).
 * @returns the total tokens and one PolicySweep per policy, in the order given
 */
export function sweepContext(
  ctx: EvictionContext,
  policies: readonly PolicyId[] = POLICIES,
  options: PolicyOptions = {},
): SweepResult {
  return { total: ctx.table.total, policies: policies.map((p) => sweepPolicy(ctx, p, options)) };
}

/**
 * Sweep every cut of every policy for a transcript.
 * @param t the transcript
 * @param table its TokenTable
 * @param provider whose rules decide valid vs 400
 * @param policies which policies (default: every registered policy)
 * @returns see `SweepResult`
 */
export function sweep(
  t: Transcript,
  table: TokenTable,
  provider: ProviderId,
  policies: readonly PolicyId[] = POLICIES,
  options: PolicyOptions = {},
  opts: Omit<ValidateOptions, 'messages'> = {},
): SweepResult {
  return sweepContext(prepareEviction(t, table, provider, opts), policies, options);
}
