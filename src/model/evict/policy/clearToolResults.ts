/**
 * `clear-tool-results`: Anthropic's context editing, `clear_tool_uses_20250919`. When the request
 * is over its trigger (here: the budget), the oldest tool results are cleared in order, each
 * replaced by a placeholder; the newest `keep` tool uses (default 3) keep theirs; results of the
 * `exclude_tools` are never cleared; with `clear_tool_inputs` the cleared calls' inputs go too;
 * when the clearing frees fewer than `clear_at_least` tokens it is not applied. Every call and
 * result stays, so the pairs stay whole. Results already cleared (the placeholder) are skipped.
 * Source: platform.claude.com/docs/en/build-with-claude/context-editing (tool result clearing:
 * trigger, keep, clear_at_least, exclude_tools, clear_tool_inputs).
 */
import { isPinned } from '../../exchanges.ts';
import type { Block, Message } from '../../types.ts';
import type { RuleId, Validation } from '../../validate/types.ts';
import type { EvictionContext } from '../policies.ts';
import {
  blockTokens,
  CLEARED_PLACEHOLDER_TOKENS,
  twoStepPlan,
  type RewritePlan,
  type RewriteStep,
} from '../rewrite.ts';
import { blockTokensAt, messageShapes, type MessageShapes, SHAPE } from '../shapes.ts';
import type { BlockEdit, EvictionPolicy, PolicyOptions } from '../types.ts';

const { FLAG_CLEARED, FLAG_NO_ID, FLAG_SERVER, KIND_CALL, KIND_MASK, KIND_RESULT, ROLE_PINNED } =
  SHAPE;

/** Anthropic's default number of tool uses whose results stay. */
export const DEFAULT_KEEP_TOOL_USES = 3;

/** Tokens clearing a result frees: the block's count less the placeholder's. */
function resultFreed(tokens: number): number {
  return Math.max(0, tokens - CLEARED_PLACEHOLDER_TOKENS);
}

/**
 * Tokens clearing a call's input frees: the block's count less what stays, its name and `{}`
 * (estimated at 4 characters a token, as the count does before the tokenizer has loaded).
 */
function inputFreed(b: Block, tokens: number): number {
  return b.type === 'tool_use' ? Math.max(0, tokens - Math.ceil((b.name.length + 2) / 4)) : 0;
}

/**
 * The rules whose verdict reads a result's content (an empty or null content, an error result
 * with none, a part without a type in a tool message's content, O13): the only ones a
 * placeholder can change. Every other rule reads ids, roles, order and the other blocks, which
 * clearing leaves as they are.
 */
const CONTENT_RULES: ReadonlySet<RuleId> = new Set([
  'error_result_empty',
  'empty_text',
  'empty_content',
  'null_content',
  'untyped_part',
]);

/**
 * The first edit at or after (message `index`, block `block`) in `edits` (message order, then
 * block), by bisection.
 */
