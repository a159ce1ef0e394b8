/**
 * OpenAI Responses API: a request body (`{input, instructions, tools, …}`), a bare `input` item
 * array, or a response object (`{object: "response", output: […]}`).
 * Source of the shape: openai-node `ResponseInputItem` (docs/formats.md#openai-responses).
 *
 * One normalised message per item (rawIndex = item index, path `input.N`): message items keep
 * their role; `function_call` / `custom_tool_call` (and the built-in `*_call` items that carry a
 * `call_id`) become an assistant message with one tool_use (id = `call_id`, item id `fc_…` in
 * `itemId`); their outputs become a `tool` message with one tool_result; a `reasoning` item
 * becomes an assistant message with a redacted_thinking block (item id `rs_…`, encrypted content
 * never tokenised) preceded by thinking blocks for its summary / reasoning text. Every item id is
 * kept in `meta.sourceId` (R3–R6 need them).
 */
import type { Block, MediaBlock, Message, Result, Role, Transcript, ToolDef } from '../../types.ts';
import type { ToolUseBlock, UsageRecord } from '../../types.ts';
import type { FormatParser } from '../registry.ts';
import { arr, base64Bytes, isObject, type Json, parseArguments, shapeError, str } from '../util.ts';
import {
  bareListTranscript,
  jsonDocumentOnly,
  notAnObject,
  readDataUrl,
  toolDef,
} from '../util.ts';
import { writeResponses } from './openaiResponsesWrite.ts';
import {
  CALL_TYPES,
  KNOWN_TYPES,
  MESSAGE_ROLES,
  OUTPUT_TYPES,
  PART_TYPES,
  SERVER_ITEMS,
  STRONG_TYPES,
} from './openaiResponsesItems.ts';
import { responsesNearMiss } from './openaiResponsesShape.ts';

/**
 * An `input_image`/`input_file` part as a media block: a `file_id` is a stored file (`source:
 * 'file'`), an http(s) address a URL (`source: 'url'`), a data URL gives its media type and
 * payload size; `file_data` may also be bare base64 (a size).
 */
function mediaBlock(type: 'image' | 'document', p: Record<string, unknown>): Block {
  const b: MediaBlock = { type };
  const url = str(type === 'image' ? p.image_url : (p.file_url ?? p.file_data));
  if (typeof p.file_id === 'string') b.source = 'file';
  else if (url !== undefined && /^https?:/i.test(url)) b.source = 'url';
  else if (url !== undefined) {
    const data = readDataUrl(url);
    if (data) Object.assign(b, data);
    else if (type === 'document') b.bytes = base64Bytes(url);
  }
  return b;
}

/** Map one content part of a message item (or of a tool output) to a block. */
function part(p: unknown): Block {
  if (typeof p === 'string') return { type: 'text', text: p };
  if (!isObject(p)) return { type: 'other', label: typeof p, raw: p };
  switch (p.type) {
    case 'input_text':
    case 'output_text':
    case 'text':
      return typeof p.text === 'string'
        ? { type: 'text', text: p.text }
        : { type: 'other', label: String(p.type), raw: p };
    case 'refusal':
      return { type: 'text', text: str(p.refusal) ?? '' };
    case 'input_image':
      return mediaBlock('image', p);
    case 'input_file':
      return mediaBlock('document', p);
    case 'input_audio':
      return { type: 'document', mediaType: 'audio' };
    default:
      return { type: 'other', label: str(p.type) ?? 'unknown', raw: p };
  }
}

function contentBlocks(c: unknown): { blocks: Block[]; stringContent: boolean } {
  if (typeof c === 'string') return { blocks: [{ type: 'text', text: c }], stringContent: true };
  if (Array.isArray(c)) return { blocks: c.map(part), stringContent: false };
  if (c === undefined || c === null) return { blocks: [], stringContent: false };
  return { blocks: [{ type: 'other', label: 'content', raw: c }], stringContent: false };
}

/**
 * The message of one item: built field by field, not spread (an object literal that adds fields
 * after a spread costs microseconds per item in Node 20's V8: issue 17, `check` per request).
 */
function itemMessage(
  item: unknown,
  i: number,
  path: string,
  id: string | undefined,
  role: Role,
  blocks: Block[],
): Message {
  const m: Message = { index: i, rawIndex: i, path, raw: item, role, blocks };
  if (id) m.meta = { sourceId: id };
  return m;
}

/**
 * The `text` of each part of a reasoning item's `summary` or `content`, joined by blank lines;
 * null when there is none. Loops, not `flatMap`: it runs per reasoning item on every check.
 */
function joinedTexts(list: unknown): string | null {
  if (!Array.isArray(list)) return null;
  let out: string | null = null;
  for (const s of list as unknown[])
    if (isObject(s) && typeof s.text === 'string')
      out = out === null ? s.text : `${out}\n\n${s.text}`;
  return out;
}

/** True when an item is an `item_reference` (read as an `other` block of that label). */
function hasItemReference(messages: readonly Message[]): boolean {
  for (const m of messages)
    for (const b of m.blocks) if (b.type === 'other' && b.label === 'item_reference') return true;
  return false;
}

