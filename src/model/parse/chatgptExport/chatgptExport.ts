/**
 * ChatGPT data export `conversations.json`: `[{title, create_time, update_time, mapping:
 * {<nodeId>: {id, parent, children[], message: {id, author: {role, name?}, create_time,
 * content: {content_type, parts?, text?, …}, recipient, metadata, …} | null}}, current_node,
 * conversation_id?, default_model_slug?}]`, or one such conversation.
 * Source of the shape: docs/formats.md#chatgpt-export (follow `parent` from `current_node`; no
 * usage). The conversation shown is the branch that ends at `current_node`, from the root down;
 * other branches (edited prompts, regenerated replies) are left out with a warning.
 *
 * Tools: an assistant message addressed to a tool (`recipient` other than `all`) is a
 * `tool_use`; a message by author role `tool` is a `tool_result` named `author.name`. The export
 * carries no call ids, so calls and results are paired by position and name (docs/formats.md#pairing): a
 * call takes its node id as its id, and a tool message that follows it (after only other tool
 * messages) with the same tool name, or none, answers that id. A tool message with no such call
 * keeps id null (an orphan).
 * Content types: `text`/`multimodal_text` parts (strings, image asset pointers → image blocks of
 * `size_bytes`), `code` and `execution_output` (`text`), `thoughts` and `reasoning_recap` →
 * thinking, `tether_quote`/`tether_browsing_display` → text, `user_editable_context` → text,
 * `system_error` → text (an error result for a tool); anything else → an `other` block.
 *
 * A file with several conversations is a multi-request file: `listChatgptConversations` gives one
 * entry per conversation. Messages have no list index in the source: `rawIndex` is the position
 * along the branch. Default provider: OpenAI (Chat Completions rules).
 *
 * Writing back (`write`): the conversation with `mapping` rebuilt as one chain (root, then one
 * node per written message, `current_node` the last): untouched messages from their raw value,
 * new or changed ones as text (with media: `multimodal_text`, asset pointers of their size)
 * messages, tool-addressed `code` messages and `tool` messages.
 */
import type { Block, Message, Result, Role, Transcript } from '../../types.ts';
import type { RequestEntry } from '../multi.ts';
import type { FormatParser } from '../registry.ts';
import { arr, isObject, type Json, parseArguments, shapeError, str } from '../util.ts';
import { argumentsText, isMedia, jsonDocumentOnly, requestLabel } from '../util.ts';
import { nameTable, ownRecord, ownValue } from '../../own.ts';

const ROLES: ReadonlyMap<string, Role> = nameTable({
  system: 'system',
  user: 'user',
  assistant: 'assistant',
  tool: 'tool',
});

/** True for one exported conversation: a `mapping` object and a `current_node` key. */
function isConversation(v: unknown): v is Json & { mapping: Json } {
  return isObject(v) && isObject(v.mapping) && 'current_node' in v;
}

/** Sniff: a conversation, or an array whose first items (up to 5) are all conversations. */
function sniff(v: unknown): number {
  if (isConversation(v)) return 0.95;
  if (!Array.isArray(v) || v.length === 0) return 0;
  return v.slice(0, 5).every(isConversation) ? 0.95 : 0;
}

/**
 * The node ids from the root to `current_node`, following `parent`. Stops at a missing node or a
 * cycle (a malformed export) and says so in `broken`.
 */
function branch(conv: Json & { mapping: Json }): { ids: string[]; broken?: string } {
  const ids: string[] = [];
  const seen = new Set<string>();
  let id = str(conv.current_node);
  if (id === undefined) return { ids, broken: '`current_node` is missing or not a string' };
  while (id !== undefined) {
    if (seen.has(id)) return { ids: ids.reverse(), broken: `a cycle at node ${id}` };
    const node = ownValue(conv.mapping, id);
    if (!isObject(node)) return { ids: ids.reverse(), broken: `node ${id} is not in \`mapping\`` };
    seen.add(id);
    ids.push(id);
    id = str(node.parent);
  }
  return { ids: ids.reverse() };
}

