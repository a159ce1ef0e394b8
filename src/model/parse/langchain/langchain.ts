/**
 * LangChain / LangGraph message lists. Source of the shape: langchain-core's message
 * serialisations (docs/formats.md#langchain).
 *
 * Three serialisations, in a bare array or under `messages` (graph state):
 * - dicts (`model_dump()`): `{type: human|ai|system|tool|function|chat, content, tool_calls,
 *   tool_call_id, status, …}`;
 * - `StoredMessage` (JS `mapChatMessagesToStoredMessages`): `{type, data: {content, …}}`;
 * - the `lc` constructor form: `{lc: 1, type: "constructor", id: [..., "AIMessage"], kwargs}`.
 * Content arrays may hold provider blocks (Anthropic `tool_use`, OpenAI `image_url`) or LangChain
 * standard blocks (`tool_call`, `reasoning`). A tool call present both in `content` and in
 * `tool_calls` (Claude through LangChain) is kept once. `artifact` is not sent to the model.
 *
 * As sent: LangChain JS (`@langchain/core` 1.4, `ChatAnthropic` 1.5, `ChatOpenAI` 1.5, observed
 * through a stub fetch) sends the list one message to one message: nothing is dropped, merged or
 * reordered (an orphan `ToolMessage` goes out as a `tool` message or a user `tool_result`, an
 * empty `AIMessage` as `content: ""`, and `[]` as `messages: []`), so this format needs no
 * `asSent` and its verdicts are those of the parsed list (langchainAsSent.test.ts).
 */
import type { Block, Message, Result, Role, Transcript, UsageRecord } from '../../types.ts';
import { anthropicBlock } from '../anthropicMessages/anthropicMessages.ts';
import type { SourceDoc } from '../json.ts';
import type { FormatParser } from '../registry.ts';
import { arr, isObject, type Json, parseArguments, shapeError, str, withList } from '../util.ts';
import { base64StandIn, isMedia, legacyFunctionCall, mediaTypeOf } from '../util.ts';
import { nameTable } from '../../own.ts';

type Kind = 'human' | 'ai' | 'system' | 'tool' | 'function' | 'chat';

const KINDS: ReadonlyMap<string, Kind> = nameTable({
  human: 'human',
  ai: 'ai',
  system: 'system',
  tool: 'tool',
  function: 'function',
  chat: 'chat',
  HumanMessage: 'human',
  AIMessage: 'ai',
  SystemMessage: 'system',
  ToolMessage: 'tool',
  FunctionMessage: 'function',
  ChatMessage: 'chat',
  HumanMessageChunk: 'human',
  AIMessageChunk: 'ai',
  SystemMessageChunk: 'system',
  ToolMessageChunk: 'tool',
  FunctionMessageChunk: 'function',
  ChatMessageChunk: 'chat',
});

/** The three serialisations reduced to one: the kind and the message's fields. */
interface Unwrapped {
  kind: Kind;
  fields: Json;
  style: 'dict' | 'stored' | 'lc';
}

function unwrap(m: unknown): Unwrapped | null {
  if (!isObject(m)) return null;
  if (m.lc === 1 && m.type === 'constructor' && Array.isArray(m.id) && isObject(m.kwargs)) {
    const kind = KINDS.get(str(m.id[m.id.length - 1]) ?? '');
    return kind ? { kind, fields: m.kwargs, style: 'lc' } : null;
  }
  const kind = KINDS.get(str(m.type) ?? '');
  if (!kind || kind !== str(m.type)) return null;
  if (isObject(m.data) && !('content' in m) && 'content' in m.data)
    return { kind, fields: m.data, style: 'stored' };
  if ('content' in m) return { kind, fields: m, style: 'dict' };
  return null;
}

function listOf(v: unknown): unknown[] | undefined {
  if (Array.isArray(v)) return v;
  if (isObject(v)) return arr(v.messages);
  return undefined;
}

