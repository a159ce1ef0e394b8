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
import { blockTokens, CLEARED_PLACEHOLDER, twoStepPlan } from '../rewrite.ts';
import type { BlockEdit, EvictionPolicy } from '../types.ts';

/** Anthropic's default number of tool uses whose results stay. */
export const DEFAULT_KEEP_TOOL_USES = 3;

function isCleared(b: Block): boolean {
  if (b.type !== 'tool_result' || b.content.length !== 1) return false;
  const c = b.content[0];
  return c?.type === 'text' && c.text === CLEARED_PLACEHOLDER;
}

/** Characters of a tool result's content beyond the placeholder's. */
function resultPart(b: Block): number {
  if (b.type !== 'tool_result') return 0;
  let chars = 0;
  for (const c of b.content) chars += c.type === 'text' ? c.text.length : JSON.stringify(c).length;
  return Math.max(0, chars - CLEARED_PLACEHOLDER.length);
}

/** Characters of a call's input beyond `{}`. */
function inputPart(b: Block): number {
  if (b.type !== 'tool_use') return 0;
  const s = typeof b.input === 'string' ? b.input : (JSON.stringify(b.input ?? {}) ?? '');
  return Math.max(0, s.length - 2);
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
    const ms = ctx.cuts.t.messages;
    const keep = Math.max(0, Math.floor(options.keepToolUses ?? DEFAULT_KEEP_TOOL_USES));
    const exclude = new Set(options.excludeTools ?? []);
    // Every client tool call, oldest first: where it is, its id and its name.
    const calls: { m: Message; b: number; id: string | null; name: string }[] = [];
    for (const m of ms) {
      if (isPinned(m)) continue;
      m.blocks.forEach((b, i) => {
        if (b.type === 'tool_use' && !b.server) calls.push({ m, b: i, id: b.id, name: b.name });
      });
    }
    const kept = new Set<string>();
    for (const c of calls.slice(Math.max(0, calls.length - keep)))
      if (c.id !== null) kept.add(c.id);
    const nameOf = new Map<string, (typeof calls)[number]>();
    for (const c of calls) if (c.id !== null && !nameOf.has(c.id)) nameOf.set(c.id, c);
    const edits: BlockEdit[] = [];
    const inputs: BlockEdit[] = [];
    for (const m of ms) {
      if (isPinned(m)) continue;
      m.blocks.forEach((b, i) => {
        if (b.type !== 'tool_result' || b.server || b.toolUseId === null) return;
        if (kept.has(b.toolUseId) || isCleared(b)) return;
        const call = nameOf.get(b.toolUseId);
        if (!call || exclude.has(call.name)) return;
        edits.push({
          index: m.index,
          block: i,
          kind: 'cleared',
          tokens: blockTokens(ctx, m, i, resultPart),
        });
        if (options.clearToolInputs === true)
          inputs.push({
            index: call.m.index,
            block: call.b,
            kind: 'cleared-input',
            tokens: blockTokens(ctx, call.m, call.b, inputPart),
          });
      });
    }
    const all = [...edits, ...inputs].sort((a, b) => a.index - b.index || a.block - b.block);
    let freed = 0;
    for (const e of all) freed += e.tokens;
    if (freed < Math.max(1, options.clearAtLeast ?? 0)) return twoStepPlan(ctx, [], []);
    return twoStepPlan(ctx, all, []);
  },
};