/**
 * Normalise one Responses item.
 * @param item the item as pasted
 * @param i its index in `input` / `output`
 * @param listKey `input` or `output`
 * @returns one message; never throws (unknown items become an `other` block)
 */
export function responsesItem(item: unknown, i: number, listKey: string): Message {
  const path = `${listKey}.${i}`;
  if (!isObject(item)) return notAnObject(item, path, i);
  const type = str(item.type) ?? (item.role !== undefined ? 'message' : '');
  const id = str(item.id);
  const callId = str(item.call_id) ?? null;
  if (type === 'message') {
    const role = MESSAGE_ROLES.get(str(item.role) ?? '') ?? 'user';
    const { blocks, stringContent } = contentBlocks(item.content);
    const m = itemMessage(item, i, path, id, role, blocks);
    if (stringContent) m.stringContent = stringContent;
    return m;
  }
  if (CALL_TYPES.has(type)) {
    const name = str(item.name) ?? type.replace(/_call$/, '');
    const input =
      type === 'function_call'
        ? parseArguments(item.arguments)
        : type === 'custom_tool_call'
          ? item.input
          : (item.action ?? item.arguments ?? item.input);
    const block: ToolUseBlock = { type: 'tool_use', id: callId, name, input };
    if (id) block.itemId = id;
    return itemMessage(item, i, path, id, 'assistant', [block]);
  }
  if (OUTPUT_TYPES.has(type)) {
    const out = item.output;
    const content: Block[] =
      typeof out === 'string'
        ? [{ type: 'text', text: out }]
        : Array.isArray(out)
          ? out.map(part)
          : out === undefined || out === null
            ? []
            : [{ type: 'text', text: JSON.stringify(out) }];
    const isError = item.status === 'incomplete' || (isObject(out) && 'error' in out);
    return itemMessage(item, i, path, id, 'tool', [
      { type: 'tool_result', toolUseId: callId, isError, content },
    ]);
  }
  if (type === 'reasoning') {
    const blocks: Block[] = [];
    const summary = joinedTexts(item.summary);
    if (summary !== null) blocks.push({ type: 'thinking', thinking: summary });
    const content = joinedTexts(item.content);
    if (content !== null) blocks.push({ type: 'thinking', thinking: content });
    const enc = str(item.encrypted_content);
    const redacted: Block = { type: 'redacted_thinking', bytes: enc ? enc.length : 0 };
    if (id) redacted.itemId = id;
    blocks.push(redacted);
    return itemMessage(item, i, path, id, 'assistant', blocks);
  }
  const role: Role = SERVER_ITEMS.has(type) || type === 'compaction' ? 'assistant' : 'user';
  return itemMessage(item, i, path, id, role, [
    { type: 'other', label: type || 'unknown', raw: item },
  ]);
}

/** Score one item of a bare array: -1 not Responses, 0 neutral (could be Chat), 1 Responses. */
function itemScore(it: unknown): number {
  if (!isObject(it)) return -1;
  const type = str(it.type);
  if (type !== undefined) {
    if (STRONG_TYPES.has(type))
      return 'call_id' in it || 'id' in it || type === 'reasoning' ? 1 : 0;
    if (type !== 'message') return KNOWN_TYPES.has(type) ? 0 : -1;
  }
  const role = str(it.role);
  if (!role || !MESSAGE_ROLES.has(role)) return -1;
  if ('tool_calls' in it || 'tool_call_id' in it || 'function_call' in it) return -1;
  const c = it.content;
  if (Array.isArray(c)) {
    if (c.some((p) => !isObject(p) || typeof p.type !== 'string' || !PART_TYPES.has(p.type)))
      return -1;
    return c.length > 0 ? 1 : 0;
  }
  if (typeof c !== 'string') return -1;
  return type === 'message' ? 1 : 0;
}

function sniffItems(list: unknown[], min: number): number {
  if (list.length === 0) return 0;
  let strong = false;
  const n = Math.min(list.length, 200);
  for (let k = 0; k < n; k++) {
    const s = itemScore(list[k]);
    if (s < 0) return 0;
    if (s > 0) strong = true;
  }
  return strong ? 0.9 : min;
}

function sniff(v: unknown): number {
  if (Array.isArray(v)) return sniffItems(v, 0);
  if (!isObject(v)) return 0;
  if (v.object === 'response' && Array.isArray(v.output)) return 0.95;
  if ('messages' in v || 'contents' in v) return 0;
  if (typeof v.input === 'string') return 'model' in v || 'instructions' in v ? 0.7 : 0.4;
  const input = arr(v.input);
  if (!input) return 0;
  if (input.length === 0) return 'instructions' in v ? 0.6 : 0.3;
  const s = sniffItems(input, 0.6);
  if (s === 0) return 0;
  return Math.min(1, s + ('instructions' in v || 'previous_response_id' in v ? 0.05 : 0));
}