/** Sniff: every item is a LangChain message in one of the three serialisations. */
function sniff(v: unknown): number {
  const list = listOf(v);
  if (!list || list.length === 0) return 0;
  for (const m of list) if (!unwrap(m)) return 0;
  return Array.isArray(v) ? 0.9 : 0.85;
}

/** Map one content block (provider or LangChain standard) to a normalised block. */
function lcBlock(b: unknown): Block {
  if (typeof b === 'string') return { type: 'text', text: b };
  if (!isObject(b)) return { type: 'other', label: typeof b, raw: b };
  switch (b.type) {
    case 'tool_call':
      return { type: 'tool_use', id: str(b.id) ?? null, name: str(b.name) ?? '', input: b.args };
    case 'reasoning':
      return { type: 'thinking', thinking: str(b.reasoning) ?? str(b.text) ?? '' };
    case 'image_url':
    case 'image':
      return b.type === 'image' && isObject(b.source) ? anthropicBlock(b) : { type: 'image' };
    case 'file':
      return { type: 'document' };
    default:
      return anthropicBlock(b);
  }
}

function contentBlocks(c: unknown): { blocks: Block[]; stringContent: boolean } {
  if (typeof c === 'string')
    return { blocks: c.length > 0 ? [{ type: 'text', text: c }] : [], stringContent: true };
  if (Array.isArray(c)) return { blocks: c.map(lcBlock), stringContent: false };
  if (c === null || c === undefined) return { blocks: [], stringContent: false };
  return { blocks: [{ type: 'other', label: 'content', raw: c }], stringContent: false };
}

function toolCalls(f: Json, have: Set<string>): Block[] {
  const calls = arr(f.tool_calls) ?? [];
  const out: Block[] = [];
  for (const tc of calls) {
    if (!isObject(tc)) continue;
    const id = str(tc.id) ?? null;
    if (id !== null && have.has(id)) continue;
    out.push({ type: 'tool_use', id, name: str(tc.name) ?? '', input: tc.args });
  }
  if (calls.length > 0) return out;
  // Older OpenAI-style calls hidden in additional_kwargs.
  const ak = isObject(f.additional_kwargs) ? f.additional_kwargs : {};
  for (const tc of arr(ak.tool_calls) ?? []) {
    if (!isObject(tc)) continue;
    const fn = isObject(tc.function) ? tc.function : {};
    const id = str(tc.id) ?? null;
    if (id !== null && have.has(id)) continue;
    out.push({
      type: 'tool_use',
      id,
      name: str(fn.name) ?? '',
      input: parseArguments(fn.arguments),
    });
  }
  if (isObject(ak.function_call)) out.push(legacyFunctionCall(ak.function_call));
  return out;
}

const CHAT_ROLES: ReadonlyMap<string, Role> = nameTable({
  user: 'user',
  human: 'user',
  assistant: 'assistant',
  ai: 'assistant',
  system: 'system',
  developer: 'developer',
  tool: 'tool',
});

/** The role of a message of kind `kind` (a `chat` message names its own; user when unknown). */
function roleOf(kind: Kind, f: Json): Role {
  switch (kind) {
    case 'human':
      return 'user';
    case 'system':
      return 'system';
    case 'chat':
      return CHAT_ROLES.get(str(f.role) ?? '') ?? 'user';
    case 'ai':
      return 'assistant';
    case 'tool':
    case 'function':
      return 'tool';
  }
}

/**
 * A message's blocks from its content blocks: an AI message adds its `tool_calls` (each call
 * once), a tool or function message is one tool_result holding the content.
 */
function kindBlocks(kind: Kind, f: Json, blocks: Block[]): Block[] {
  if (kind === 'ai') {
    const have = new Set(
      blocks.flatMap((b) => (b.type === 'tool_use' && b.id !== null ? [b.id] : [])),
    );
    return [...blocks, ...toolCalls(f, have)];
  }
  if (kind === 'tool' || kind === 'function')
    return [
      {
        type: 'tool_result',
        toolUseId: kind === 'tool' ? (str(f.tool_call_id) ?? null) : null,
        isError: f.status === 'error',
        content: blocks,
        ...(str(f.name) ? { name: str(f.name) as string } : {}),
      },
    ];
  return blocks;
}

