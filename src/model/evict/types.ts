/**
 * Contract of the eviction policies (implemented in `policies.ts`). A policy takes a transcript,
 * its token table and a budget, and says which messages it keeps.
 */
import type { ProviderId } from '../types.ts';
import type { Validation } from '../validate/types.ts';

export type PolicyId = 'message' | 'message-keep-task' | 'exchange' | 'turn-pair' | 'summary';

export interface PolicyOptions {
  /** Keep message 0 (the task) whatever happens. */
  pinFirst?: boolean;
  /** Always keep the newest N exchanges. */
  keepNewestExchanges?: number;
  /** Size of the summary message for `summary`, in tokens. */
  summaryTokens?: number;
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
  /** `summary` only: the index before which the summary message is inserted, and its size. */
  summary?: { before: number; tokens: number };
  provider: ProviderId;
  /** Validation of the kept request for the provider (paths renumbered as sent, raw indices kept). */
  validation: Validation;
}
