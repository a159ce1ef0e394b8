/**
 * claude.ai data export `conversations.json`: `[{uuid, name, created_at, updated_at, model?,
 * chat_messages: [{uuid, sender: 'human' | 'assistant', text, content: [block], attachments:
 * [{file_name, file_type, file_size, extracted_content}], files: [{file_name, file_kind?}],
 * created_at}]}]`, or one such conversation.
 * Source of the shape: docs/formats.md#claude-ai-export (`chat_messages` with sender
 * human/assistant, no usage). Content blocks follow the Messages API: `text`,
 * `thinking`, `tool_use {id, name, input}`, `tool_result {tool_use_id, name, content, is_error}`.
 *
 * claude.ai runs its tools itself, inside the assistant turn: the export keeps each `tool_use`
 * and its `tool_result` in the same assistant message. They are read as server tool blocks
 * (`server: true` / `server: 'tool_result'`), which pair inside the assistant turn (§1.3), so the
 * export is not flagged for results "missing" from the next user message. Older exports without
 * ids: calls are named by message and position and results paired by position and name within
 * the turn (docs/formats.md#pairing), with a warning. A message with an empty `content` list
 * falls back to its `text`. Attachments with `extracted_content` are text the model read: they
 * become text blocks; other attachments and files become document/image blocks.
 *
 * A file with several conversations is a multi-request file: `listClaudeAiConversations` gives
 * one entry per conversation. Default provider: Anthropic.
 *
 * Writing back (`write`): the conversation with `chat_messages` replaced; untouched messages from
 * their raw value, new or changed ones as `{sender, text, content}` with the blocks above.
 */
import type { Block, Message, Result, Role, Transcript } from '../../types.ts';
import type { RequestEntry } from '../multi.ts';
import type { FormatParser } from '../registry.ts';
import { serverToolUse } from '../anthropicMessages/anthropicMessages.ts';
import { arr, isObject, type Json, notAnObject, requestLabel, shapeError, str } from '../util.ts';
import { isMedia, jsonDocumentOnly } from '../util.ts';
import { nameTable } from '../../own.ts';

const SENDERS: ReadonlyMap<string, Role> = nameTable({ human: 'user', assistant: 'assistant' });

/** True for one exported conversation: a `chat_messages` list. */
function isConversation(v: unknown): v is Json & { chat_messages: unknown[] } {
  return isObject(v) && Array.isArray(v.chat_messages);
}

/**
 * Sniff: a conversation (or an array whose first 5 items are conversations) whose first messages
 * (three in four at least) carry `sender`. Never throws.
 */
function sniff(v: unknown): number {
  const convs = Array.isArray(v) ? v.slice(0, 5) : [v];
  if (convs.length === 0 || !convs.every(isConversation)) return 0;
  const msgs = convs.flatMap((c) => c.chat_messages.slice(0, 5));
  if (msgs.length === 0) return convs.every((c) => 'uuid' in c) ? 0.7 : 0;
  const senders = msgs.filter((m) => isObject(m) && typeof m.sender === 'string').length;
  return senders / msgs.length >= 0.75 ? 0.95 : 0;
}

/** Text of a tool_result's `content`: a string or a list of text blocks. */
function resultContent(c: unknown): Block[] {
  if (typeof c === 'string') return [{ type: 'text', text: c }];
  const list = arr(c);
  if (!list)
    return c === undefined || c === null ? [] : [{ type: 'other', label: 'content', raw: c }];
  return list.map((x) =>
    isObject(x) && x.type === 'text' && typeof x.text === 'string'
      ? { type: 'text', text: x.text }
      : typeof x === 'string'
        ? { type: 'text', text: x }
        : { type: 'other', label: isObject(x) ? (str(x.type) ?? 'item') : typeof x, raw: x },
  );
}

/** One content block of a chat message. */
function block(b: unknown): Block {
  if (!isObject(b)) return { type: 'other', label: typeof b, raw: b };
  switch (b.type) {
    case 'text':
      return typeof b.text === 'string'
        ? { type: 'text', text: b.text }
        : { type: 'other', label: 'text', raw: b };
    case 'thinking':
      return { type: 'thinking', thinking: str(b.thinking) ?? '' };
    case 'tool_use':
      return serverToolUse(b);
    case 'tool_result': {
      const name = str(b.name);
      return {
        type: 'tool_result',
        toolUseId: str(b.tool_use_id) ?? null,
        isError: b.is_error === true,
        content: resultContent(b.content),
        server: 'tool_result',
        ...(name !== undefined ? { name } : {}),
      };
    }
    default:
      return { type: 'other', label: str(b.type) ?? 'unknown', raw: b };
  }
}