/** An AI message's `usage_metadata` as the usage record of message `messageIndex`. */
function aiUsage(um: Json, messageIndex: number): UsageRecord {
  const usage: UsageRecord = { messageIndex };
  if (typeof um.input_tokens === 'number') usage.inputTokens = um.input_tokens;
  if (typeof um.output_tokens === 'number') usage.outputTokens = um.output_tokens;
  const itd = isObject(um.input_token_details) ? um.input_token_details : {};
  if (typeof itd.cache_read === 'number') usage.cacheReadTokens = itd.cache_read;
  if (typeof itd.cache_creation === 'number') usage.cacheWriteTokens = itd.cache_creation;
  const otd = isObject(um.output_token_details) ? um.output_token_details : {};
  if (typeof otd.reasoning === 'number') usage.reasoningTokens = otd.reasoning;
  return usage;
}

function toMessage(
  m: unknown,
  i: number,
  listKey: string,
): { message: Message; usage: UsageRecord | null } {
  const path = `${listKey}.${i}`;
  const u = unwrap(m);
  if (!u)
    return {
      message: {
        index: i,
        rawIndex: i,
        path,
        role: 'user',
        blocks: [{ type: 'other', label: 'not a LangChain message', raw: m }],
        raw: m,
      },
      usage: null,
    };
  const f = u.fields;
  const { blocks, stringContent } = contentBlocks(f.content);
  const um = f.usage_metadata;
  const usage = u.kind === 'ai' && isObject(um) ? aiUsage(um, i) : null;
  const id = str(f.id);
  const meta = {
    ...(id ? { sourceId: id } : {}),
    ...(usage?.outputTokens !== undefined ? { usageOutputTokens: usage.outputTokens } : {}),
  };
  return {
    message: {
      index: i,
      rawIndex: i,
      path,
      role: roleOf(u.kind, f),
      blocks: kindBlocks(u.kind, f, blocks),
      raw: m,
      ...(stringContent ? { stringContent } : {}),
      ...(Object.keys(meta).length > 0 ? { meta } : {}),
    },
    usage,
  };
}

function parse(doc: SourceDoc): Result<Transcript> {
  if (doc.kind !== 'json')
    return shapeError('LangChain messages are one JSON document, not JSON Lines.');
  const v = doc.value;
  const list = listOf(v);
  if (!list)
    return shapeError('Expected an array of LangChain messages, or an object with `messages`.');
  const parsed = list.map((m, i) => toMessage(m, i, 'messages'));
  const usage = parsed.flatMap((p) => (p.usage ? [p.usage] : []));
  let model: string | undefined;
  for (const m of list) {
    const u = unwrap(m);
    const rm = u && isObject(u.fields.response_metadata) ? u.fields.response_metadata : {};
    model = str(rm.model_name) ?? str(rm.model) ?? model;
  }
  return {
    ok: true,
    value: {
      format: 'langchain',
      system: [],
      tools: null,
      settings: model ? { model } : {},
      usage,
      messages: parsed.map((p) => p.message),
      warnings: [
        'LangChain message lists carry no tool definitions; they are checked as the request the chat model would send (default: OpenAI Chat Completions).',
      ],
      listKey: 'messages',
      raw: v,
    },
  };
}

/**
 * Render a new or changed message as LangChain dict(s), in the serialisation the file uses. A
 * user message carrying tool results (Anthropic shape) becomes one ToolMessage per result,
 * followed by a HumanMessage with the rest, if any.
 */
function renderAll(m: Message, style: Unwrapped['style']): unknown[] {
  if (m.role !== 'user' || !m.blocks.some((b) => b.type === 'tool_result'))
    return [render(m, style)];
  const out = m.blocks.flatMap((b) =>
    b.type === 'tool_result' ? [render({ ...m, role: 'tool', blocks: [b] }, style)] : [],
  );
  const rest = m.blocks.filter((b) => b.type !== 'tool_result');
  if (rest.length > 0) out.push(render({ ...m, blocks: rest }, style));
  return out;
}

