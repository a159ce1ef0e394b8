/**
 * Responses input items as the API sees them: a transcript from any format rendered into the
 * items the OpenAI Responses validator (openaiResponses.ts) checks. Each tool_use becomes a
 * `function_call` item, each tool_result a `function_call_output` item, each run of text a
 * message item, each run of thinking blocks a reasoning item.
 */
import type { Message } from '../types.ts';

/** One Responses input item as the API sees it. */
export interface ResponsesItem {
  kind: 'message' | 'call' | 'output' | 'reasoning' | 'other';
  /** Message role for `message` items; `assistant` for calls, reasoning and server items. */
  role: string;
  /** The source message and the block that makes this item (null for a whole message). */
  msg: Message;
  blockIndex: number | null;
  callId: string | null;
  /** Server item id (`fc_…`, `msg_…`, `rs_…`), when the item carries one. */
  itemId: string | null;
  /** Responses item type for messages (`function_call`, `custom_tool_call`, …). */
  type: string;
}

/**
 * Render normalised messages as Responses input items (see the file comment). A message parsed
 * from a Responses item gives exactly one item.
 * @param messages the messages to send (any subset)
 * @param itemIds whether `meta.sourceId` holds Responses item ids (the format registry's `itemIds`)
 */
export function renderResponses(messages: readonly Message[], itemIds: boolean): ResponsesItem[] {
  const out: ResponsesItem[] = [];
  for (const m of messages) {
    const start = out.length;
    let pending: ResponsesItem | null = null;
    const rawType =
      typeof m.raw === 'object' &&
      m.raw !== null &&
      typeof (m.raw as { type?: unknown }).type === 'string'
        ? String((m.raw as { type: string }).type)
        : '';
    // Plain loops, no closures per message: this runs on every check of a request (issue 17).
    for (let bi = 0; bi < m.blocks.length; bi++) {
      const b = m.blocks[bi] as Message['blocks'][number];
      switch (b.type) {
        case 'text':
        case 'image':
        case 'document':
          if (pending?.kind !== 'message') {
            if (pending) out.push(pending);
            pending = {
              kind: 'message',
              role: m.role === 'tool' ? 'user' : m.role,
              msg: m,
              blockIndex: bi,
              callId: null,
              itemId: null,
              type: 'message',
            };
          }
          break;
        case 'thinking':
        case 'redacted_thinking':
          if (pending?.kind !== 'reasoning') {
            if (pending) out.push(pending);
            pending = {
              kind: 'reasoning',
              role: 'assistant',
              msg: m,
              blockIndex: bi,
              callId: null,
              itemId: null,
              type: 'reasoning',
            };
          }
          if (b.type === 'redacted_thinking' && b.itemId)
            (pending as ResponsesItem).itemId = b.itemId;
          break;
        case 'tool_use':
          if (pending) out.push(pending);
          pending = null;
          if (b.server)
            out.push({
              kind: 'other',
              role: 'assistant',
              msg: m,
              blockIndex: bi,
              callId: b.id,
              itemId: null,
              type: 'server_tool',
            });
          else
            out.push({
              kind: 'call',
              role: 'assistant',
              msg: m,
              blockIndex: bi,
              callId: b.id,
              itemId: b.itemId ?? null,
              type: rawType && rawType.endsWith('_call') ? rawType : 'function_call',
            });
          break;
        case 'tool_result':
          if (pending) out.push(pending);
          pending = null;
          if (b.server !== undefined)
            out.push({
              kind: 'other',
              role: 'assistant',
              msg: m,
              blockIndex: bi,
              callId: b.toolUseId,
              itemId: null,
              type: 'server_tool',
            });
          else
            out.push({
              kind: 'output',
              role: 'user',
              msg: m,
              blockIndex: bi,
              callId: b.toolUseId,
              itemId: null,
              type: rawType || 'function_call_output',
            });
          break;
        case 'other':
          if (pending) out.push(pending);
          pending = null;
          out.push({
            kind: 'other',
            role: m.role,
            msg: m,
            blockIndex: bi,
            callId: null,
            itemId: null,
            type: b.label,
          });
          break;
      }
    }
    if (pending) out.push(pending);
    if (out.length === start)
      out.push({
        kind: 'message',
        role: m.role,
        msg: m,
        blockIndex: null,
        callId: null,
        itemId: null,
        type: 'message',
      });
    // A message item parsed from Responses keeps its server id in meta.sourceId.
    const only = out.length === start + 1 ? out[start] : undefined;
    if (itemIds && only && only.itemId === null && m.meta?.sourceId) only.itemId = m.meta.sourceId;
  }
  return out;
}
