/**
 * The policy registry: one entry per eviction policy, in the order pickers, sweeps and the CLI
 * list them. Adding a policy is one file in `policy/` and one entry here; its id, the lists of
 * ids, its help line and the options the simulator offers for it all come from here.
 */
import { aiSdkPrunePolicy } from './policy/aiSdkPrune.ts';
import { clearToolResultsPolicy } from './policy/clearToolResults.ts';
import { exchangePolicy } from './policy/exchange.ts';
import { langchainTrimPolicy } from './policy/langchainTrim.ts';
import { messagePolicy } from './policy/message.ts';
import { messageKeepTaskPolicy } from './policy/messageKeepTask.ts';
import { providerCompactionPolicy } from './policy/providerCompaction.ts';
import { summaryPolicy } from './policy/summary.ts';
import { turnPairPolicy } from './policy/turnPair.ts';
import type { EvictionPolicy, PolicyOptions } from './types.ts';

export const POLICY_REGISTRY = {
  message: messagePolicy,
  'message-keep-task': messageKeepTaskPolicy,
  exchange: exchangePolicy,
  'turn-pair': turnPairPolicy,
  summary: summaryPolicy,
  'clear-tool-results': clearToolResultsPolicy,
  'provider-compaction': providerCompactionPolicy,
  'ai-sdk-prune': aiSdkPrunePolicy,
  'langchain-trim': langchainTrimPolicy,
} as const satisfies Record<string, EvictionPolicy>;

/** An eviction policy's id: a key of the registry. */
export type PolicyId = keyof typeof POLICY_REGISTRY;

/** Every policy id, in registry order. */
export const POLICIES = Object.keys(POLICY_REGISTRY) as readonly PolicyId[];

/** Policies for which a larger budget never evicts more. */
export const MONOTONE_POLICIES: readonly PolicyId[] = POLICIES.filter(
  (id) => POLICY_REGISTRY[id].monotone,
);

/** True for a registered policy id. */
export function isPolicyId(id: unknown): id is PolicyId {
  return typeof id === 'string' && Object.hasOwn(POLICY_REGISTRY, id);
}

/**
 * How each policy option is written in a link: its key (the compared policy's keys end in `2`)
 * and what a notice calls it when its value is refused.
 */
export const POLICY_OPTION_KEYS: Record<keyof PolicyOptions, { key: string; what: string }> = {
  pinFirst: { key: 'pin', what: 'the pin-first option' },
  keepNewestExchanges: { key: 'keep', what: 'the keep-newest option' },
  summaryTokens: { key: 'sum', what: 'the summary size' },
  keepToolUses: { key: 'kt', what: 'the tool uses kept' },
  clearAtLeast: { key: 'cal', what: 'the least tokens to clear' },
  excludeTools: { key: 'xt', what: 'the tools never cleared' },
  clearToolInputs: { key: 'cti', what: 'the clear-inputs option' },
};