/**
 * A message's text and media as content blocks (a message with media is written as a list): an
 * image of known size as an Anthropic-style block with a stand-in payload of that size, else a
 * stand-in address or file (the reader keeps only the kind of those).
 */
function mediaAndText(b: Block): unknown[] {
  if (b.type === 'text') return [{ type: 'text', text: b.text }];
  if (b.type === 'image')
    return [
      b.bytes === undefined
        ? { type: 'image_url', image_url: { url: 'https://example.invalid/image' } }
        : {
            type: 'image',
            source: { type: 'base64', media_type: mediaTypeOf(b), data: base64StandIn(b.bytes) },
          },
    ];
  if (b.type === 'document') return [{ type: 'file', file: { file_id: 'file-document' } }];
  return [];
}

function render(m: Message, style: Unwrapped['style']): unknown {
  const text = m.blocks
    .filter((b) => b.type === 'text')
    .map((b) => (b.type === 'text' ? b.text : ''))
    .join('');
  let type: Kind;
  let fields: Json;
  if (m.role === 'tool') {
    const r = m.blocks.find((b) => b.type === 'tool_result');
    const content =
      r && r.type === 'tool_result'
        ? r.content.map((c) => (c.type === 'text' ? c.text : '')).join('')
        : text;
    type = 'tool';
    fields = {
      content,
      tool_call_id: r && r.type === 'tool_result' ? r.toolUseId : null,
      ...(r && r.type === 'tool_result' && r.name !== undefined ? { name: r.name } : {}),
      ...(r && r.type === 'tool_result' && r.isError ? { status: 'error' } : {}),
    };
  } else if (m.role === 'assistant') {
    type = 'ai';
    const calls = m.blocks.flatMap((b) =>
      b.type === 'tool_use'
        ? [{ name: b.name, args: b.input ?? {}, id: b.id, type: 'tool_call' }]
        : [],
    );
    fields = { content: text, ...(calls.length > 0 ? { tool_calls: calls } : {}) };
  } else {
    type = m.role === 'system' || m.role === 'developer' ? 'system' : 'human';
    fields = { content: m.blocks.some(isMedia) ? m.blocks.flatMap(mediaAndText) : text };
  }
  if (style === 'lc') {
    const cls = {
      human: 'HumanMessage',
      ai: 'AIMessage',
      system: 'SystemMessage',
      tool: 'ToolMessage',
      function: 'FunctionMessage',
      chat: 'ChatMessage',
    }[type];
    return { lc: 1, type: 'constructor', id: ['langchain_core', 'messages', cls], kwargs: fields };
  }
  if (style === 'stored') return { type, data: fields };
  return { type, ...fields };
}

/** Write the list back: untouched messages from raw, others rendered in the file's serialisation. */
function write(t: Transcript): string {
  const first = listOf(t.raw)
    ?.map(unwrap)
    .find((u) => u !== null);
  const style = first?.style ?? 'dict';
  return JSON.stringify(
    withList(
      t.raw,
      'messages',
      t.messages.flatMap((m) => (m.raw !== undefined ? [m.raw] : renderAll(m, style))),
    ),
    null,
    2,
  );
}

export const langchainParser: FormatParser = {
  id: 'langchain',
  label: 'LangChain messages',
  provider: 'openai-chat',
  category: 'framework',
  resultStyle: 'tool',
  // An item of an AIMessage's `tool_calls`, answered by a ToolMessage.
  blockWords: { call: 'tool_call', result: 'ToolMessage' },
  expected:
    'an array (or `{messages}`) of LangChain messages: `{type: human|ai|system|tool, content, tool_calls, tool_call_id}`, `{type, data}`, or `{lc: 1, type: "constructor", id: [..., "AIMessage"], kwargs}`',
  sniff,
  parse,
  write,
};
