/**
 * Rewriting policies: policies that edit blocks (clear a tool result's content, remove reasoning
 * or tool parts) instead of, or besides, dropping whole messages. Their plan is a short list of
 * steps, `steps[0]` the request unchanged; a step costs fewer tokens than the one before it, so a
 * budget selects the first step that fits, as a cut plan's budget selects its first cut.
 *
 * The kept request of a step is validated directly (`validateTranscript` over the edited
 * messages), once per step and cached: these plans have two steps, so a sweep validates twice.
 */
import { countableFixed, countableLength, countableText } from '../tokens.ts';
import type { Block, FormatId, Message } from '../types.ts';
import {
  chainValidation,
  validateTranscript,
  type ChainValidator,
  type Validation,
  type Violation,
} from '../validate/index.ts';
import type { EvictionContext } from './policies.ts';
import type { BlockEdit } from './types.ts';

/** The text a cleared tool result carries (LangChain's default placeholder for the same edit). */
export const CLEARED_PLACEHOLDER = '[cleared]';

/**
 * One step of a rewriting plan: what it edits and drops, and what is left. `edits` and
 * `evicted` may be getters that list them on first read (a sweep reads only `tokensKept` and the
 * verdict).
 */
export interface RewriteStep {
  /** Blocks cleared or removed, in message order. */
  edits: BlockEdit[];
  /** Messages (ours) dropped whole, ascending. */
  evicted: number[];
  /** Tokens the step keeps (system + messages − freed by edits − dropped messages). */
  tokensKept: number;
  /** A message (ours) to mark on the timeline: the last edited or dropped one. */
  marker: number;
}

/** A rewriting policy's plan (independent of the budget). */
export interface RewritePlan {
  /** Steps, `steps[0]` the request unchanged; tokensKept strictly decreasing after it. */
  steps: RewriteStep[];
  /**
   * The validation of step j's request when the policy can derive it without validating the
   * edited messages (clear-tool-results: content edits change no structure); else undefined.
   * simulate.reference.ts validates the edited messages directly, and the property tests hold
   * both equal.
   */
  derive?: (j: number) => Validation | undefined;
  /**
   * Step j's request's messages (j > 0), when the policy builds them more cheaply than from its
   * edits (`editedMessages`); the same messages, validated directly.
   */
  messages?: (j: number) => Message[];
  /** Whether step j's request is valid, when the policy knows it cheaply; else undefined. */
  valid?: (j: number) => boolean | undefined;
  /**
   * The rule of step j's first error (`firstErrorOf(stepValidation(…))?.rule`; null when it is
   * valid), when the policy knows it without building the step's whole validation (a fleet
   * scan keeps the rule alone); else undefined.
   */
  firstRule?: (j: number) => string | null | undefined;
  /** @internal verdicts by step, computed on first use */
  verdicts?: (Validation | undefined)[];
}

/**
 * Characters a block counts as: its countable text (`countableText`), plus 4 per fixed token,
 * summed without building the text for the common block types.
 */
export function blockWeight(b: Block): number {
  switch (b.type) {
    case 'text':
      return b.text.length;
    case 'thinking':
      return b.thinking.length;
    case 'tool_result': {
      let w = 0;
      for (const c of b.content) w += blockWeight(c);
      return w;
    }
    default: {
      // A tool call's text is its input as JSON: built once per block (blocks are not edited in
      // place; a session log's calls share them, and a sweep asks again per step).
      let w = WEIGHTS.get(b);
      if (w === undefined) {
        const c = countableText(b);
        w = c.text.length + 4 * c.fixed;
        WEIGHTS.set(b, w);
      }
      return w;
    }
  }
}

/** `blockWeight` of the blocks it builds a text for, by block. */
const WEIGHTS = new WeakMap<Block, number>();

/** The summed `blockWeight` of a message's blocks, by its block list (shared by its copies). */
const MESSAGE_WEIGHTS = new WeakMap<readonly Block[], number>();

function messageWeight(blocks: readonly Block[]): number {
  let total = MESSAGE_WEIGHTS.get(blocks);
  if (total === undefined) {
    total = 0;
    for (const b of blocks) total += blockWeight(b);
    MESSAGE_WEIGHTS.set(blocks, total);
  }
  return total;
}