/** Attachments (text the model read) and files (uploads) of a human message. */
function uploads(m: Json): Block[] {
  const out: Block[] = [];
  for (const a of arr(m.attachments) ?? []) {
    if (!isObject(a)) continue;
    if (typeof a.extracted_content === 'string' && a.extracted_content !== '')
      out.push({ type: 'text', text: a.extracted_content });
    else
      out.push({
        type: 'document',
        ...(str(a.file_type) ? { mediaType: str(a.file_type) as string } : {}),
        ...(typeof a.file_size === 'number' ? { bytes: a.file_size } : {}),
      });
  }
  for (const f of arr(m.files) ?? arr(m.files_v2) ?? []) {
    if (!isObject(f)) continue;
    out.push(f.file_kind === 'image' ? { type: 'image' } : { type: 'document' });
  }
  return out;
}

function message(m: unknown, i: number): Message {
  const path = `chat_messages.${i}`;
  if (!isObject(m)) return notAnObject(m, path, i);
  const role = SENDERS.get(str(m.sender) ?? '');
  const content = arr(m.content);
  let blocks: Block[] =
    content && content.length > 0
      ? content.map(block)
      : typeof m.text === 'string'
        ? [{ type: 'text', text: m.text }]
        : [];
  if (role === undefined) blocks = [{ type: 'other', label: `sender ${String(m.sender)}`, raw: m }];
  if (role === 'user') blocks = [...blocks, ...uploads(m)];
  const timestamp = str(m.created_at);
  const sourceId = str(m.uuid);
  return {
    index: i,
    rawIndex: i,
    path,
    role: role ?? 'user',
    blocks,
    raw: m,
    ...(timestamp !== undefined || sourceId !== undefined
      ? {
          meta: {
            ...(sourceId !== undefined ? { sourceId } : {}),
            ...(timestamp !== undefined ? { timestamp } : {}),
          },
        }
      : {}),
  };
}

/**
 * Older exports have no ids on tool blocks. A call without an id is named `<message uuid or
 * path>#<block index>`; a result without one answers the nearest earlier call of the same turn
 * with the same name (or any, for a result without a name) that no other result took.
 * @returns how many blocks were named this way
 */
function pairWithoutIds(m: Message): number {
  let named = 0;
  const open: { id: string; name: string }[] = [];
  const base = m.meta?.sourceId ?? m.path;
  m.blocks.forEach((b, k) => {
    if (b.type === 'tool_use') {
      if (b.id === null) {
        b.id = `${base}#${k}`;
        named++;
      }
      open.push({ id: b.id, name: b.name });
    } else if (b.type === 'tool_result' && b.toolUseId === null) {
      named++;
      let at = -1;
      for (let i = open.length - 1; i >= 0; i--)
        if (b.name === undefined || open[i]?.name === b.name) {
          at = i;
          break;
        }
      const call = open[at];
      if (call) {
        b.toolUseId = call.id;
        open.splice(at, 1);
      }
    } else if (b.type === 'tool_result') {
      const i = open.findIndex((c) => c.id === b.toolUseId);
      if (i >= 0) open.splice(i, 1);
    }
  });
  return named;
}

/**
 * Parse a claude.ai export: the first conversation of the value (a file of several reaches here
 * one conversation at a time through `listClaudeAiConversations`).
 * @param v the parsed `conversations.json` (an array) or one conversation object
 * @returns the conversation's `chat_messages` as a transcript (model from `model` when the export
 *   has it; no tools, no usage), or a shape error for anything else. Never throws.
 */
function parse(v: unknown): Result<Transcript> {
  const conv = Array.isArray(v) ? v[0] : v;
  if (!isConversation(conv))
    return shapeError('Expected a claude.ai export: conversations with `chat_messages`.');
  const warnings: string[] = [];
  if (Array.isArray(v) && v.length > 1)
    warnings.push(
      `This export holds ${v.length} conversations; showing the first. Pick another in the request list.`,
    );
  const messages = conv.chat_messages.map(message);
  const named = messages.reduce((n, m) => n + pairWithoutIds(m), 0);
  if (named > 0)
    warnings.push(
      `${named} tool block(s) carry no id (an older export): each call is named by its message and position (\`<uuid>#<block>\`), and the result after it in the same turn with the same tool name answers it.`,
    );
  const model = str(conv.model);
  return {
    ok: true,
    value: {
      format: 'claude-ai-export',
      system: [],
      tools: null,
      settings: model !== undefined && model !== '' ? { model } : {},
      usage: [],
      messages,
      warnings,
      listKey: 'chat_messages',
      raw: v,
    },
  };
}

