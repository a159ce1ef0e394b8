/**
 * Structure and rewrites of a request body: exchanges, turn pairs, eviction to a token budget and
 * repair. Each reads the body as `check` does and writes results in the body's own format.
 */
import { keptTranscript } from '../model/exportSummary.ts';
import {
  groupExchanges as groupMessages,
  turnPairs as pairTurns,
  type Exchange,
  type TurnPair,
} from '../model/exchanges.ts';
import { POLICIES, prepareEviction, simulatePolicy } from '../model/evict/policies.ts';
import type { BlockEdit, PolicyId, PolicyOptions } from '../model/evict/types.ts';
import { repairTranscript, type RepairChange, type Unrepaired } from '../model/repair.ts';
import { countTokensCached, TokenCache } from '../model/tokenCache.ts';
import { CHARS_PER_4, loadBpeCounter, type TextCounter } from '../model/tokens.ts';
import type { Message, ProviderId, Transcript } from '../model/types.ts';
import { defaultProviderOf, type Violation } from '../model/validate/index.ts';
import { writeTranscript } from '../model/write.ts';
import { knownProvider, read, type Body, type ReadOptions } from './read.ts';

export type { Exchange, TurnPair, PolicyId, RepairChange, Unrepaired };

/** A message as the structure functions list it: our index, its place in the body, its role. */
export interface MessageRef {
  /** Our index (what `Exchange.messages` and `TurnPair` hold). */
  index: number;
  /**
   * Its number in the body, from 0: the position in the body's list (`messages`, `input`,
   * `contents`), or for a log its position among the messages read from it.
   */
  rawIndex: number;
  /** Where it sits in the body, e.g. `messages.3`, or a log's file lines (`lines 4–5`). */
  path: string;
  role: Message['role'];
}

const refs = (t: Transcript): MessageRef[] =>
  t.messages.map((m) => ({ index: m.index, rawIndex: m.rawIndex, path: m.path, role: m.role }));

/**
 * Exchanges: a user request with every assistant turn and tool result up to the next request,
 * the safe unit of eviction (system messages are pinned outside them).
 * @returns `exchanges` (message indices, ours) and `messages` to map them to body positions
 * @throws UnreadableTranscriptError when the body is not a transcript
 * @example
 * const { exchanges, messages } = groupExchanges(body);
 * exchanges.map((x) => x.messages.map((i) => messages[i].path)); // [['messages.0', 'messages.1', …], …]
 */
export function groupExchanges(
  body: Body,
  opts: ReadOptions = {},
): { exchanges: Exchange[]; messages: MessageRef[] } {
  const t = read(body, opts).transcript;
  return { exchanges: groupMessages(t.messages).exchanges, messages: refs(t) };
}

/**
 * Turn pairs: each assistant message with the user or tool messages after it, up to the next
 * assistant message (the unit of the `turn-pair` policy).
 * @returns pairs of message indices (ours) and `messages` to map them to body positions
 * @throws UnreadableTranscriptError when the body is not a transcript
 * @example
 * turnPairs(body).pairs; // [{ assistant: 1, replies: [2] }, { assistant: 3, replies: [] }]
 */
export function turnPairs(
  body: Body,
  opts: ReadOptions = {},
): { pairs: TurnPair[]; messages: MessageRef[] } {
  const t = read(body, opts).transcript;
  return { pairs: pairTurns(t.messages), messages: refs(t) };
}

export interface EvictOptions extends ReadOptions, PolicyOptions {
  /**
   * `message`, `message-keep-task`, `exchange`, `turn-pair`, `summary`, `clear-tool-results`
   * (with `keepToolUses`, `clearAtLeast`, `excludeTools`, `clearToolInputs`),
   * `provider-compaction`, `ai-sdk-prune` or `langchain-trim`.
   */
  policy: PolicyId;
  /** Budget in tokens, system prompt included. */
  budget: number;
  /**
   * How tokens are counted: `exact` (default: o200k BPE, scaled for Claude and Gemini as the CLI
   * and the page do; loads gpt-tokenizer), `estimate` (characters ÷ 4) or your own counter.
   */
  count?: 'exact' | 'estimate' | ((text: string) => number);
  /** Whose rules validate the kept request (default: the format's own provider). */
  provider?: ProviderId;
}

export interface EvictResult<B> {
  /** The cut request in the input's own format: an object for an object, text for text. */
  body: B;
  /** Kept and evicted messages (ours; map with `messages`). */
  kept: number[];
  evicted: number[];
  /** Rewriting policies: the blocks cleared or removed (message ours, block position in it). */
  edits?: BlockEdit[];
  messages: MessageRef[];
  tokensBefore: number;
  tokensKept: number;
  /** False when the policy cannot drop enough to fit the budget. */
  fits: boolean;
  /** Tokens freed ÷ tokens that had to go (1 = exact fit); null when nothing had to go. */
  overshoot: number | null;
  /** Whether the provider accepts the kept request, and if not its violations and exact 400. */
  valid: boolean;
  violations: Violation[];
  firstError: unknown;
  provider: ProviderId;
}