function parseTools(v: unknown): ToolDef[] | null {
  const list = arr(v);
  if (!list) return null;
  const out: ToolDef[] = [];
  for (const t of list)
    if (isObject(t))
      out.push(
        toolDef(
          str(t.name) ?? str(t.type) ?? '',
          t.description,
          t.parameters !== undefined ? t.parameters : t.format,
        ),
      );
  return out;
}

function usageOf(u: unknown, messageIndex: number | undefined): UsageRecord[] {
  if (!isObject(u)) return [];
  const rec: UsageRecord = {};
  if (messageIndex !== undefined) rec.messageIndex = messageIndex;
  if (typeof u.input_tokens === 'number') rec.inputTokens = u.input_tokens;
  if (typeof u.output_tokens === 'number') rec.outputTokens = u.output_tokens;
  const itd = isObject(u.input_tokens_details) ? u.input_tokens_details : {};
  if (typeof itd.cached_tokens === 'number') rec.cacheReadTokens = itd.cached_tokens;
  const otd = isObject(u.output_tokens_details) ? u.output_tokens_details : {};
  if (typeof otd.reasoning_tokens === 'number') rec.reasoningTokens = otd.reasoning_tokens;
  return [rec];
}

function systemOf(instructions: unknown): Transcript['system'] {
  if (typeof instructions === 'string')
    return instructions.length > 0 ? [{ text: instructions, path: 'instructions' }] : [];
  const list = arr(instructions);
  if (!list) return [];
  return list.flatMap((it, i) => {
    if (!isObject(it)) return [];
    const { blocks } = contentBlocks(it.content);
    const text = blocks.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n');
    return text ? [{ text, path: `instructions.${i}` }] : [];
  });
}

function settingsOf(v: Json): Transcript['settings'] {
  const model = str(v.model);
  const tc = v.tool_choice;
  const forced =
    tc === 'required' || (isObject(tc) && tc.type !== 'allowed_tools' && tc.type !== undefined);
  const fmt = isObject(v.text) && isObject(v.text.format) ? v.text.format.type : undefined;
  const settings: Transcript['settings'] = {};
  if (model) settings.model = model;
  if (forced) settings.toolChoiceForced = true;
  if (fmt === 'json_schema') settings.outputFormat = true;
  return settings;
}

/** The messages of an item list (a loop, no closure: it runs on every check, issue 17). */
function itemMessages(list: readonly unknown[], listKey: string): Message[] {
  const out: Message[] = new Array<Message>(list.length);
  for (let i = 0; i < list.length; i++) out[i] = responsesItem(list[i], i, listKey);
  return out;
}

function parse(v: unknown): Result<Transcript> {
  if (Array.isArray(v))
    return bareListTranscript('openai-responses', v, 'input', itemMessages(v, 'input'));
  if (!isObject(v))
    return shapeError(
      'Expected a Responses request body with `input`, an array of input items, or a response object.',
    );
  const warnings: string[] = [];
  if (v.object === 'response') {
    const list = arr(v.output) ?? [];
    const messages = itemMessages(list, 'output');
    warnings.push('This is a response object: its output items, no request around them.');
    return {
      ok: true,
      value: {
        format: 'openai-responses',
        usage: usageOf(v.usage, messages.length > 0 ? messages.length - 1 : undefined),
        warnings,
        raw: v,
        system: systemOf(v.instructions),
        tools: parseTools(v.tools),
        settings: settingsOf(v),
        listKey: 'output',
        messages,
      },
    };
  }
  if (typeof v.previous_response_id === 'string' || v.conversation !== undefined) {
    warnings.push(
      'The request continues server-held history (`previous_response_id` / `conversation`): the earlier turns are not in this paste, so pairing and counts cover only what is visible.',
    );
  }
  let messages: Message[];
  if (typeof v.input === 'string') {
    messages = [
      {
        index: 0,
        rawIndex: 0,
        path: 'input',
        role: 'user',
        stringContent: true,
        blocks: [{ type: 'text', text: v.input }],
        raw: { role: 'user', content: v.input },
      },
    ];
  } else {
    messages = itemMessages(arr(v.input) ?? [], 'input');
  }
  if (hasItemReference(messages)) {
    warnings.push(
      'Some items are `item_reference`s: their content is stored server-side and is not in this paste.',
    );
  }
  return {
    ok: true,
    value: {
      format: 'openai-responses',
      usage: [],
      warnings,
      raw: v,
      system: systemOf(v.instructions),
      tools: parseTools(v.tools),
      settings: settingsOf(v),
      listKey: 'input',
      messages,
    },
  };
}

export const openaiResponsesParser: FormatParser = {
  id: 'openai-responses',
  label: 'OpenAI Responses',
  provider: 'openai-responses',
  category: 'request',
  resultStyle: 'tool',
  // Responses items.
  blockWords: { call: 'function_call', result: 'function_call_output' },
  itemIds: true,
  expected:
    'an object with `input` (message items, `function_call` / `function_call_output` by `call_id`, `reasoning` items), a bare array of such items, or a response object with `object: "response"` and `output`',
  sniff,
  nearMiss: responsesNearMiss,
  parse: jsonDocumentOnly(parse, 'A Responses request is a JSON document, not JSON Lines.'),
  write: writeResponses,
};