function editAt(edits: readonly BlockEdit[], index: number, block: number): number {
  let lo = 0;
  let hi = edits.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    const e = edits[mid] as BlockEdit;
    if (e.index < index || (e.index === index && e.block < block)) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * The validation of the request with `edits` cleared, from the whole request's: its violations
 * less those of the content rules on a cleared block (or on a message whose results were
 * cleared, when the rule names no block). Each content-rule violation looks its block up by
 * bisection: O(violations × log edits), nothing built per edit.
 */
function clearedValidation(full: Validation, edits: readonly BlockEdit[]): Validation {
  const cleared = (index: number, block: number | null): boolean => {
    const at = edits[editAt(edits, index, block ?? 0)];
    return at !== undefined && at.index === index && (block === null || at.block === block);
  };
  const violations = full.violations.filter(
    (v) => !CONTENT_RULES.has(v.rule) || !cleared(v.index, v.blockIndex),
  );
  return { ...full, valid: !violations.some((v) => v.severity === 'error'), violations };
}

/** Where a call is and its tool's name. */
interface CallAt {
  m: Message;
  b: number;
  name: string;
}

/**
 * The ids of the newest `keep` client tool calls (a backward scan over the shapes that stops
 * there); a call without an id counts but adds none.
 */
function newestCallIds(sh: MessageShapes, keep: number): Set<string> {
  const ids = new Set<string>();
  let left = keep;
  for (let i = sh.role.length - 1; i >= 0 && left > 0; i--) {
    if (sh.role[i] === ROLE_PINNED) continue;
    for (let b = (sh.start[i + 1] as number) - 1; b >= (sh.start[i] as number) && left > 0; b--) {
      const k = sh.kind[b] as number;
      if ((k & KIND_MASK) !== KIND_CALL || (k & FLAG_SERVER) !== 0) continue;
      left--;
      if ((k & FLAG_NO_ID) === 0) ids.add(sh.ids[sh.idAt[b] as number] as string);
    }
  }
  return ids;
}

/** Client calls by id (the first of an id), read only when a name or an input is needed. */
function callsById(ms: readonly Message[]): Map<string, CallAt> {
  const out = new Map<string, CallAt>();
  for (const m of ms) {
    if (isPinned(m)) continue;
    for (let i = 0; i < m.blocks.length; i++) {
      const b = m.blocks[i] as Block;
      if (b.type === 'tool_use' && !b.server && b.id !== null && !out.has(b.id))
        out.set(b.id, { m, b: i, name: b.name });
    }
  }
  return out;
}

/**
 * The blocks clear_tool_uses clears, in message order: every client tool result but those of the
 * newest `keep` calls and of the excluded tools (a result whose call is not in the request has
 * no name, so no exclusion applies to it), and with clear_tool_inputs the inputs of their calls.
 * Kept as parallel number lists (message, block, tokens freed), no object per edit, and only
 * when asked (`list`): the sweep reads only the tokens freed and the last edited message;
 * `toEdits` lists them as BlockEdits when a result is shown.
 */
interface Cleared {
  index: number[];
  block: number[];
  tokens: number[];
  /** The cleared calls' inputs (clear_tool_inputs), as edits. */
  inputs: BlockEdit[];
  /** Tokens all of them free. */
  freed: number;
  /** The last message with a cleared result or input (ours), −1 for none. */
  marker: number;
}

function clearEdits(ctx: EvictionContext, options: PolicyOptions, list: boolean): Cleared {
  const ms = ctx.cuts.t.messages;
  const keep = Math.max(0, Math.floor(options.keepToolUses ?? DEFAULT_KEEP_TOOL_USES));
  const exclude = new Set(options.excludeTools ?? []);
  // Roles, kinds and ids from the shared shapes: no block object is read for a result
  // that is kept or cleared, only the token table (and the call, for the options that name it).
  const sh = messageShapes(ctx.cuts);
  const kept = newestCallIds(sh, keep);
  const inputsToo = options.clearToolInputs === true;
  const calls = exclude.size > 0 || inputsToo ? callsById(ms) : null;
  const out: Cleared = { index: [], block: [], tokens: [], inputs: [], freed: 0, marker: -1 };
  // The marker as the lists give it: the last cleared result in walk order, or a later input.
  let lastResult = -1;
  let lastInput = -1;
  const { role, start, kind, idAt, ids } = sh;
  for (let i = 0; i < role.length; i++) {
    if (role[i] === ROLE_PINNED) continue;
    const from = start[i] as number;
    const to = start[i + 1] as number;
    for (let b = from; b < to; b++) {
      const k = kind[b] as number;
      if ((k & KIND_MASK) !== KIND_RESULT || (k & (FLAG_SERVER | FLAG_NO_ID)) !== 0) continue;
      if ((k & FLAG_CLEARED) !== 0) continue;
      const id = ids[idAt[b] as number] as string;
      if (kept.has(id)) continue;
      const call = calls?.get(id);
      if (call && exclude.has(call.name)) continue;
      const j = b - from;
      const m = sh.indexed ? null : (ms[i] as Message);
      const tokens = resultFreed(m ? blockTokens(ctx, m, j) : blockTokensAt(ctx, sh, i, j));
      const index = m ? m.index : i;
      if (list) {
        out.index.push(index);
        out.block.push(j);
        out.tokens.push(tokens);
      }
      out.freed += tokens;
      lastResult = index;
      if (inputsToo && call) {
        const freed = inputFreed(call.m.blocks[call.b] as Block, blockTokens(ctx, call.m, call.b));
        if (list)
          out.inputs.push({
            index: call.m.index,
            block: call.b,
            kind: 'cleared-input',
            tokens: freed,
          });
        out.freed += freed;
        lastInput = Math.max(lastInput, call.m.index);
      }
    }
  }
  out.marker = Math.max(lastResult, lastInput);
  return out;
}

/**
 * What a plan needs of the cleared blocks: the tokens they free, the marker (the last edited
 * message, −1 for none) and the edits, listed on first call.
 */
interface ClearSummary {
  freed: number;
  marker: number;
  edits: () => BlockEdit[];
}

/** The summary of what `clearEdits` clears: its sums now, its lists (a second walk) when asked. */
function clearedSummary(ctx: EvictionContext, options: PolicyOptions): ClearSummary {
  const c = clearEdits(ctx, options, false);
  return {
    freed: c.freed,
    marker: c.marker,
    edits: () => toEdits(clearEdits(ctx, options, true)),
  };
}

/**
 * What clear-tool-results keeps from one request of a chain for the next (`EvictionContext.resume`):
 * every result it may clear (a client result with an id, not cleared already, in a non-pinned
 * message) of the messages seen so far, what clearing each frees, and the sums by id.
 */
interface ClearResume {
  messages: readonly Message[];
  n: number;
  /** Message, block and tokens freed of each such result, in message order; and its id. */
  at: number[];
  block: number[];
  tokens: number[];
  ids: string[];
  /** Tokens all of them free, and by id. */
  freed: number;
  byId: Map<string, number>;
}

/**
 * `clearedSummary(ctx, options)` for the default options but `keepToolUses` (no excluded
 * tools, no inputs cleared) from the state the chain's request before left: its results are
 * listed once, as their messages arrive, and a request subtracts the results of its newest calls
 * from the sum (O(new blocks + the kept ids' results)), not a walk over every result. Equal to the
 * fresh summary (rewritePlans.property.test.ts).
 */
function resumedSummary(
  ctx: EvictionContext,
  keep: number,
  prev: ClearResume | undefined,
): {
  summary: ClearSummary;
  state: ClearResume;
} {
  const ms = ctx.cuts.t.messages;
  const sh = messageShapes(ctx.cuts);
  let st = prev;
  const m0 = st?.n ?? 0;
  if (
    !st ||
    ms.length < m0 ||
    (m0 > 0 && (ms[0] !== st.messages[0] || ms[m0 - 1] !== st.messages[m0 - 1]))
  )
    st = { messages: ms, n: 0, at: [], block: [], tokens: [], ids: [], freed: 0, byId: new Map() };
  const { role, start, kind, idAt, ids } = sh;
  for (let i = st.n; i < ms.length; i++) {
    if (role[i] === ROLE_PINNED) continue;
    const from = start[i] as number;
    const to = start[i + 1] as number;
    for (let b = from; b < to; b++) {
      const k = kind[b] as number;
      if ((k & KIND_MASK) !== KIND_RESULT || (k & (FLAG_SERVER | FLAG_NO_ID | FLAG_CLEARED)) !== 0)
        continue;
      const id = ids[idAt[b] as number] as string;
      const tokens = resultFreed(blockTokensAt(ctx, sh, i, b - from));
      st.at.push(i);
      st.block.push(b - from);
      st.tokens.push(tokens);
      st.ids.push(id);
      st.freed += tokens;
      st.byId.set(id, (st.byId.get(id) ?? 0) + tokens);
    }
  }
  st.messages = ms;
  st.n = ms.length;
  const kept = newestCallIds(sh, keep);
  let freed = st.freed;
  for (const id of kept) freed -= st.byId.get(id) ?? 0;
  const { at, block, tokens, ids: resultIds } = st;
  const count = at.length;
  let marker = -1;
  for (let r = count - 1; r >= 0 && marker < 0; r--)
    if (!kept.has(resultIds[r] as string)) marker = at[r] as number;
  const edits = () => {
    const out: BlockEdit[] = [];
    for (let r = 0; r < count; r++)
      if (!kept.has(resultIds[r] as string))
        out.push({
          index: at[r] as number,
          block: block[r] as number,
          kind: 'cleared',
          tokens: tokens[r] as number,
        });
    return out;
  };
  return { summary: { freed, marker, edits }, state: st };
}

/** The cleared results (and inputs) as BlockEdits, in message order, then block. */
function toEdits(c: Cleared): BlockEdit[] {
  const edits: BlockEdit[] = c.index.map((index, k) => ({
    index,
    block: c.block[k] as number,
    kind: 'cleared' as const,
    tokens: c.tokens[k] as number,
  }));
  if (c.inputs.length === 0) return edits;
  return [...edits, ...c.inputs].sort((a, b) => a.index - b.index || a.block - b.block);
}

/**
 * The plan: the request unchanged, then with the results cleared (its edits listed on first
 * read). Its verdict is derived from the whole request's (`clearedValidation`), the edits listed
 * only when the whole request has a violation of a content rule.
 */
function clearPlan(ctx: EvictionContext, c: ClearSummary): RewritePlan {
  const total = ctx.table.total;
  const unchanged: RewriteStep = { edits: [], evicted: [], tokensKept: total, marker: -1 };
  let edits: BlockEdit[] | null = null;
  const list = () => (edits ??= c.edits());
  const marker = c.marker;
  const cleared: RewriteStep = {
    get edits() {
      return list();
    },
    evicted: [],
    tokensKept: total - c.freed,
    marker,
  };
  const full = ctx.cuts.full;
  return {
    steps: [unchanged, cleared],
    derive: (j) =>
      j === 0 || !full.violations.some((v) => CONTENT_RULES.has(v.rule))
        ? full
        : clearedValidation(full, list()),
  };
}

export const clearToolResultsPolicy: EvictionPolicy = {
  help: 'clear old tool results to a placeholder, calls and results kept in pairs (Anthropic context editing)',
  options: ['keepToolUses'],
  keepsTask: true,
  summarises: false,
  monotone: true,
  cuts: (ctx) => ({ candidates: Int32Array.of(), floor: ctx.cuts.n }),
  units: () => [],
  rewrite: (ctx, options) => {
    let cleared: ClearSummary;
    const resume = ctx.resume;
    if (
      resume &&
      (options.excludeTools ?? []).length === 0 &&
      options.clearToolInputs !== true &&
      messageShapes(ctx.cuts).indexed
    ) {
      const keep = Math.max(0, Math.floor(options.keepToolUses ?? DEFAULT_KEEP_TOOL_USES));
      const key = `clear-tool-results|${keep}`;
      const r = resumedSummary(ctx, keep, resume.get(key) as ClearResume | undefined);
      resume.set(key, r.state);
      cleared = r.summary;
    } else cleared = clearedSummary(ctx, options);
    if (cleared.freed < Math.max(1, options.clearAtLeast ?? 0)) return twoStepPlan(ctx, [], []);
    return clearPlan(ctx, cleared);
  },
};
