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

/** One item (a plain function, no closure: this runs on every check of a request, issue 17). */
function item(
  kind: ResponsesItem['kind'],
  role: string,
  msg: Message,
  blockIndex: number | null,
  callId: string | null,
  itemId: string | null,
  type: string,
): ResponsesItem {
  return { kind, role, msg, blockIndex, callId, itemId, type };
}

/** The Responses item type a message parsed from Responses had (`''` for other formats). */
function rawTypeOf(m: Message): string {
  const raw = m.raw as { type?: unknown } | null;
  return typeof raw === 'object' && raw !== null && typeof raw.type === 'string' ? raw.type : '';
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
    renderMessage(m, out);
    if (out.length === start) out.push(item('message', m.role, m, null, null, null, 'message'));
    // A message item parsed from Responses keeps its server id in meta.sourceId.
    const only = out.length === start + 1 ? out[start] : undefined;
    if (itemIds && only && only.itemId === null && m.meta?.sourceId) only.itemId = m.meta.sourceId;
  }
  return out;
}

/** The items of one message: runs of text and of thinking merge into one item each. */
function renderMessage(m: Message, out: ResponsesItem[]): void {
  const rawType = rawTypeOf(m);
  let pending: ResponsesItem | null = null;
  // Plain loops, no closures per message: this runs on every check of a request (issue 17).
  for (let bi = 0; bi < m.blocks.length; bi++) {
    const b = m.blocks[bi] as Message['blocks'][number];
    if (b.type === 'text' || b.type === 'image' || b.type === 'document') {
      if (pending?.kind === 'message') continue;
      if (pending) out.push(pending);
      const role = m.role === 'tool' ? 'user' : m.role;
      pending = item('message', role, m, bi, null, null, 'message');
      continue;
    }
    if (b.type === 'thinking' || b.type === 'redacted_thinking') {
      if (pending?.kind !== 'reasoning') {
        if (pending) out.push(pending);
        pending = item('reasoning', 'assistant', m, bi, null, null, 'reasoning');
      }
      if (b.type === 'redacted_thinking' && b.itemId) pending.itemId = b.itemId;
      continue;
    }
    if (pending) out.push(pending);
    pending = null;
    if (b.type === 'tool_use') {
      const callType = rawType.endsWith('_call') ? rawType : 'function_call';
      out.push(
        b.server
          ? item('other', 'assistant', m, bi, b.id, null, 'server_tool')
          : item('call', 'assistant', m, bi, b.id, b.itemId ?? null, callType),
      );
    } else if (b.type === 'tool_result') {
      out.push(
        b.server !== undefined
          ? item('other', 'assistant', m, bi, b.toolUseId, null, 'server_tool')
          : item('output', 'user', m, bi, b.toolUseId, null, rawType || 'function_call_output'),
      );
    } else if (b.type === 'other') out.push(item('other', m.role, m, bi, null, null, b.label));
  }
  if (pending) out.push(pending);
}
