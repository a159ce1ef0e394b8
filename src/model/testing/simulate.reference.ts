/**
 * The slow, obviously correct eviction: drop the oldest unit one at a time until the kept
 * messages fit, then validate the kept array from scratch. O(n) per dropped unit and O(n) per
 * validation. Used only to property-test the fast path (policies.ts + simulate.ts); never call it
 * from the page.
 */
import { groupExchanges, isPinned } from '../exchanges.ts';
import type { TokenTable } from '../tokens.ts';
import type { Message, ProviderId, Transcript } from '../types.ts';
import { validateTranscript, type ValidateOptions, type Validation } from '../validate/index.ts';
import { DEFAULT_SUMMARY_TOKENS, prepareEviction, summaryMessage } from '../evict/policies.ts';
import { editedMessages } from '../evict/rewrite.ts';
import { POLICY_REGISTRY } from '../evict/registry.ts';
import type { EvictionPolicy, PolicyId, PolicyOptions } from '../evict/types.ts';

export interface ReferenceResult {
  kept: number[];
  evicted: number[];
  tokensKept: number;
  fits: boolean;
  /** Whether a summary message was inserted. */
  summarised: boolean;
  validation: Validation;
}

/**
 * Run a policy the slow way.
 * @param budget tokens, system prompt included
 * @returns kept/evicted message indices (ours), tokens kept, fits, and the validation of the kept
 *   array (with the summary message inserted before the first kept message after the evicted ones)
 */
export function referencePolicy(
  t: Transcript,
  table: TokenTable,
  provider: ProviderId,
  policy: PolicyId,
  budget: number,
  options: PolicyOptions = {},
  opts: Omit<ValidateOptions, 'messages'> = {},
): ReferenceResult {
  const ms = t.messages;
  const n = ms.length;
  if (POLICY_REGISTRY[policy].rewrite)
    return referenceRewrite(t, table, provider, policy, budget, options, opts);
  const nonPinned = ms.filter((m) => !isPinned(m)).map((m) => m.index);
  const task = nonPinned[0];
  const def: EvictionPolicy = POLICY_REGISTRY[policy];
  const pinTask = def.keepsTask || (options.pinFirst === true && def.options.includes('pinFirst'));
  const protectedSet = new Set<number>();
  if (pinTask && task !== undefined) protectedSet.add(task);
  const exchanges = groupExchanges(ms).exchanges;
  const keepN = Math.max(1, Math.floor(options.keepNewestExchanges ?? 0));
  const newest = exchanges.slice(Math.max(0, exchanges.length - keepN));
  const floorStart =
    options.keepNewestExchanges && options.keepNewestExchanges > 0 && newest[0]
      ? newest[0].first
      : Infinity;

  // Units, oldest first; the newest unit is never dropped.
  let units = def.units(ms, exchanges, task);
  units = units.slice(0, Math.max(0, units.length - 1));
  units = units
    .map((u) => u.filter((i) => !protectedSet.has(i)))
    .filter((u) => u.length > 0 && u.every((i) => i < floorStart));

  const makeSummary = (tokens: number) =>
    def.summaryMessage ? def.summaryMessage(provider, tokens) : summaryMessage(null, tokens);
  const summaryTokens = def.summarises
    ? Math.max(0, options.summaryTokens ?? DEFAULT_SUMMARY_TOKENS)
    : 0;
  const dropped = new Set<number>();
  const cost = () => {
    let s = table.system;
    for (let i = 0; i < n; i++) if (!dropped.has(i)) s += table.perMessage[i] ?? 0;
    return s + (def.summarises && dropped.size > 0 ? summaryTokens : 0);
  };
  let u = 0;
  while (cost() > budget && u < units.length) {
    for (const i of units[u] as number[]) dropped.add(i);
    u++;
  }
  const kept: number[] = [];
  const evicted: number[] = [];
  const keptMsgs: Message[] = [];
  let sawDrop = false;
  let summaryPlaced = false;
  const summarised = def.summarises && dropped.size > 0;
  for (let i = 0; i < n; i++) {
    const m = ms[i] as Message;
    if (dropped.has(i)) {
      evicted.push(i);
      sawDrop = true;
      continue;
    }
    if (summarised && sawDrop && !summaryPlaced && !isPinned(m)) {
      keptMsgs.push(makeSummary(summaryTokens));
      summaryPlaced = true;
    }
    kept.push(i);
    keptMsgs.push(m);
  }
  if (summarised && !summaryPlaced) keptMsgs.push(makeSummary(summaryTokens));
  const tokensKept = cost();
  return {
    kept,
    evicted,
    tokensKept,
    fits: tokensKept <= budget,
    summarised,
    validation: validateTranscript(t, provider, { ...opts, messages: keptMsgs }),
  };
}

/**
 * A rewriting policy the slow way: its edits applied to copies of the messages, the tokens they
 * free taken off the total when the total is over the budget, the edited request validated.
 */
function referenceRewrite(
  t: Transcript,
  table: TokenTable,
  provider: ProviderId,
  policy: PolicyId,
  budget: number,
  options: PolicyOptions,
  opts: Omit<ValidateOptions, 'messages'>,
): ReferenceResult {
  const def = POLICY_REGISTRY[policy] as EvictionPolicy;
  const ctx = prepareEviction(t, table, provider, opts);
  const plan = (def.rewrite as NonNullable<EvictionPolicy['rewrite']>)(ctx, options);
  // The first step that fits, else the last (what a budget selects).
  const applied =
    plan.steps.find((s) => s.tokensKept <= budget) ?? plan.steps[plan.steps.length - 1];
  const step = applied as NonNullable<typeof applied>;
  let tokensKept = table.total;
  const gone = new Set(step.evicted);
  for (const i of gone) tokensKept -= table.perMessage[i] ?? 0;
  for (const e of step.edits) if (!gone.has(e.index)) tokensKept -= e.tokens;
  const keptMsgs = editedMessages(t.messages, step, t.format);
  return {
    kept: keptMsgs.map((m) => m.index),
    evicted: [...gone].sort((a, b) => a - b),
    tokensKept,
    fits: tokensKept <= budget,
    summarised: false,
    validation: validateTranscript(t, provider, { ...opts, messages: keptMsgs }),
  };
}

/**
 * Validate a cut the slow way: drop every non-pinned message before `k` (except `keep`) and
 * validate what is left.
 */
export function referenceCut(
  t: Transcript,
  provider: ProviderId,
  k: number,
  keep: ReadonlySet<number> = new Set(),
  opts: Omit<ValidateOptions, 'messages'> = {},
): Validation {
  const kept = t.messages.filter((m) => m.index >= k || isPinned(m) || keep.has(m.index));
  return validateTranscript(t, provider, { ...opts, messages: kept });
}
