/**
 * `langchain-trim`: what LangChain's `trimMessages` does with its common settings
 * (`strategy: "last"`, `startOn: "human"`, `includeSystem: true`, `allowPartial: false`, a token
 * counter that sums the messages' counts): keep the longest run of newest messages that fits,
 * then drop from its start up to the first human message. Only the leading system message is
 * kept whatever happens (our system prompt and the system/developer messages before the first
 * other one); a system message later in the list is trimmed like any other. Even when everything
 * fits, what comes before the first human message goes; when no human message fits, the library
 * returns no conversation at all. Checked against `@langchain/core`'s `trimMessages` in
 * langchainTrim.test.ts and the corpus suite.
 *
 * A rewriting plan (rewrite.ts): one step per human message it may start on, then one that keeps
 * nothing. A step's verdict is the cut's (`isCutValid`, cached by the cut engine) when no system
 * message lies between the leading ones and the start; else its request is validated directly.
 */
import type { Message } from '../../types.ts';
import type { EvictionContext } from '../policies.ts';
import type { RewritePlan, RewriteStep } from '../rewrite.ts';
import { messageShapes, SHAPE } from '../shapes.ts';
import { checkCut, cutFirstRule, isCutValid, NO_HEAD } from '../simulate.ts';
import type { BlockEdit, EvictionPolicy } from '../types.ts';

const { KIND_MASK, KIND_RESULT, ROLE_PINNED, ROLE_USER } = SHAPE;

/**
 * A LangChain `HumanMessage`: a user message not made of tool results only (those are
 * `ToolMessage`s; a user message with text beside its results is one HumanMessage whose content
 * carries the result blocks, as @langchain/anthropic reads it).
 */
export function isHuman(m: Message): boolean {
  return (
    m.role === 'user' && (m.blocks.length === 0 || m.blocks.some((b) => b.type !== 'tool_result'))
  );
}

/** No step of a trim edits a block (one shared empty list, never written). */
const NO_EDITS: BlockEdit[] = [];

/**
 * A step that keeps the leading system messages and everything from message `marker` on: the
 * messages between are dropped, listed on first read (a class, so that the 10,000s of steps of a
 * long session share one getter instead of a closure each).
 */
class TrimStep implements RewriteStep {
  readonly edits: BlockEdit[] = NO_EDITS;
  readonly tokensKept: number;
  readonly marker: number;
  private readonly lead: number;
  private dropped: number[] | null = null;
  constructor(lead: number, start: number, tokensKept: number) {
    this.lead = lead;
    this.marker = start;
    this.tokensKept = tokensKept;
  }
  get evicted(): number[] {
    if (!this.dropped) {
      this.dropped = [];
      for (let i = this.lead; i < this.marker; i++) this.dropped.push(i);
    }
    return this.dropped;
  }
}

/** The trim plan: its steps start on each human message after the leading system messages. */
function trimPlan(ctx: EvictionContext): RewritePlan {
  // Roles and block kinds from the shared shapes (shapes.ts): no message object is read here.
  const { role, start, kind } = messageShapes(ctx.cuts);
  const n = role.length;
  const per = ctx.table.perMessage;
  const prefix = ctx.table.prefix;
  let lead = 0;
  let leadTokens = 0;
  while (lead < n && role[lead] === ROLE_PINNED) leadTokens += per[lead++] ?? 0;
  // isHuman: a user message with no block, or with a block that is not a tool result.
  const starts: number[] = [];
  // A system message after the leading ones, before a start, is trimmed: its request differs
  // from the cut's. The first of them is all that matters.
  let firstLaterPinned = -1;
  for (let i = lead; i < n; i++) {
    const r = role[i];
    if (r === ROLE_PINNED) {
      if (firstLaterPinned < 0) firstLaterPinned = i;
      continue;
    }
    if (r !== ROLE_USER) continue;
    const from = start[i] as number;
    const to = start[i + 1] as number;
    let human = from === to;
    for (let b = from; b < to && !human; b++)
      human = ((kind[b] as number) & KIND_MASK) !== KIND_RESULT;
    if (human) starts.push(i);
  }
  starts.push(n);
  const base = ctx.table.system + leadTokens + (prefix[n] as number);
  const steps: RewriteStep[] = new Array<RewriteStep>(starts.length);
  for (let j = 0; j < starts.length; j++) {
    const k = starts[j] as number;
    steps[j] = new TrimStep(lead, k, base - (prefix[k] as number));
  }
  const cutLike = (j: number) => {
    const k = starts[j] as number;
    return firstLaterPinned < 0 || firstLaterPinned >= k ? k : -1;
  };
  return {
    steps,
    valid: (j) => {
      const k = cutLike(j);
      return k < 0 ? undefined : isCutValid(ctx.cuts, k, NO_HEAD);
    },
    derive: (j) => {
      const k = cutLike(j);
      return k < 0 ? undefined : checkCut(ctx.cuts, k, NO_HEAD).validation();
    },
    firstRule: (j) => {
      const k = cutLike(j);
      return k < 0 ? undefined : cutFirstRule(ctx.cuts, k, NO_HEAD);
    },
  };
}

export const langchainTrimPolicy: EvictionPolicy = {
  help: 'LangChain trimMessages (strategy last, startOn human, includeSystem): newest messages that fit, from a human message on',
  options: [],
  keepsTask: false,
  summarises: false,
  monotone: true,
  cuts: (ctx) => ({ candidates: Int32Array.of(), floor: ctx.cuts.n }),
  units: () => [],
  rewrite: (ctx) => trimPlan(ctx),
};
