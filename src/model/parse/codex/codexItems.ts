/**
 * The items of a Codex rollout (`response_item` payloads, shaped like a Responses `input` array)
 * as messages: one handler per item kind. Split from codexJsonl.ts, which reads the lines.
 */
import type { Block, Role } from '../../types.ts';
import { MESSAGE_ROLES } from '../openaiResponses/openaiResponsesItems.ts';
import { arr, isObject, type Json, parseArguments, str } from '../util.ts';

function contentPart(p: unknown): Block {
  if (typeof p === 'string') return { type: 'text', text: p };
  if (!isObject(p)) return { type: 'other', label: typeof p, raw: p };
  if (
    (p.type === 'input_text' || p.type === 'output_text' || p.type === 'text') &&
    typeof p.text === 'string'
  )
    return { type: 'text', text: p.text };
  if (p.type === 'input_image') return { type: 'image' };
  if (p.type === 'input_file') return { type: 'document' };
  if (p.type === 'refusal') return { type: 'text', text: str(p.refusal) ?? '' };
  return { type: 'other', label: str(p.type) ?? 'unknown', raw: p };
}

function outputBlocks(o: unknown): Block[] {
  if (typeof o === 'string') return [{ type: 'text', text: o }];
  const list = arr(o);
  if (list) return list.map(contentPart);
  if (o === undefined || o === null) return [];
  return [{ type: 'other', label: 'output', raw: o }];
}

/** One item as a message's role and blocks; `sourceId` is the item's `id`. */
export type ItemMessage = { role: Role; blocks: Block[]; sourceId?: string };

/** A `message` item: its content parts as blocks, its role as given (user when unknown). */
function messageItem(p: Json, withId: { sourceId?: string }): ItemMessage {
  const c = p.content;
  const blocks =
    typeof c === 'string' ? [{ type: 'text' as const, text: c }] : (arr(c) ?? []).map(contentPart);
  return { role: MESSAGE_ROLES.get(str(p.role) ?? '') ?? 'user', blocks, ...withId };
}

/** A call item (`function_call`, `custom_tool_call`, …): one tool_use block keyed by `call_id`. */
function callItem(p: Json, id: string | undefined, withId: { sourceId?: string }): ItemMessage {
  const input =
    p.type === 'function_call'
      ? parseArguments(p.arguments)
      : p.type === 'custom_tool_call'
        ? p.input
        : (p.action ?? p.arguments);
  const name =
    str(p.name) ??
    (p.type === 'local_shell_call'
      ? 'local_shell'
      : p.type === 'tool_search_call'
        ? 'tool_search'
        : '');
  return {
    role: 'assistant',
    blocks: [
      {
        type: 'tool_use',
        id: str(p.call_id) ?? null,
        name,
        input,
        ...(id ? { itemId: id } : {}),
      },
    ],
    ...withId,
  };
}

/** An output item (`function_call_output`, …): a role `tool` message with one tool_result. */
function outputItem(p: Json, withId: { sourceId?: string }): ItemMessage {
  return {
    role: 'tool',
    blocks: [
      {
        type: 'tool_result',
        toolUseId: str(p.call_id) ?? null,
        isError: false,
        content: outputBlocks(p.output),
      },
    ],
    ...withId,
  };
}

/** A `reasoning` item: summary and content texts as one thinking block, then the encrypted part. */
function reasoningItem(
  p: Json,
  id: string | undefined,
  withId: { sourceId?: string },
): ItemMessage {
  const blocks: Block[] = [];
  const summary = (arr(p.summary) ?? [])
    .map((s) => (isObject(s) ? (str(s.text) ?? '') : ''))
    .filter((s) => s.length > 0);
  const content = (arr(p.content) ?? [])
    .map((s) => (isObject(s) ? (str(s.text) ?? '') : ''))
    .filter((s) => s.length > 0);
  if (summary.length > 0 || content.length > 0)
    blocks.push({ type: 'thinking', thinking: [...summary, ...content].join('\n\n') });
  if (typeof p.encrypted_content === 'string')
    blocks.push({
      type: 'redacted_thinking',
      bytes: p.encrypted_content.length,
      ...(id ? { itemId: id } : {}),
    });
  return { role: 'assistant', blocks, ...withId };
}

/**
 * Normalise one Responses-shaped item (a rollout `response_item` payload): its role, blocks and
 * item id. Unknown item types are kept verbatim as an `other` block.
 */
export function itemMessage(p: Json): ItemMessage {
  const id = str(p.id);
  const withId = id ? { sourceId: id } : {};
  switch (p.type) {
    case 'message':
      return messageItem(p, withId);
    case 'function_call':
    case 'custom_tool_call':
    case 'local_shell_call':
    case 'tool_search_call':
      return callItem(p, id, withId);
    case 'function_call_output':
    case 'custom_tool_call_output':
    case 'local_shell_call_output':
    case 'tool_search_output':
      return outputItem(p, withId);
    case 'reasoning':
      return reasoningItem(p, id, withId);
    default:
      // web_search_call, image_generation_call, compaction, … kept verbatim.
      return {
        role: 'assistant',
        blocks: [{ type: 'other', label: str(p.type) ?? 'item', raw: p }],
        ...withId,
      };
  }
}
