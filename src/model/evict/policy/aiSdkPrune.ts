/**
 * `ai-sdk-prune`: what the AI SDK's `pruneMessages` does with the settings its docs show
 * (`reasoning: "before-last-message"`, `toolCalls: "before-last-2-messages"`,
 * `emptyMessages: "remove"`), applied when the request is over the budget. It counts the SDK's
 * messages (a user message with tool results is a `tool` message and, for its other parts, a
 * `user` message), removes reasoning from every message but the last, removes tool calls and
 * results outside the last two messages unless their id is in them, and drops emptied messages.
 * Checked against the `ai` package's `pruneMessages` in aiSdkPrune.test.ts, on the same view.
 */
import { isPinned } from '../../exchanges.ts';
import type { Message } from '../../types.ts';
import type { EvictionContext } from '../policies.ts';
import type { RewritePlan, RewriteStep } from '../rewrite.ts';
import { blockTokensAt, messageShapes, type MessageShapes, SHAPE } from '../shapes.ts';
import type { BlockEdit, EvictionPolicy } from '../types.ts';

const {
  KIND_CALL,
  KIND_MASK,
  KIND_REASONING,
  KIND_RESULT,
  ROLE_ASSISTANT,
  ROLE_PINNED,
  ROLE_TOOL,
} = SHAPE;

/** One part of an SDK message and the block (ours) it comes from. */
export interface SdkPart {
  type: 'text' | 'reasoning' | 'tool-call' | 'tool-result' | 'file';
  /** Our message index and block position. */
  m: number;
  b: number;
  /** Tool call id (tool-call, tool-result). */
  id?: string;
  name?: string;
}

/** One SDK message (`ModelMessage`) as our blocks make it; `parts` null for a string content. */
export interface SdkMessage {
  role: 'system' | 'user' | 'assistant' | 'tool';
  /** Our message. */
  ours: number;
  parts: SdkPart[] | null;
  /** For a system message: its text (an empty one is removed as empty). */
  text?: string;
}

/**
 * Our messages as the AI SDK's message list: system/developer → `system` (text), user → a `tool`
 * message for its tool results, then a `user` message for its other blocks (when any, or when it
 * has no block at all), tool → `tool`, assistant → `assistant` (thinking as reasoning, tool_use as
 * tool-call, a server result as tool-result, anything else as text).
 */
export function sdkView(messages: readonly Message[]): SdkMessage[] {
  const out: SdkMessage[] = [];
  for (const m of messages) {
    if (isPinned(m)) {
      let text = '';
      for (const b of m.blocks) if (b.type === 'text') text += b.text;
      out.push({ role: 'system', ours: m.index, parts: null, text });
      continue;
    }
    if (m.role === 'assistant' || m.role === 'tool') {
      const parts: SdkPart[] = [];
      for (let i = 0; i < m.blocks.length; i++) parts.push(sdkPart(m, i));
      out.push({ role: m.role, ours: m.index, parts });
      continue;
    }
    const results: SdkPart[] = [];
    const rest: SdkPart[] = [];
    for (let i = 0; i < m.blocks.length; i++) {
      const p = sdkPart(m, i);
      (p.type === 'tool-result' ? results : rest).push(p);
    }
    if (results.length > 0) out.push({ role: 'tool', ours: m.index, parts: results });
    if (rest.length > 0 || results.length === 0)
      out.push({ role: 'user', ours: m.index, parts: rest });
  }
  return out;
}

/** The SDK part a block becomes. */
function sdkPart(m: Message, i: number): SdkPart {
  const b = m.blocks[i] as Message['blocks'][number];
  switch (b.type) {
    case 'thinking':
    case 'redacted_thinking':
      return { type: 'reasoning', m: m.index, b: i };
    case 'tool_use':
      return { type: 'tool-call', m: m.index, b: i, id: b.id ?? '', name: b.name };
    case 'tool_result':
      return { type: 'tool-result', m: m.index, b: i, id: b.toolUseId ?? '', name: b.name ?? '' };
    case 'image':
    case 'document':
      return { type: 'file', m: m.index, b: i };
    default:
      return { type: 'text', m: m.index, b: i };
  }
}

/** Tool-call parts' names by id, so a result is named like its call (the SDK's own lookup). */
export function callNames(view: readonly SdkMessage[]): Map<string, string> {
  const names = new Map<string, string>();
  for (const s of view)
    for (const p of s.parts ?? [])
      if (p.type === 'tool-call' && p.id !== undefined) names.set(p.id, p.name ?? '');
  return names;
}

/**
 * `pruneMessages({reasoning: 'before-last-message', toolCalls: 'before-last-N-messages',
 * emptyMessages: 'remove'})` over the view.
 * @param keepLast N, the last messages whose tool parts stay (2)
 * @returns the messages that stay, each with the parts that stay
 */