/**
 * Tokens of the placeholder a cleared result carries (`[cleared]`: 4 with o200k, which
 * rewrite.test.ts checks), subtracted from what clearing a result frees.
 */
export const CLEARED_PLACEHOLDER_TOKENS = 4;

/**
 * Tokens a block of a message holds: the token table's per-block count (`TokenTable.blocks`, the
 * counts its per-message figure sums), so an edit frees what the count says the block costs. A
 * message counted as a whole (its usage figure from the log) or a table without per-block counts
 * falls back to the block's share of the message's count by characters (`blockWeight`).
 * O(1) on the counted path (no allocation: the sweep asks once per edited block).
 * @param ctx the eviction context (its token table)
 * @param m the message
 * @param block the block's position in the message
 * @returns tokens (0 for a position past its blocks)
 */
export function blockTokens(ctx: EvictionContext, m: Message, block: number): number {
  if (block < 0 || block >= m.blocks.length) return 0;
  const per = ctx.table.blocks;
  if (per) {
    const at = per.start[m.index] as number;
    if (per.start[m.index + 1] === at + m.blocks.length) {
      const v = per.tokens[at + block] as number;
      if (v >= 0) return v;
    }
  }
  const total = messageWeight(m.blocks);
  if (total === 0) return 0;
  const perMessage = ctx.table.perMessage[m.index] ?? 0;
  return Math.round((perMessage * blockWeight(m.blocks[block] as Block)) / total);
}

/**
 * Σ `blockTokens(ctx, m, j)` over the blocks j of `m` whose flag `stays[at + j]` is not 1: what
 * removing them frees. Where a block has no count of its own (a reply counted from its usage
 * figure), the message's block weights (`blockWeight`: countable length + 4 per fixed token) are
 * summed once here, not looked up block by block in `blockWeight`'s and `messageWeight`'s
 * WeakMaps (issue 38: ai-sdk-prune removes every tool call of a session log, most of them in
 * such replies, and those lookups were most of its plan in the first sweep).
 * @param ctx the eviction context (its token table); @param m the message
 * @param stays per block, 1 where it stays; @param at where m's first block's flag is
 * @returns tokens (an integer, as the sum of `blockTokens`)
 */
export function blockTokensGone(
  ctx: EvictionContext,
  m: Message,
  stays: Uint8Array,
  at: number,
): number {
  const blocks = m.blocks;
  const n = blocks.length;
  const per = ctx.table.blocks;
  const first = per ? (per.start[m.index] as number) : 0;
  const counted = per !== undefined && per.start[m.index + 1] === first + n;
  let weights: number[] | null = null;
  let total = 0;
  let sum = 0;
  for (let j = 0; j < n; j++) {
    if (stays[at + j] === 1) continue;
    if (counted) {
      const v = (per as NonNullable<typeof per>).tokens[first + j] as number;
      if (v >= 0) {
        sum += v;
        continue;
      }
    }
    if (weights === null) {
      weights = new Array<number>(n);
      for (let k = 0; k < n; k++) {
        const b = blocks[k] as Block;
        const w = countableLength(b) + 4 * countableFixed(b);
        weights[k] = w;
        total += w;
      }
    }
    if (total === 0) continue;
    const perMessage = ctx.table.perMessage[m.index] ?? 0;
    sum += Math.round((perMessage * (weights[j] as number)) / total);
  }
  return sum;
}

/**
 * Formats whose tool result is an object (Gemini's `functionResponse.response`): a result there
 * holds JSON text, and plain text is wrapped in `{output}` or `{error}` when written
 * (geminiWrite.ts, geminiCliWrite.ts).
 */
const OBJECT_RESULT_FORMATS: ReadonlySet<FormatId> = new Set<FormatId>(['gemini']);

/**
 * True when a tool result already carries the placeholder (`clearedResult`'s, in either shape).
 */
export function isClearedResult(b: Block): boolean {
  if (b.type !== 'tool_result' || b.content.length !== 1) return false;
  const c = b.content[0];
  if (c?.type !== 'text') return false;
  return c.text === CLEARED_PLACEHOLDER || c.text === CLEARED_OUTPUT || c.text === CLEARED_ERROR;
}