/**
 * The conversations of a claude.ai export, for the request picker (multi.ts `listRequests`).
 * @param v a parsed JSON value
 * @returns one entry per conversation (`#2 · <name> · 14 messages`) whose value is a one-item
 *   array; `[]` unless the value is an array of two or more conversations. Never throws.
 */
export function listClaudeAiConversations(v: unknown): RequestEntry[] {
  if (!Array.isArray(v) || v.length < 2 || sniff(v) === 0) return [];
  return v.map((c, i) => {
    const name = isObject(c) ? str(c.name) : undefined;
    const n = isObject(c) ? arr(c.chat_messages)?.length : undefined;
    const label = requestLabel(
      i,
      name !== undefined && name !== '' ? name.slice(0, 60) : undefined,
      n !== undefined ? `${n} messages` : undefined,
    );
    return { label, value: [c] };
  });
}

/** A block in the export's content shape (the inverse of `block`). */
function toExportBlock(b: Block): unknown {
  switch (b.type) {
    case 'text':
      return { type: 'text', text: b.text };
    case 'thinking':
      return { type: 'thinking', thinking: b.thinking };
    case 'tool_use':
      return { type: 'tool_use', id: b.id, name: b.name, input: b.input };
    case 'tool_result':
      return {
        type: 'tool_result',
        tool_use_id: b.toolUseId,
        ...(b.name !== undefined ? { name: b.name } : {}),
        content: b.content.map(toExportBlock),
        is_error: b.isError,
      };
    case 'other':
      return b.raw;
    default:
      return { type: b.type };
  }
}

/** A message as a chat message: its raw value when untouched, else rebuilt from its blocks. */
function toChatMessage(m: Message): unknown {
  if (m.raw !== undefined) return m.raw;
  const human = m.role !== 'assistant';
  // A human message's media are its uploads (as read: `uploads`), not content blocks.
  const media = (b: Block) => human && isMedia(b);
  const blocks = m.blocks.filter((b) => !media(b));
  const out: Json = {
    sender: human ? 'human' : 'assistant',
    text: blocks.map((b) => (b.type === 'text' ? b.text : '')).join(''),
    content: blocks.map(toExportBlock),
  };
  if (!human) return out;
  const attachments: Json[] = [];
  const files: Json[] = [];
  for (const b of m.blocks)
    if (b.type === 'image') files.push({ file_kind: 'image', file_name: 'image' });
    else if (b.type === 'document' && b.mediaType === undefined && b.bytes === undefined)
      files.push({ file_kind: 'document', file_name: 'document' });
    else if (b.type === 'document')
      attachments.push({
        file_name: 'document',
        ...(b.mediaType !== undefined ? { file_type: b.mediaType } : {}),
        ...(b.bytes !== undefined ? { file_size: b.bytes } : {}),
        extracted_content: '',
      });
  return { ...out, attachments, files };
}

/** The conversation with `chat_messages` rewritten, in the value's own wrapping (array or not). */
function write(t: Transcript): string {
  const first = Array.isArray(t.raw) ? t.raw[0] : t.raw;
  const conv: Json = isObject(first) ? first : {};
  const out = { ...conv, chat_messages: t.messages.map(toChatMessage) };
  return JSON.stringify(Array.isArray(t.raw) || !isObject(t.raw) ? [out] : out, null, 2);
}

export const claudeAiExportParser: FormatParser = {
  id: 'claude-ai-export',
  label: 'claude.ai data export',
  provider: 'anthropic',
  category: 'archive',
  resultStyle: 'user',
  listRequests: listClaudeAiConversations,
  expected:
    'a claude.ai data export (conversations.json): conversations with `chat_messages` (sender human/assistant, `text`, `content` blocks)',
  sniff,
  parse: jsonDocumentOnly(parse, 'A claude.ai export is one JSON document, not JSON Lines.'),
  write,
};