/**
 * Evict to a token budget with one policy, as `npm run cli -- simulate` does, and return the cut
 * request in the input's own format with the provider's verdict on it.
 * @throws UnreadableTranscriptError when the body is not a transcript; RangeError for an
 *   unknown policy or a negative budget
 * @example
 * const cut = await evict(body, { policy: 'message', budget: 8000 });
 * cut.valid;      // false: dropping the oldest message orphaned a tool_result
 * cut.firstError; // the provider's exact 400 body
 * const safe = await evict(body, { policy: 'exchange', budget: 8000 });
 * await client.messages.create(safe.body); // valid, under budget
 */
export async function evict<B>(body: B, opts: EvictOptions): Promise<EvictResult<B>> {
  if (!POLICIES.includes(opts.policy))
    throw new RangeError(`unknown policy "${opts.policy}"; known: ${POLICIES.join(', ')}`);
  if (!(opts.budget >= 0)) throw new RangeError(`budget must be a number ≥ 0 (tokens)`);
  const t = read(body, opts).transcript;
  const provider = knownProvider(opts.provider) ?? defaultProviderOf(t);
  const counter = await counterFor(opts.count);
  const table = countTokensCached(t, provider, counter, new TokenCache(), { preferUsage: true });
  const options: PolicyOptions = {
    ...(opts.pinFirst !== undefined ? { pinFirst: opts.pinFirst } : {}),
    ...(opts.keepNewestExchanges !== undefined
      ? { keepNewestExchanges: opts.keepNewestExchanges }
      : {}),
    ...(opts.summaryTokens !== undefined ? { summaryTokens: opts.summaryTokens } : {}),
    ...(opts.keepToolUses !== undefined ? { keepToolUses: opts.keepToolUses } : {}),
    ...(opts.clearAtLeast !== undefined ? { clearAtLeast: opts.clearAtLeast } : {}),
    ...(opts.excludeTools !== undefined ? { excludeTools: opts.excludeTools } : {}),
    ...(opts.clearToolInputs !== undefined ? { clearToolInputs: opts.clearToolInputs } : {}),
  };
  const r = simulatePolicy(prepareEviction(t, table, provider), opts.policy, opts.budget, options);
  return {
    body: sameShape(body, writeTranscript(keptTranscript(t, r))),
    kept: r.kept,
    evicted: r.evicted,
    ...(r.edits ? { edits: r.edits } : {}),
    messages: refs(t),
    tokensBefore: r.tokensBefore,
    tokensKept: r.tokensKept,
    fits: r.fits,
    overshoot: r.overshoot,
    valid: r.validation.valid,
    violations: r.validation.violations,
    firstError: r.firstError?.error ?? null,
    provider,
  };
}

export interface RepairOptions extends ReadOptions {
  /** Whose rules to repair for (default: the format's own provider). */
  provider?: ProviderId;
}

export interface RepairResult<B> {
  /** The repaired request in the input's own format: an object for an object, text for text. */
  body: B;
  /** Each change: an error result for an unanswered call, an orphan re-attached or dropped, … */
  changes: RepairChange[];
  /** What cannot be repaired without inventing content (a stripped thinking block), explained. */
  unrepaired: Unrepaired[];
  /** Whether the provider accepts the repaired request, and its remaining violations. */
  valid: boolean;
  violations: Violation[];
  provider: ProviderId;
}

/**
 * Repair what the agent loop should have done (as `npm run cli -- repair`): an error result for
 * every unanswered call, orphan results re-attached or dropped with their exchange, text moved
 * after the results, replayed turns and duplicate results removed.
 * @throws UnreadableTranscriptError when the body is not a transcript
 * @example
 * const fixed = repair(body);
 * fixed.changes.map((c) => c.kind); // ['add_error_result']
 * await client.messages.create(fixed.body);
 */
export function repair<B>(body: B, opts: RepairOptions = {}): RepairResult<B> {
  const t = read(body, opts).transcript;
  const r = repairTranscript(t, knownProvider(opts.provider));
  return {
    body: sameShape(body, writeTranscript(r.transcript)),
    changes: r.changes,
    unrepaired: r.unrepaired,
    valid: r.validation.valid,
    violations: r.validation.violations,
    provider: r.provider,
  };
}

/**
 * The written request in the input's shape: text for text, UTF-8 bytes for bytes, the parsed
 * value for a parsed value. A request read from a container (HAR, curl, batch) is that request's
 * body, as the CLI writes it.
 */
function sameShape<B>(input: B, text: string): B {
  if (typeof input === 'string') return text as B;
  if (input instanceof ArrayBuffer) return new TextEncoder().encode(text).buffer as B;
  if (ArrayBuffer.isView(input)) return new TextEncoder().encode(text) as B;
  return JSON.parse(text) as B;
}

async function counterFor(count: EvictOptions['count']): Promise<TextCounter> {
  if (count === 'estimate') return CHARS_PER_4;
  if (typeof count === 'function') return { encoding: 'custom', count };
  return loadBpeCounter();
}