/** A part of a `text`/`multimodal_text` content: a string, an image asset pointer, or other. */
function part(p: unknown): Block {
  if (typeof p === 'string') return { type: 'text', text: p };
  if (!isObject(p)) return { type: 'other', label: typeof p, raw: p };
  if (p.content_type === 'image_asset_pointer')
    return {
      type: 'image',
      ...(typeof p.size_bytes === 'number' ? { bytes: p.size_bytes } : {}),
    };
  if (p.content_type === 'audio_transcription' && typeof p.text === 'string')
    return { type: 'text', text: p.text };
  if (p.content_type === 'audio_asset_pointer')
    return {
      type: 'document',
      mediaType: 'audio',
      ...(typeof p.size_bytes === 'number' ? { bytes: p.size_bytes } : {}),
    };
  return { type: 'other', label: str(p.content_type) ?? 'part', raw: p };
}

/** Blocks of a message `content` by its `content_type`. */
function contentBlocks(c: unknown): Block[] {
  if (!isObject(c))
    return c === undefined || c === null ? [] : [{ type: 'other', label: 'content', raw: c }];
  const parts = arr(c.parts);
  switch (c.content_type) {
    case 'text':
    case 'multimodal_text':
      return parts ? parts.map(part) : [];
    case 'code':
    case 'execution_output':
    case 'system_error':
    case 'tether_quote':
      return typeof c.text === 'string' ? [{ type: 'text', text: c.text }] : [];
    case 'tether_browsing_display':
      return typeof c.result === 'string' ? [{ type: 'text', text: c.result }] : [];
    case 'thoughts':
      return (arr(c.thoughts) ?? []).map((t) =>
        isObject(t) && typeof t.content === 'string'
          ? { type: 'thinking', thinking: t.content }
          : { type: 'other', label: 'thought', raw: t },
      );
    case 'reasoning_recap':
      return typeof c.content === 'string' ? [{ type: 'thinking', thinking: c.content }] : [];
    case 'user_editable_context': {
      const text = [str(c.user_profile), str(c.user_instructions)]
        .filter((x) => x !== undefined && x !== '')
        .join('\n\n');
      return text ? [{ type: 'text', text }] : [];
    }
    default:
      return [{ type: 'other', label: str(c.content_type) ?? 'content', raw: c }];
  }
}

function plainText(blocks: Block[]): string {
  return blocks.map((b) => (b.type === 'text' ? b.text : '')).join('\n');
}

function isoTime(t: unknown): string | undefined {
  if (typeof t !== 'number' || !Number.isFinite(t)) return undefined;
  const d = new Date(t * 1000);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

/** One node's message. `index` is the position along the branch. */
function message(m: Json, nodeId: string, index: number): Message {
  const author = isObject(m.author) ? m.author : {};
  const role = ROLES.get(str(author.role) ?? '') ?? 'user';
  let blocks = contentBlocks(m.content);
  const recipient = str(m.recipient);
  const contentType = isObject(m.content) ? str(m.content.content_type) : undefined;
  if (role === 'assistant' && recipient !== undefined && recipient !== 'all') {
    const code = plainText(blocks);
    blocks = [
      ...blocks.filter((b) => b.type === 'thinking'),
      { type: 'tool_use', id: nodeId, name: recipient, input: parseArguments(code) },
    ];
  } else if (role === 'tool') {
    const name = str(author.name);
    blocks = [
      {
        type: 'tool_result',
        toolUseId: null,
        isError: contentType === 'system_error',
        content: blocks,
        ...(name !== undefined ? { name } : {}),
      },
    ];
  }
  const timestamp = isoTime(m.create_time);
  return {
    index,
    rawIndex: index,
    path: `mapping.${nodeId}.message`,
    role,
    blocks,
    raw: m,
    meta: { sourceId: nodeId, ...(timestamp !== undefined ? { timestamp } : {}) },
  };
}

/**
 * Give each tool message the id of the call it answers: the nearest earlier call, before which
 * only tool messages stand, whose name matches the result's (or any, for a result without a
 * name) and that no earlier result took. Results with no such call keep id null.
 */
function pairByPosition(messages: Message[]): void {
  const taken = new Set<string>();
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i] as Message;
    const r = m.blocks[0];
    if (m.role !== 'tool' || r?.type !== 'tool_result') continue;
    let j = i - 1;
    while (j >= 0 && (messages[j] as Message).role === 'tool') j--;
    // Calls of one turn are consecutive assistant nodes: look back through them, newest first.
    for (; j >= 0; j--) {
      const c = messages[j] as Message;
      const call = c.blocks.find((b) => b.type === 'tool_use');
      if (c.role !== 'assistant' || call?.type !== 'tool_use') break;
      if (
        call.id !== null &&
        !taken.has(call.id) &&
        (r.name === undefined || r.name === call.name)
      ) {
        taken.add(call.id);
        r.toolUseId = call.id;
        break;
      }
    }
  }
}

