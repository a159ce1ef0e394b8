/**
 * What an eviction evicts, message by message: the budget a simulator applies, per-message
 * evicted flags (one bit per compared policy), how many messages a result evicted, and how each
 * tool pair fares (kept, cut — one end evicted, now broken — or gone).
 */
import { isBroken, type ToolPair } from '../pairing.ts';
import { cutPlan, type EvictionContext } from './policies.ts';
import type { RewritePlan } from './rewrite.ts';
import type { PolicyId, PolicyOptions } from './types.ts';

/**
 * The budget the simulator applies: the store's budget, clamped to [0, total]; the transcript's
 * total (nothing evicted) while none is chosen. Tokens.
 */
export function effectiveBudget(budget: number | null, total: number): number {
  if (budget === null || !Number.isFinite(budget)) return total;
  return Math.max(0, Math.min(total, Math.round(budget)));
}

/**
 * Per-message eviction flags: bit 1 = evicted by the primary policy, bit 2 = by the compared one,
 * bit 4 = kept by the primary policy with a block of it cleared (a rewriting policy's edit:
 * clear-tool-results, ai-sdk-prune).
 */
export const EVICTED_PRIMARY = 1;
export const EVICTED_COMPARED = 2;
export const EDITED_PRIMARY = 4;

/**
 * Set `bit` on every message before `cut` except pinned ones and the plan's head (as `resultAt`
 * lists them); for a rewriting plan (`rewrite`), on the messages its step drops.
 */
export function markEvicted(
  ctx: EvictionContext,
  flags: Uint8Array,
  cut: number,
  head: readonly number[],
  bit: number,
  rewrite?: RewritePlan,
): void {
  if (rewrite) {
    // A rewriting plan's cut is a step id (−steps … −1): the step lists what it drops.
    for (const i of rewrite.steps[rewrite.steps.length + cut]?.evicted ?? [])
      flags[i] = (flags[i] as number) | bit;
    return;
  }
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
export function evictedCount(
  ctx: EvictionContext,
  choice: { id: PolicyId; options: PolicyOptions },
  cut: number,
): number {
  const plan = cutPlan(ctx, choice.id, choice.options);
  if (plan.rewrite) return plan.rewrite.steps[plan.rewrite.steps.length + cut]?.evicted.length ?? 0;
  const pinned = ctx.cuts.pinned;
  let lo = 0;
  let hi = pinned.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((pinned[mid] as number) < cut) lo = mid + 1;
    else hi = mid;
  }
  let head = 0;
  for (const h of plan.head) if (h < cut) head++;
  return Math.max(0, Math.min(cut, ctx.cuts.n) - lo - head);
}

/** How a policy's eviction affects one tool_use→tool_result pair. */
export type PairEviction = 'kept' | 'cut' | 'gone';

/**
 * A pair's eviction state under the flags of one policy (`bit`): `kept` when neither end is
 * evicted, `gone` when every end it has is, else `cut`.
 */
export function pairEviction(p: ToolPair, flags: Uint8Array, bit: number): PairEviction {
  const gone = (end: 'call' | 'result') => {
    const ref = p[end];
    return ref !== null && ((flags[ref.message] ?? 0) & bit) !== 0;
  };
  const c = gone('call');
  const r = gone('result');
  if (!c && !r) return 'kept';
  return (c || p.call === null) && (r || p.result === null) ? 'gone' : 'cut';
}

/**
 * The pair as the kept request has it: a pair cut by the eviction whose call was evicted becomes
 * an `orphan`, one whose result was evicted `unanswered`; a pair already broken (except answered
 * late) and every other pair are returned as they are.
 */
export function pairAfterEviction(p: ToolPair, flags: Uint8Array, bit: number): ToolPair {
  if (pairEviction(p, flags, bit) !== 'cut') return p;
  if (isBroken(p) && p.status !== 'answered_late') return p;
  const callGone = p.call !== null && ((flags[p.call.message] ?? 0) & bit) !== 0;
  return { ...p, status: callGone ? 'orphan' : 'unanswered' };
}