/** The placeholder as a Gemini result object, for a result and for an error result. */
const CLEARED_OUTPUT = JSON.stringify({ output: CLEARED_PLACEHOLDER });
const CLEARED_ERROR = JSON.stringify({ error: CLEARED_PLACEHOLDER });

/**
 * A tool result's content as the placeholder (the pair, its id and its error flag stay); in a
 * format whose results are objects, the placeholder as such an object (`{"output": …}`, or
 * `{"error": …}` for an error result), so the request as written is the one counted.
 */
function clearedResult(b: Block, format: FormatId | undefined): Block {
  if (b.type !== 'tool_result') return b;
  const text =
    format !== undefined && OBJECT_RESULT_FORMATS.has(format)
      ? b.isError
        ? CLEARED_ERROR
        : CLEARED_OUTPUT
      : CLEARED_PLACEHOLDER;
  return { ...b, content: [{ type: 'text', text }] };
}

/**
 * The request a step leaves: messages with their edits applied (a cleared result carries the
 * placeholder, a cleared input is `{}`, a removed block is gone), dropped messages left out.
 * Pinned messages stay in place. Each kept message keeps its `index`.
 * @param format the transcript's format (the placeholder's shape; plain text when absent)
 */
export function editedMessages(
  messages: readonly Message[],
  step: Pick<RewriteStep, 'edits' | 'evicted'>,
  format?: FormatId,
): Message[] {
  // Edits and drops come in message order (ascending index, then block): one walk over both.
  const { edits, evicted } = step;
  const out: Message[] = [];
  let e = 0;
  let d = 0;
  for (const m of messages) {
    while (d < evicted.length && (evicted[d] as number) < m.index) d++;
    if (evicted[d] === m.index) continue;
    while (e < edits.length && (edits[e] as BlockEdit).index < m.index) e++;
    if (e >= edits.length || (edits[e] as BlockEdit).index !== m.index) {
      out.push(m);
      continue;
    }
    const blocks: Block[] = [];
    for (let i = 0; i < m.blocks.length; i++) {
      const b = m.blocks[i] as Block;
      const ed = edits[e];
      if (!ed || ed.index !== m.index || ed.block !== i) {
        blocks.push(b);
        continue;
      }
      e++;
      if (ed.kind === 'cleared') blocks.push(clearedResult(b, format));
      else if (ed.kind === 'cleared-input' && b.type === 'tool_use')
        blocks.push({ ...b, input: {} });
      else if (ed.kind !== 'removed') blocks.push(b);
    }
    out.push({ ...m, blocks });
  }
  return out;
}

/**
 * One rewriting policy's step validations along a chain of requests (a fleet scan's session
 * log, issue 40): the requests' edited messages validated by one `chainValidation`, which
 * resumes after the messages a step's request shares with the one it validated last. A policy
 * that edits only its request's history (ai-sdk-prune: every message before the last two) writes
 * the same edited copies call after call; `copies` keeps the copy last written of each message,
 * so a copy equal to it (every field and block the same objects) is passed as that one and the
 * chain sees the requests share their heads.
 */
export interface StepChain {
  validate: ChainValidator;
  /** The copy last written of each message (ours), by the message. */
  copies: WeakMap<Message, Message>;
}

/** A new `StepChain`: one per policy per chain of requests. */
export function stepChain(): StepChain {
  return { validate: chainValidation(), copies: new WeakMap() };
}

/**
 * True when copy `a` has the same fields as `b` (own enumerable keys, as `Object.keys` lists
 * them), its blocks the same objects. Counts the keys instead of listing them: a scan compares
 * the copies of every rewriting step of every request.
 */
function sameCopy(a: Message, b: Message): boolean {
  if (a.blocks.length !== b.blocks.length) return false;
  for (let i = 0; i < a.blocks.length; i++) if (a.blocks[i] !== b.blocks[i]) return false;
  let count = 0;
  for (const k in a) {
    if (!Object.hasOwn(a, k)) continue;
    count++;
    if (k !== 'blocks' && a[k as keyof Message] !== b[k as keyof Message]) return false;
  }
  for (const k in b) if (Object.hasOwn(b, k)) count--;
  return count === 0;
}

