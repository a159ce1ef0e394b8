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
  isClearedResult,
  twoStepPlan,
} from '../rewrite.ts';
import type { BlockEdit, EvictionPolicy, PolicyOptions } from '../types.ts';

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
 * with none): the only ones a placeholder can change. Every other rule reads ids, roles, order
 * and the other blocks, which clearing leaves as they are.
 */
const CONTENT_RULES: ReadonlySet<RuleId> = new Set([
  'error_result_empty',
  'empty_text',
  'empty_content',
  'null_content',
]);

/**
 * The validation of the request with `edits` cleared, from the whole request's: its violations
 * less those of the content rules on a cleared block (or on a message whose results were
 * cleared, when the rule names no block). O(violations + edits).
 */
function clearedValidation(full: Validation, edits: readonly BlockEdit[]): Validation {
  const blocks = new Set<string>();
  const messages = new Set<number>();
  for (const e of edits) {
    blocks.add(`${e.index}:${e.block}`);
    messages.add(e.index);
  }
  const violations = full.violations.filter(
    (v) =>
      !CONTENT_RULES.has(v.rule) ||
      !(v.blockIndex === null ? messages.has(v.index) : blocks.has(`${v.index}:${v.blockIndex}`)),
  );
  return { ...full, valid: !violations.some((v) => v.severity === 'error'), violations };
}

/** Where a call is and its tool's name. */
interface CallAt {
  m: Message;
  b: number;
  name: string;
}

/** The ids of the newest `keep` client tool calls (a backward scan that stops there). */
function newestCallIds(ms: readonly Message[], keep: number): Set<string> {
  const ids = new Set<string>();
  let left = keep;
  for (let i = ms.length - 1; i >= 0 && left > 0; i--) {
    const m = ms[i] as Message;
    if (isPinned(m)) continue;
    for (let j = m.blocks.length - 1; j >= 0 && left > 0; j--) {
      const b = m.blocks[j] as Block;
      if (b.type !== 'tool_use' || b.server) continue;
      left--;
      if (b.id !== null) ids.add(b.id);
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
 */
function clearEdits(ctx: EvictionContext, options: PolicyOptions): BlockEdit[] {
  const ms = ctx.cuts.t.messages;
  const keep = Math.max(0, Math.floor(options.keepToolUses ?? DEFAULT_KEEP_TOOL_USES));
  const exclude = new Set(options.excludeTools ?? []);
  const kept = newestCallIds(ms, keep);
  const inputsToo = options.clearToolInputs === true;
  const calls = exclude.size > 0 || inputsToo ? callsById(ms) : null;
  const edits: BlockEdit[] = [];
  const inputs: BlockEdit[] = [];
  for (const m of ms) {
    if (isPinned(m)) continue;
    let tokens: ReturnType<typeof blockTokens> | null = null;
    for (let i = 0; i < m.blocks.length; i++) {
      const b = m.blocks[i] as Block;
      if (b.type !== 'tool_result' || b.server || b.toolUseId === null) continue;
      if (kept.has(b.toolUseId) || isClearedResult(b)) continue;
      const call = calls?.get(b.toolUseId);
      if (call && exclude.has(call.name)) continue;
      tokens ??= blockTokens(ctx, m);
      edits.push({ index: m.index, block: i, kind: 'cleared', tokens: resultFreed(tokens(i)) });
      if (inputsToo && call)
        inputs.push({
          index: call.m.index,
          block: call.b,
          kind: 'cleared-input',
          tokens: inputFreed(call.m.blocks[call.b] as Block, blockTokens(ctx, call.m)(call.b)),
        });
    }
  }
  if (inputs.length === 0) return edits;
  return [...edits, ...inputs].sort((a, b) => a.index - b.index || a.block - b.block);
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
    const edits = clearEdits(ctx, options);
    let freed = 0;
    for (const e of edits) freed += e.tokens;
    if (freed < Math.max(1, options.clearAtLeast ?? 0)) return twoStepPlan(ctx, [], []);
    const plan = twoStepPlan(ctx, edits, []);
    plan.derive = () => clearedValidation(ctx.cuts.full, edits);
    return plan;
  },
};