export function pruneView(view: readonly SdkMessage[], keepLast = 2): SdkMessage[] {
  const n = view.length;
  const from = Math.max(0, n - keepLast);
  const keptIds = new Set<string>();
  for (let i = from; i < n; i++) {
    const s = view[i] as SdkMessage;
    if (s.role === 'assistant' || s.role === 'tool')
      for (const p of s.parts ?? [])
        if (p.type === 'tool-call' || p.type === 'tool-result') keptIds.add(p.id ?? '');
  }
  const out: SdkMessage[] = [];
  for (let i = 0; i < n; i++) {
    const s = view[i] as SdkMessage;
    const parts = s.parts;
    if (!parts) {
      if ((s.text ?? '').length > 0) out.push(s);
      continue;
    }
    // Reasoning goes from every assistant message but the last.
    const dropReasoning = s.role === 'assistant' && i !== n - 1;
    // Tool parts go outside the last messages unless their id is in them.
    const dropTools = (s.role === 'assistant' || s.role === 'tool') && i < from;
    if (!dropReasoning && !dropTools) {
      if (parts.length > 0) out.push(s);
      continue;
    }
    let kept = parts;
    if (dropReasoning) kept = kept.filter((p) => p.type !== 'reasoning');
    if (dropTools) kept = keepTools(kept);
    if (kept.length > 0) out.push(kept === parts ? s : { ...s, parts: kept });
  }
  return out;

  /** The tool step: tool parts whose id is not kept go, and a run of reasoning with them. */
  function keepTools(parts: SdkPart[]): SdkPart[] {
    const keep = parts.map(
      (p) => (p.type !== 'tool-call' && p.type !== 'tool-result') || keptIds.has(p.id ?? ''),
    );
    // A run of reasoning goes with the parts after it when none of those stays.
    for (let r = 0; r < parts.length; r++) {
      if (parts[r]?.type !== 'reasoning') continue;
      let end = r + 1;
      while (end < parts.length && parts[end]?.type === 'reasoning') end++;
      let f = end;
      let any = false;
      let stays = false;
      while (f < parts.length && parts[f]?.type !== 'reasoning') {
        any = true;
        stays ||= keep[f] === true;
        f++;
      }
      if (any && !stays) for (let x = r; x < end; x++) keep[x] = false;
      r = f - 1;
    }
    return keep.every(Boolean) ? parts : parts.filter((_, x) => keep[x]);
  }
}

/**
 * `pruneView(sdkView(ms))` as flags, without the view of the whole list: only our last two
 * messages (which hold the SDK's last two messages) are viewed; every message before them is
 * pruned by the rule for an SDK message outside the last two (reasoning and tool parts whose id
 * is not kept go; an emptied message goes), read from the shared shapes (shapes.ts: roles, block
 * kinds, ids), so no block object before the tail is read. aiSdkPrune.test.ts holds it
 * equal to the library; aiSdkPrune.property.test.ts to the view of the whole list.
 * @returns per block (flat, message i's blocks from `shapes.start[i]`) 1 when it stays, per
 *   message 1 when any SDK message of it stays
 */
function pruneFlags(
  ms: readonly Message[],
  sh: MessageShapes,
): { stays: Uint8Array; present: Uint8Array } {
  const n = ms.length;
  const { role, start, kind, idAt, ids } = sh;
  const stays = new Uint8Array(start[n] as number);
  const present = new Uint8Array(n);
  const tailFrom = Math.max(0, n - 2);
  const tail = sdkView(ms.slice(tailFrom));
  const kept = pruneView(tail);
  const keptIds = new Set<string>();
  for (const s of tail.slice(-2))
    if (s.role === 'assistant' || s.role === 'tool')
      for (const p of s.parts ?? [])
        if (p.type === 'tool-call' || p.type === 'tool-result') keptIds.add(p.id ?? '');
  for (const s of kept) {
    present[s.ours] = 1;
    for (const p of s.parts ?? []) stays[(start[p.m] as number) + p.b] = 1;
  }
  // With fewer than two SDK messages in the tail, pruneView saw the whole list: done.
  if (tail.length < 2) return { stays, present };
  for (let i = 0; i < tailFrom; i++) {
    const r = role[i];
    if (r === ROLE_PINNED) {
      // A system message stays when its text is not empty.
      for (const b of (ms[i] as Message).blocks)
        if (b.type === 'text' && b.text.length > 0) present[i] = 1;
      continue;
    }
    const toolRole = r === ROLE_ASSISTANT || r === ROLE_TOOL;
    let any = false;
    let rest = false;
    const to = start[i + 1] as number;
    for (let b = start[i] as number; b < to; b++) {
      const k = (kind[b] as number) & KIND_MASK;
      let keep = true;
      if (k === KIND_REASONING) keep = r !== ROLE_ASSISTANT;
      else if (k === KIND_CALL) keep = !toolRole || keptIds.has(ids[idAt[b] as number] as string);
      else if (k === KIND_RESULT) keep = keptIds.has(ids[idAt[b] as number] as string);
      else rest = true;
      if (keep) {
        stays[b] = 1;
        any = true;
      }
    }
    // A tool message's run of reasoning goes with the tool parts after it when none of them
    // stays (pruneView's tool step); an assistant's reasoning is gone already.
    if (r === ROLE_TOOL && any) any = dropBareReasoning(kind, stays, start[i] as number, to);
    // A user message with no block at all is an empty SDK user message: removed.
    if (any || (rest && !toolRole)) present[i] = 1;
  }
  return { stays, present };
}

