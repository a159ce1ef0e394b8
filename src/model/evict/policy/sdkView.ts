/**
 * The AI SDK's view of our messages (`sdkView`: the SDK's `ModelMessage` list our blocks make)
 * and what its `pruneMessages` does to it (`pruneView`): what `ai-sdk-prune` (aiSdkPrune.ts)
 * prunes by, and what its tests compare with the library.
 */
import { isPinned } from '../../exchanges.ts';
import type { Message } from '../../types.ts';

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
