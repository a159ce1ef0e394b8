/**
 * Contract of the eviction policies. A policy takes a transcript, its token table and a budget,
 * and says which messages it keeps. Each policy is one file in `policy/` (an `EvictionPolicy`)
 * and one entry in `registry.ts`; `policies.ts` runs them.
 */
import type { Exchange } from '../exchanges.ts';
import type { Message, ProviderId } from '../types.ts';
import type { RewritePlan } from './rewrite.ts';
import type { Validation } from '../validate/types.ts';
import type { EvictionContext } from './policies.ts';

export type { PolicyId } from './registry.ts';
import type { PolicyId } from './registry.ts';

/** What a policy may cut, from the prepared context: the fast plan's inputs. */
export interface PolicyCuts {
  /** Cut points it may use (message indices, ours), ascending. */
  candidates: Int32Array;
  /** The largest cut allowed (the newest unit is never evicted). */
  floor: number;
  /** Non-pinned messages kept before every cut, when the policy decides them itself. */
  head?: number[];
}

/**
 * One eviction policy: what it keeps, where it may cut, and the same rule the slow way for the
 * reference simulator (testing/simulate.reference.ts) that the property tests compare against.
 */
export interface EvictionPolicy {
  /** One line for the picker's title. */
  help: string;
  /**
   * The options the simulator offers for it beside `keepNewestExchanges` (which every policy
   * takes).
   */
  options: readonly ('pinFirst' | 'summaryTokens' | 'keepToolUses')[];
  /** Keeps the first non-pinned message (the task) whatever `pinFirst` says. */
  keepsTask: boolean;
  /** Replaces what it evicts with one summary message of `summaryTokens`. */
  summarises: boolean;
  /** A larger budget never evicts more. */
  monotone: boolean;
  /**
   * The message a summarising policy inserts before the cut (default: `summaryMessage`, a plain
   * user message). `provider-compaction` inserts the provider's own compaction block or item.
   */
  summaryMessage?: (provider: ProviderId, tokens: number) => Message;
  /**
   * True when, for this provider, the summary changes no verdict of a cut (the rules read past
   * it): a cut with it is valid exactly when the cut without it is. Lets the sweep use the cut's
   * cached validity.
   */
  summaryTransparent?: (provider: ProviderId) => boolean;
  /**
   * Policies that edit messages instead of (or besides) dropping them: their steps, each a kept
   * request with its edits (rewrite.ts). When set, `cuts` and `units` are not used.
   */
  rewrite?: (ctx: EvictionContext, options: PolicyOptions) => RewritePlan;
  /**
   * Fast: the cut points and the floor, from the context `prepareEviction` built.
   * @param task the first non-pinned message (ours)
   */
  cuts(ctx: EvictionContext, task: number): PolicyCuts;
  /**
   * Slow: the units it drops, oldest first, each a list of message indices (ours), before the
   * newest unit is set aside and protected messages are taken out.
   * @param task the first non-pinned message, if any
   */
  units(
    messages: readonly Message[],
    exchanges: readonly Exchange[],
    task: number | undefined,
  ): number[][];
}

export interface PolicyOptions {
  /** Keep message 0 (the task) whatever happens. */
  pinFirst?: boolean;
  /** Always keep the newest N exchanges. */
  keepNewestExchanges?: number;
  /** Size of the summary message for `summary`, in tokens. */
  summaryTokens?: number;
  /** `clear-tool-results`: the newest tool uses whose results stay (Anthropic `keep`, default 3). */
  keepToolUses?: number;
  /** `clear-tool-results`: not applied unless it frees at least this many tokens (`clear_at_least`). */
  clearAtLeast?: number;
  /** `clear-tool-results`: tools whose results are never cleared (`exclude_tools`). */
  excludeTools?: readonly string[];
  /** `clear-tool-results`: the cleared calls' inputs are cleared too (`clear_tool_inputs`). */
  clearToolInputs?: boolean;
}

/** One block a rewriting policy changed: its content replaced by a placeholder, or removed. */
export interface BlockEdit {
  /** The message (ours). */
  index: number;
  /** The block's position in that message's `blocks`. */
  block: number;
  kind: 'cleared' | 'cleared-input' | 'removed';
  /** Tokens it frees (an estimate: the block's share of its message's count by characters). */
  tokens: number;
}

export interface EvictionResult {
  policy: PolicyId;
  /** Budget in tokens (system prompt included). */
  budget: number;
  /** Tokens before eviction (system + all messages). */
  tokensBefore: number;
  /** Tokens kept (system + kept messages + summary, if any). */
  tokensKept: number;
  /** max(0, tokensBefore − budget). */
  deficit: number;
  /** tokensBefore − tokensKept. */
  freed: number;
  /** freed ÷ deficit (1 = exact fit; 6 = six times too much history dropped); null when deficit is 0. */
  overshoot: number | null;
  /** False when even the most the policy can drop does not bring it under budget. */
  fits: boolean;
  /** Message indices (ours) kept / evicted, ascending. */
  kept: number[];
  evicted: number[];
  /** Rewriting policies: the blocks they cleared or removed, in message order. */
  edits?: BlockEdit[];
  /** `summary` only: the index before which the summary message is inserted, and its size. */
  summary?: { before: number; tokens: number };
  provider: ProviderId;
  /** Validation of the kept request for the provider (paths renumbered as sent, raw indices kept). */
  validation: Validation;
}
