/**
 * The rewriting policies and provider-compaction the straightforward way, from the message and
 * block objects, for the property test that holds their fast plans (read from the shared shapes,
 * evict/shapes.ts) equal to them: `ai-sdk-prune` as `pruneView` over the SDK view of the whole
 * list, `clear-tool-results` by reading each block, `langchain-trim` from `isHuman`,
 * `provider-compaction`'s cut points from its own `units`. Test support only.
 */
import { isPinned } from '../exchanges.ts';
import type { EvictionContext } from '../evict/policies.ts';
import { pruneView, sdkView } from '../evict/policy/aiSdkPrune.ts';
import { DEFAULT_KEEP_TOOL_USES } from '../evict/policy/clearToolResults.ts';
import { isHuman } from '../evict/policy/langchainTrim.ts';
import { blockTokens, CLEARED_PLACEHOLDER_TOKENS, isClearedResult } from '../evict/rewrite.ts';
import type { BlockEdit, PolicyOptions } from '../evict/types.ts';
import type { Block, Message } from '../types.ts';

/** One step of a reference plan: what it edits and drops, and the tokens it keeps. */
export interface ReferenceStep {
  edits: BlockEdit[];
  evicted: number[];
  tokensKept: number;
}

/** `ai-sdk-prune`: `pruneView(sdkView(messages))`, its removed blocks and dropped messages. */
export function referenceAiSdkPrune(ctx: EvictionContext): ReferenceStep[] {
  const ms = ctx.cuts.t.messages;
  const kept = pruneView(sdkView(ms));
  const present = new Set<number>();
  const stays = new Set<string>();
  for (const s of kept) {
    present.add(s.ours);
    for (const p of s.parts ?? []) stays.add(`${p.m}:${p.b}`);
  }
  const total = ctx.table.total;
  const evicted: number[] = [];
  const edits: BlockEdit[] = [];
  let freed = 0;
  for (const m of ms) {
    if (!present.has(m.index)) {
      evicted.push(m.index);
      freed += ctx.table.perMessage[m.index] ?? 0;
      continue;
    }
    if (isPinned(m)) continue;
    m.blocks.forEach((_, i) => {
      if (stays.has(`${m.index}:${i}`)) return;
      const tokens = blockTokens(ctx, m, i);
      edits.push({ index: m.index, block: i, kind: 'removed', tokens });
      freed += tokens;
    });
  }
  const unchanged: ReferenceStep = { edits: [], evicted: [], tokensKept: total };
  if (freed <= 0 || (edits.length === 0 && evicted.length === 0)) return [unchanged];
  return [unchanged, { edits, evicted, tokensKept: total - freed }];
}

/** `clear-tool-results` without `clearToolInputs`: every block read, in message order. */
export function referenceClearToolResults(
  ctx: EvictionContext,
  options: PolicyOptions,
): ReferenceStep[] {
  const ms = ctx.cuts.t.messages;
  const keep = Math.max(0, Math.floor(options.keepToolUses ?? DEFAULT_KEEP_TOOL_USES));
  const exclude = new Set(options.excludeTools ?? []);
  // The newest `keep` client calls.
  const keptIds = new Set<string>();
  const calls: { id: string | null; name: string }[] = [];
  for (const m of ms)
    if (!isPinned(m))
      for (const b of m.blocks)
        if (b.type === 'tool_use' && !b.server) calls.push({ id: b.id, name: b.name });
  for (const c of calls.slice(Math.max(0, calls.length - keep)))
    if (c.id !== null) keptIds.add(c.id);
  const nameOf = new Map<string, string>();
  for (const c of calls) if (c.id !== null && !nameOf.has(c.id)) nameOf.set(c.id, c.name);
  const edits: BlockEdit[] = [];
  let freed = 0;
  for (const m of ms) {
    if (isPinned(m)) continue;
    m.blocks.forEach((b: Block, i) => {
      if (b.type !== 'tool_result' || b.server || b.toolUseId === null) return;
      if (keptIds.has(b.toolUseId) || isClearedResult(b)) return;
      const name = nameOf.get(b.toolUseId);
      if (name !== undefined && exclude.has(name)) return;
      const tokens = Math.max(0, blockTokens(ctx, m, i) - CLEARED_PLACEHOLDER_TOKENS);
      edits.push({ index: m.index, block: i, kind: 'cleared', tokens });
      freed += tokens;
    });
  }
  const total = ctx.table.total;
  const unchanged: ReferenceStep = { edits: [], evicted: [], tokensKept: total };
  if (freed < Math.max(1, options.clearAtLeast ?? 0)) return [unchanged];
  return [unchanged, { edits, evicted: [], tokensKept: total - freed }];
}

/**
 * `langchain-trim`: one step per human message after the leading system messages (`isHuman`),
 * then one that keeps none; each drops everything between the leading ones and its start.
 */
export function referenceLangchainTrim(ctx: EvictionContext): ReferenceStep[] {
  const ms = ctx.cuts.t.messages;
  let lead = 0;
  while (lead < ms.length && isPinned(ms[lead] as Message)) lead++;
  const starts = ms.filter((m) => m.index >= lead && isHuman(m)).map((m) => m.index);
  starts.push(ms.length);
  return starts.map((k) => {
    const evicted: number[] = [];
    let tokensKept = ctx.table.system;
    for (const m of ms) {
      if (m.index < lead || m.index >= k) tokensKept += ctx.table.perMessage[m.index] ?? 0;
      else evicted.push(m.index);
    }
    return { edits: [], evicted, tokensKept };
  });
}