/**
 * Parse a ChatGPT export: the first conversation of the value (a file of several reaches here
 * one conversation at a time through `listChatgptConversations`).
 * @param v the parsed `conversations.json` (an array) or one conversation object
 * @returns the branch ending at `current_node` as a transcript (model from the last
 *   `metadata.model_slug`, else `default_model_slug`; no tools, no usage). Nodes without a
 *   message (the root) are skipped; a broken chain gives a warning. Never throws.
 */
function parse(v: unknown): Result<Transcript> {
  const conv = Array.isArray(v) ? v[0] : v;
  if (!isConversation(conv))
    return shapeError(
      'Expected a ChatGPT export: conversations with `mapping` and `current_node`.',
    );
  const warnings: string[] = [];
  if (Array.isArray(v) && v.length > 1)
    warnings.push(
      `This export holds ${v.length} conversations; showing the first. Pick another in the request list.`,
    );
  const { ids, broken } = branch(conv);
  if (broken) warnings.push(`The conversation's parent chain is broken (${broken}).`);
  const messages: Message[] = [];
  let model = str(conv.default_model_slug);
  for (const id of ids) {
    const node = ownValue(conv.mapping, id) as Json;
    if (!isObject(node.message)) continue;
    const m = message(node.message, id, messages.length);
    messages.push(m);
    const meta = isObject(node.message.metadata) ? node.message.metadata : {};
    if (m.role === 'assistant' && typeof meta.model_slug === 'string') model = meta.model_slug;
  }
  pairByPosition(messages);
  const nodes = Object.keys(conv.mapping).length;
  if (nodes > ids.length)
    warnings.push(
      `Showing the branch that ends at current_node (${ids.length} of ${nodes} nodes); other branches (edited prompts, regenerated replies) are not shown.`,
    );
  if (messages.some((m) => m.blocks.some((b) => b.type === 'tool_use' || b.type === 'tool_result')))
    warnings.push(
      'ChatGPT exports carry no tool-call ids: each call is named by its node id, and the tool message right after it with the same tool name answers it.',
    );
  return {
    ok: true,
    value: {
      format: 'chatgpt-export',
      system: [],
      tools: null,
      settings: model !== undefined ? { model } : {},
      usage: [],
      messages,
      warnings,
      listKey: 'mapping',
      raw: v,
    },
  };
}

/**
 * The conversations of a ChatGPT export, for the request picker (multi.ts `listRequests`).
 * @param v a parsed JSON value
 * @returns one entry per conversation (`#2 · <title> · 14 nodes`) whose value is a one-item
 *   array; `[]` unless the value is an array of two or more conversations. Never throws.
 */
export function listChatgptConversations(v: unknown): RequestEntry[] {
  if (!Array.isArray(v) || v.length < 2 || !v.slice(0, 5).every(isConversation)) return [];
  return v.map((c, i) => {
    const title = isObject(c) ? str(c.title) : undefined;
    const nodes = isObject(c) && isObject(c.mapping) ? Object.keys(c.mapping).length : undefined;
    const label = requestLabel(
      i,
      title !== undefined && title !== '' ? title.slice(0, 60) : undefined,
      nodes !== undefined ? `${nodes} nodes` : undefined,
    );
    return { label, value: [c] };
  });
}

function textOfBlocks(blocks: Block[]): string {
  return blocks
    .map((b) => (b.type === 'text' ? b.text : b.type === 'other' ? JSON.stringify(b.raw) : ''))
    .join('');
}

