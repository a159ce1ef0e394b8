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
import { blockTokens, twoStepPlan } from '../rewrite.ts';
import type { BlockEdit, EvictionPolicy } from '../types.ts';

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
      const text = m.blocks.map((b) => (b.type === 'text' ? b.text : '')).join('');
      out.push({ role: 'system', ours: m.index, parts: null, text });
      continue;
    }
    const part = (b: Message['blocks'][number], i: number): SdkPart => {
      switch (b.type) {
        case 'thinking':
        case 'redacted_thinking':
          return { type: 'reasoning', m: m.index, b: i };
        case 'tool_use':
          return { type: 'tool-call', m: m.index, b: i, id: b.id ?? '', name: b.name };
        case 'tool_result':
          return {
            type: 'tool-result',
            m: m.index,
            b: i,
            id: b.toolUseId ?? '',
            name: b.name ?? '',
          };
        case 'image':
        case 'document':
          return { type: 'file', m: m.index, b: i };
        default:
          return { type: 'text', m: m.index, b: i };
      }
    };
    const parts = m.blocks.map(part);
    if (m.role === 'assistant') out.push({ role: 'assistant', ours: m.index, parts });
    else if (m.role === 'tool') out.push({ role: 'tool', ours: m.index, parts });
    else {
      const results = parts.filter((p) => p.type === 'tool-result');
      const rest = parts.filter((p) => p.type !== 'tool-result');
      if (results.length > 0) out.push({ role: 'tool', ours: m.index, parts: results });
      if (rest.length > 0 || results.length === 0)
        out.push({ role: 'user', ours: m.index, parts: rest });
    }
  }
  return out;
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
  const last = view.length - 1;
  let msgs = view.map((s, i) =>
    s.role === 'assistant' && s.parts && i !== last
      ? { ...s, parts: s.parts.filter((p) => p.type !== 'reasoning') }
      : s,
  );
  const keptIds = new Set<string>();
  for (const s of msgs.slice(-keepLast))
    if (s.role === 'assistant' || s.role === 'tool')
      for (const p of s.parts ?? []) if (p.id !== undefined) keptIds.add(p.id);
  msgs = msgs.map((s, i) => {
    if ((s.role !== 'assistant' && s.role !== 'tool') || !s.parts || i >= msgs.length - keepLast)
      return s;
    const parts = s.parts;
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
      let kept = false;
      while (f < parts.length && parts[f]?.type !== 'reasoning') {
        any = true;
        kept ||= keep[f] === true;
        f++;
      }
      if (any && !kept) for (let x = r; x < end; x++) keep[x] = false;
      r = f - 1;
    }
    return { ...s, parts: parts.filter((_, x) => keep[x]) };
  });
  return msgs.filter((s) => (s.parts ? s.parts.length > 0 : (s.text ?? '').length > 0));
}

export const aiSdkPrunePolicy: EvictionPolicy = {
  help: 'AI SDK pruneMessages (reasoning before the last message, tool calls before the last 2 messages, empty messages removed)',
  options: [],
  keepsTask: false,
  summarises: false,
  monotone: true,
  cuts: (ctx) => ({ candidates: Int32Array.of(), floor: ctx.cuts.n }),
  units: () => [],
  rewrite: (ctx) => {
    const ms = ctx.cuts.t.messages;
    const after = pruneView(sdkView(ms));
    const stays = new Set<string>();
    const present = new Set<number>();
    for (const s of after) {
      present.add(s.ours);
      for (const p of s.parts ?? []) stays.add(`${p.m}:${p.b}`);
    }
    const edits: BlockEdit[] = [];
    const evicted: number[] = [];
    for (const m of ms) {
      const keptHere = isPinned(m)
        ? present.has(m.index)
        : m.blocks.some((_, i) => stays.has(`${m.index}:${i}`));
      if (!keptHere) {
        evicted.push(m.index);
        continue;
      }
      if (isPinned(m)) continue;
      m.blocks.forEach((_, i) => {
        if (!stays.has(`${m.index}:${i}`))
          edits.push({ index: m.index, block: i, kind: 'removed', tokens: blockTokens(ctx, m, i) });
      });
    }
    return twoStepPlan(ctx, edits, evicted);
  },
};