/**
 * `keepTools`' rule on flags: a run of reasoning blocks in [from, to) loses its `stays` when no
 * block between it and the next run stays.
 * @returns whether any block of the range still stays
 */
function dropBareReasoning(kind: Uint8Array, stays: Uint8Array, from: number, to: number): boolean {
  for (let b = from; b < to; b++) {
    if (((kind[b] as number) & KIND_MASK) !== KIND_REASONING) continue;
    let end = b + 1;
    while (end < to && ((kind[end] as number) & KIND_MASK) === KIND_REASONING) end++;
    let f = end;
    let kept = false;
    for (; f < to && ((kind[f] as number) & KIND_MASK) !== KIND_REASONING; f++)
      if (stays[f] === 1) kept = true;
    if (f > end && !kept) stays.fill(0, b, end);
    b = f - 1;
  }
  for (let b = from; b < to; b++) if (stays[b] === 1) return true;
  return false;
}

/**
 * The plan: the request unchanged, then pruned. Built from the flags in one walk over typed
 * arrays: the tokens the pruned request frees (removed blocks' counts, dropped messages' counts)
 * and the dropped messages; the edits (one per removed block) are listed on first read, and the
 * pruned request is built from the flags when its verdict is asked (no edit objects in a sweep).
 * Messages are named by position (`Message.index` is the position).
 */
function prunePlan(ctx: EvictionContext): RewritePlan {
  const ms = ctx.cuts.t.messages;
  const sh = messageShapes(ctx.cuts);
  const { role, start } = sh;
  const { stays, present } = pruneFlags(ms, sh);
  const per = ctx.table.perMessage;
  const total = ctx.table.total;
  const n = ms.length;
  const evicted: number[] = [];
  let freed = 0;
  let removed = 0;
  let marker = -1;
  for (let i = 0; i < n; i++) {
    if (present[i] !== 1) {
      evicted.push(i);
      freed += per[i] ?? 0;
      marker = i;
      continue;
    }
    if (role[i] === ROLE_PINNED) continue;
    const from = start[i] as number;
    const to = start[i + 1] as number;
    for (let b = from; b < to; b++)
      if (stays[b] !== 1) {
        freed += blockTokensAt(ctx, sh, i, b - from);
        removed++;
        marker = i;
      }
  }
  const unchanged: RewriteStep = { edits: [], evicted: [], tokensKept: total, marker: -1 };
  if (freed <= 0 || (removed === 0 && evicted.length === 0)) return { steps: [unchanged] };
  let edits: BlockEdit[] | null = null;
  const pruned: RewriteStep = {
    get edits() {
      if (!edits) {
        edits = [];
        for (let i = 0; i < n; i++) {
          if (present[i] !== 1 || role[i] === ROLE_PINNED) continue;
          const from = start[i] as number;
          const to = start[i + 1] as number;
          for (let b = from; b < to; b++)
            if (stays[b] !== 1)
              edits.push({
                index: i,
                block: b - from,
                kind: 'removed',
                tokens: blockTokensAt(ctx, sh, i, b - from),
              });
        }
      }
      return edits;
    },
    evicted,
    tokensKept: total - freed,
    marker,
  };
  return {
    steps: [unchanged, pruned],
    messages: () => {
      const out: Message[] = [];
      for (let i = 0; i < n; i++) {
        if (present[i] !== 1) continue;
        const m = ms[i] as Message;
        const from = start[i] as number;
        const to = start[i + 1] as number;
        let all = true;
        for (let b = from; b < to && all; b++) all = stays[b] === 1;
        out.push(
          all || role[i] === ROLE_PINNED
            ? m
            : { ...m, blocks: m.blocks.filter((_, j) => stays[from + j] === 1) },
        );
      }
      return out;
    },
  };
}

export const aiSdkPrunePolicy: EvictionPolicy = {
  help: 'AI SDK pruneMessages (reasoning before the last message, tool calls before the last 2 messages, empty messages removed)',
  options: [],
  keepsTask: false,
  summarises: false,
  monotone: true,
  cuts: (ctx) => ({ candidates: Int32Array.of(), floor: ctx.cuts.n }),
  units: () => [],
  rewrite: (ctx) => prunePlan(ctx),
};