/** A block as a `multimodal_text` part. */
function exportPart(b: Block): unknown {
  if (!isMedia(b)) return textOfBlocks([b]);
  const kind = b.type === 'image' ? 'image' : 'audio';
  const p: Json = { content_type: `${kind}_asset_pointer`, asset_pointer: `file-service://` };
  if (b.bytes !== undefined) p.size_bytes = b.bytes;
  return p;
}

const exportMessage = (role: string, content: Json, recipient = 'all', name?: string) => ({
  author: { role, ...(name !== undefined ? { name } : {}) },
  content,
  recipient,
});

/**
 * A message as ChatGPT export messages: its raw value when untouched; otherwise its text, one
 * tool-addressed `code` message per call and one `tool` message per result, in block order.
 */
function toExportMessages(m: Message): unknown[] {
  if (m.raw !== undefined) return [m.raw];
  const out: unknown[] = [];
  let text: Block[] = [];
  const flush = () => {
    if (text.length === 0) return;
    const media = text.some(isMedia);
    const parts = media ? text.map(exportPart) : [textOfBlocks(text)];
    out.push(exportMessage(m.role, { content_type: media ? 'multimodal_text' : 'text', parts }));
    text = [];
  };
  for (const b of m.blocks) {
    if (b.type === 'tool_use') {
      flush();
      const code = argumentsText(b.input);
      out.push(exportMessage('assistant', { content_type: 'code', text: code }, b.name));
    } else if (b.type === 'tool_result') {
      flush();
      out.push(
        exportMessage(
          'tool',
          b.isError
            ? { content_type: 'system_error', text: textOfBlocks(b.content) }
            : { content_type: 'text', parts: [textOfBlocks(b.content)] },
          'all',
          b.name,
        ),
      );
    } else if (b.type === 'thinking') {
      flush();
      out.push(
        exportMessage(m.role, { content_type: 'thoughts', thoughts: [{ content: b.thinking }] }),
      );
    } else text.push(b);
  }
  flush();
  if (out.length === 0) out.push(exportMessage(m.role, { content_type: 'text', parts: [''] }));
  return out;
}

/** The conversation with its mapping rebuilt as one chain ending at `current_node`. */
function write(t: Transcript): string {
  const first = Array.isArray(t.raw) ? t.raw[0] : t.raw;
  const conv: Json = isObject(first) ? first : {};
  // A message keeps its node id (a call's id is its node's id), also when it is rendered from
  // its blocks (a redacted copy renames both alike); new messages get `m<n>`.
  // Every source id is reserved first, so a new message never takes the id of a later one.
  const used = new Set<string>(['root']);
  const reserved = new Set(t.messages.flatMap((m) => (m.meta?.sourceId ? [m.meta.sourceId] : [])));
  const ids = ['root'];
  const written: unknown[] = [];
  for (const m of t.messages) {
    const src = m.meta?.sourceId;
    for (const x of toExportMessages(m)) {
      let id = src !== undefined && !used.has(src) ? src : undefined;
      for (let n = written.length; id === undefined || used.has(id); n++)
        if (!reserved.has(`m${n}`)) id = `m${n}`;
      used.add(id);
      ids.push(id);
      written.push(x);
    }
  }
  const mapping: Record<string, unknown> = ownRecord();
  ids.forEach((id, i) => {
    mapping[id] = {
      id,
      parent: i === 0 ? null : ids[i - 1],
      children: i + 1 < ids.length ? [ids[i + 1]] : [],
      message: i === 0 ? null : written[i - 1],
    };
  });
  const out = { ...conv, mapping, current_node: ids[ids.length - 1] };
  return JSON.stringify(Array.isArray(t.raw) || !isObject(t.raw) ? [out] : out, null, 2);
}

export const chatgptExportParser: FormatParser = {
  id: 'chatgpt-export',
  label: 'ChatGPT data export',
  provider: 'openai-chat',
  category: 'archive',
  resultStyle: 'tool',
  // An assistant message to a tool's `recipient`, answered by a `tool` message.
  blockWords: { call: 'message to', result: 'tool' },
  listRequests: listChatgptConversations,
  expected:
    'a ChatGPT data export (conversations.json): conversations with `mapping` (nodes with `parent` and `message.author.role`) and `current_node`',
  sniff,
  parse: jsonDocumentOnly(parse, 'A ChatGPT export is one JSON document, not JSON Lines.'),
  write,
};
