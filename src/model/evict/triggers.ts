/**
 * What-if triggers besides a chosen budget (issue 39): the events that make an agent compact,
 * each turned into the budget it implies, so every policy can be run "as if" it happened.
 *
 * - `retry-413`: the provider refused the request as too large (HTTP 413, a size limit in bytes;
 *   opencode and the GitHub Copilot SDK then compact and retry). The retry must fit the limit:
 *   the budget is the share of the tokens that the limit is of the body's bytes (tokens scale
 *   with bytes; an estimate, said so in the row's note).
 * - `smaller-window`: the session moves to a model with a smaller context window; the budget is
 *   that window less the tokens kept for the reply (`max_tokens`).
 */
import { simulatePolicy, type EvictionContext, type PolicyResult } from './policies.ts';
import type { PolicyId, PolicyOptions } from './types.ts';

/** Anthropic's documented size limit of a Messages API request, in bytes (32 MB). */
export const ANTHROPIC_REQUEST_LIMIT_BYTES = 32 * 1024 * 1024;

export type Trigger =
  | { kind: 'retry-413'; limitBytes: number; bodyBytes: number }
  | { kind: 'smaller-window'; window: number; reserve: number };

/** One what-if row: the trigger, the budget it implies, and each policy's result there. */
export interface WhatIfRow {
  trigger: Trigger;
  /** `413 retry (32 MB limit)`, `smaller window (200,000 tokens)`. */
  label: string;
  /** Tokens. */
  budget: number;
  /** Whether the event happens at all for this request (a body under the limit gets no 413). */
  happens: boolean;
  note: string;
  results: PolicyResult[];
}

/**
 * The budget a trigger implies for a request of `total` tokens.
 * @returns tokens (an integer ≥ 0) and whether the event happens for this request
 */
export function triggerBudget(
  total: number,
  trigger: Trigger,
): { budget: number; happens: boolean } {
  if (trigger.kind === 'smaller-window') {
    const budget = Math.max(0, Math.floor(trigger.window - trigger.reserve));
    return { budget, happens: total > budget };
  }
  if (trigger.bodyBytes <= trigger.limitBytes) return { budget: total, happens: false };
  return {
    budget: Math.max(0, Math.floor((total * trigger.limitBytes) / trigger.bodyBytes)),
    happens: true,
  };
}

const MB = 1024 * 1024;

/** The row's label and note, in the simulator's words. */
function describe(
  trigger: Trigger,
  budget: number,
  happens: boolean,
): { label: string; note: string } {
  if (trigger.kind === 'smaller-window')
    return {
      label: `smaller window (${trigger.window.toLocaleString('en-US')} tokens)`,
      note: happens
        ? `A model with a ${trigger.window.toLocaleString('en-US')}-token window, ${trigger.reserve.toLocaleString('en-US')} kept for the reply: ${budget.toLocaleString('en-US')} tokens of history.`
        : 'The request already fits that window: nothing to compact.',
    };
  return {
    label: `413 retry (${(trigger.limitBytes / MB).toFixed(0)} MB limit)`,
    note: happens
      ? `The body (${(trigger.bodyBytes / MB).toFixed(1)} MB) is over the limit; the retry keeps about ${budget.toLocaleString('en-US')} tokens (tokens scaled by bytes: an estimate).`
      : 'The body is under the limit: no 413.',
  };
}

/**
 * What-if rows: each trigger's budget and every given policy's result there.
 * @param ctx from `prepareEviction`
 * @param policies with their options, in the order the row lists them
 */
export function whatIfRows(
  ctx: EvictionContext,
  triggers: readonly Trigger[],
  policies: readonly { id: PolicyId; options?: PolicyOptions }[],
): WhatIfRow[] {
  return triggers.map((trigger) => {
    const { budget, happens } = triggerBudget(ctx.table.total, trigger);
    return {
      trigger,
      ...describe(trigger, budget, happens),
      budget,
      happens,
      results: policies.map((p) => simulatePolicy(ctx, p.id, budget, p.options ?? {})),
    };
  });
}
