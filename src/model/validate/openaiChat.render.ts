/** Normalised messages as Chat Completions sends them (split from openaiChat.ts). */
import type { Message } from '../types.ts';
import type { RenderedItem, RenderedMessage } from './types.ts';

/**
 * Render normalised messages as Chat Completions messages: a user message carrying tool results
 * (Anthropic shape) becomes one `tool` message per result, followed by a user message with the
 * rest of its content, if any. Everything else maps one to one.
 */
export function renderOpenAIChat(messages: readonly Message[]): RenderedMessage[] {
  const out: RenderedMessage[] = [];
  for (const m of messages) {
    // Loops, no closures or filtered arrays per message: this runs on every check (issue 17).
    const items: RenderedItem[] = [];
    let results = 0;
    for (let blockIndex = 0; blockIndex < m.blocks.length; blockIndex++) {
      const block = m.blocks[blockIndex] as Message['blocks'][number];
      if (block.type === 'tool_result') results++;
      items.push({ block, msg: m, blockIndex });
    }
    // A user message carrying results (Anthropic shape), or one `tool` message carrying several
    // (the AI SDK's shape), becomes one Chat Completions `tool` message per result.
    if ((m.role === 'user' && results > 0) || (m.role === 'tool' && results > 1)) {
      const rest: RenderedItem[] = [];
      for (const it of items) {
        if (it.block.type === 'tool_result') out.push({ role: 'tool', items: [it], sources: [m] });
        else rest.push(it);
      }
      if (rest.length > 0) out.push({ role: 'user', items: rest, sources: [m] });
    } else {
      out.push({ role: m.role, items, sources: [m] });
    }
  }
  return out;
}