/**
 * `messages` with each copy of a request's message replaced by the copy `chain` kept of that
 * message when the two are equal (`sameCopy`); the others are kept for the next request.
 * @param originals the request's messages, by position (`Message.index`)
 */
function sharedCopies(
  chain: StepChain,
  originals: readonly Message[],
  messages: readonly Message[],
): Message[] {
  const out = new Array<Message>(messages.length);
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i] as Message;
    const o = originals[m.index];
    if (o === undefined || o === m) {
      out[i] = m;
      continue;
    }
    const kept = chain.copies.get(o);
    if (kept !== undefined && sameCopy(m, kept)) out[i] = kept;
    else {
      chain.copies.set(o, m);
      out[i] = m;
    }
  }
  return out;
}

/**
 * The validation of a step's kept request, cached on the plan.
 * @param chain the policy's `StepChain` when the request is one of a chain's (a fleet scan):
 *   the same verdict, resumed from the request validated before
 * @returns the provider's verdict over the edited messages (paths as sent)
 */
export function stepValidation(
  ctx: EvictionContext,
  plan: RewritePlan,
  j: number,
  chain?: StepChain,
): Validation {
  plan.verdicts ??= [];
  let v = plan.verdicts[j];
  if (!v) {
    const step = plan.steps[j] as RewriteStep;
    // Only the first step may leave the request as it is (the steps after it free tokens), so a
    // later step's edits, perhaps a getter, are not listed just to see that they are there.
    v =
      j === 0 && step.edits.length === 0 && step.evicted.length === 0
        ? ctx.cuts.full
        : (plan.derive?.(j) ?? editedValidation(ctx, plan, j, chain));
    plan.verdicts[j] = v;
  }
  return v;
}

/** Step j's request validated: whole, or along the chain's requests (`StepChain`). */
function editedValidation(
  ctx: EvictionContext,
  plan: RewritePlan,
  j: number,
  chain: StepChain | undefined,
): Validation {
  const t = ctx.cuts.t;
  const edited =
    plan.messages?.(j) ?? editedMessages(t.messages, plan.steps[j] as RewriteStep, t.format);
  const opts = {
    ...ctx.cuts.opts,
    // A subset of unique ids is unique: the duplicate-id rule need not build its set.
    ...(uniqueIds(ctx) ? { uniqueToolUseIds: true } : {}),
  };
  if (chain === undefined)
    return validateTranscript(t, ctx.cuts.provider, { ...opts, messages: edited });
  return chain.validate(t, ctx.cuts.provider, {
    ...opts,
    messages: sharedCopies(chain, t.messages, edited),
  });
}

/** True when the whole request has no duplicate tool_use id (so no part of it has one). */
function uniqueIds(ctx: EvictionContext): boolean {
  for (const v of ctx.cuts.full.violations) if (v.rule === 'duplicate_tool_use_id') return false;
  return true;
}

/** The first error of a validation (the 400 a request gets), or null. */
export function firstErrorOf(v: Validation): Violation | null {
  return v.violations.find((x) => x.severity === 'error') ?? null;
}

/**
 * A two-step plan: the request unchanged, then the request with `edits` applied and `evicted`
 * dropped. When the edits free nothing, the plan has the first step only.
 */
export function twoStepPlan(
  ctx: EvictionContext,
  edits: BlockEdit[],
  evicted: number[],
): RewritePlan {
  const total = ctx.table.total;
  const unchanged: RewriteStep = { edits: [], evicted: [], tokensKept: total, marker: -1 };
  let freed = 0;
  // Both lists are in message order: one walk skips the edits of dropped messages.
  let d = 0;
  for (const e of edits) {
    while (d < evicted.length && (evicted[d] as number) < e.index) d++;
    if (evicted[d] !== e.index) freed += e.tokens;
  }
  const per = ctx.table.perMessage;
  for (const i of evicted) freed += per[i] ?? 0;
  if (freed <= 0 || (edits.length === 0 && evicted.length === 0)) return { steps: [unchanged] };
  const marker = Math.max(edits[edits.length - 1]?.index ?? -1, evicted[evicted.length - 1] ?? -1);
  return {
    steps: [unchanged, { edits, evicted, tokensKept: total - freed, marker }],
  };
}
