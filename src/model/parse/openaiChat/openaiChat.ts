/**
 * OpenAI Chat Completions request body (`{messages, tools}`), a bare message array, or a
 * `chat.completion` response. Legacy `function_call` / role `function` are read with no id.
 * Source of the shape: openai-node `ChatCompletionMessageParam` (docs/formats.md#openai-chat).
 */
import { ownRecord } from '../../own.ts';
import type { Block, Message, Result, Transcript, ToolDef, UsageRecord } from '../../types.ts';
import type { FormatParser } from '../registry.ts';
import { arr, dataUrlStandIn, isObject, readDataUrl } from '../util.ts';
import { parseArguments, shapeError, str } from '../util.ts';
import { bareListTranscript, legacyFunctionCall, notAnObject, withList } from '../util.ts';
import { argumentsText, jsonDocumentOnly, responseTranscript } from '../util.ts';
import { CHAT_PARTS, CHAT_ROLES, chatNearMiss } from './openaiChatShape.ts';
import { modelFamily } from '../modelNames.ts';

function part(p: unknown): Block {
  if (typeof p === 'string') return { type: 'text', text: p };
  if (!isObject(p)) return { type: 'other', label: typeof p, raw: p };
  switch (p.type) {
    case 'text':
      return typeof p.text === 'string'
        ? { type: 'text', text: p.text }
        : { type: 'other', label: 'text', raw: p };
    case 'refusal':
      return { type: 'text', text: str(p.refusal) ?? '' };
    case 'image_url': {
      const url = isObject(p.image_url) ? str(p.image_url.url) : undefined;
      const data = url !== undefined ? readDataUrl(url) : null;
      if (data) return { type: 'image', ...data };
      return url !== undefined ? { type: 'image', source: 'url' } : { type: 'image' };
    }
    case 'input_audio':
    case 'file':
      return { type: 'document', mediaType: String(p.type) };
    default:
      return { type: 'other', label: str(p.type) ?? 'unknown', raw: p };
  }
}

function contentBlocks(c: unknown): { blocks: Block[]; stringContent: boolean } {
  if (typeof c === 'string')
    return {
      blocks: c.length > 0 ? [{ type: 'text', text: c }] : [{ type: 'text', text: '' }],
      stringContent: true,
    };
  if (Array.isArray(c)) return { blocks: c.map(part), stringContent: false };
  if (c === null || c === undefined) return { blocks: [], stringContent: false };
  return { blocks: [{ type: 'other', label: 'content', raw: c }], stringContent: false };
}

function toolCall(tc: unknown): Block {
  if (!isObject(tc)) return { type: 'other', label: 'tool_call', raw: tc };
  const fn = isObject(tc.function) ? tc.function : isObject(tc.custom) ? tc.custom : {};
  return {
    type: 'tool_use',
    id: str(tc.id) ?? null,
    name: str(fn.name) ?? '',
    input: 'arguments' in fn ? parseArguments(fn.arguments) : fn.input,
  };
}

/** Normalise one Chat Completions message. */
export function openaiChatMessage(m: unknown, i: number, listKey: string): Message {
  const path = `${listKey}.${i}`;
  if (!isObject(m)) return notAnObject(m, path, i);
  const rawRole = str(m.role) ?? '';
  const role = CHAT_ROLES.get(rawRole) ?? 'user';
  const { blocks, stringContent } = contentBlocks(m.content);
  let out: Block[] = blocks;
  // Pushes into the fresh block list, no filter closure or spreads: this runs per message.
  if (role === 'assistant') {
    const calls = arr(m.tool_calls);
    // An empty string content beside calls is no text block (what SDKs send with tool_calls).
    if (stringContent && m.content === '' && (calls !== undefined || isObject(m.function_call)))
      out = [];
    if (calls) for (const tc of calls) out.push(toolCall(tc));
    if (isObject(m.function_call)) out.push(legacyFunctionCall(m.function_call));
    // An assistant message may answer with a refusal or refer to earlier audio instead of text.
    if (out.length === 0 && typeof m.refusal === 'string')
      out.push({ type: 'other', label: 'refusal', raw: m.refusal });
    if (out.length === 0 && isObject(m.audio))
      out.push({ type: 'other', label: 'audio', raw: m.audio });
  } else if (role === 'tool') {
    const isLegacy = rawRole === 'function';
    const result: Block = {
      type: 'tool_result',
      toolUseId: isLegacy ? null : (str(m.tool_call_id) ?? null),
      isError: false,
      content: blocks,
    };
    if (isLegacy && str(m.name)) result.name = str(m.name) as string;
    out = [result];
  }
  const message: Message = { index: i, rawIndex: i, path, role, blocks: out, raw: m };
  if (stringContent) message.stringContent = stringContent;
  // DeepSeek's thinking, kept as sent (also when empty: its presence is what D4 checks).
  if (role === 'assistant' && typeof m.reasoning_content === 'string')
    message.meta = { reasoning: m.reasoning_content };
  return message;
}

/**
 * How a message reads as Chat: DEFINITE (a field or role only Chat has), 1 (likely: a system
 * message, an image part), 0 (unsure), FOREIGN (a part type Chat does not have), -1 (clearly
 * not). Loops, no closures: runs per message.
 */
function messageScore(m: unknown): number {
  if (!isObject(m)) return -1;
  const role = str(m.role);
  if (!role || !CHAT_ROLES.has(role)) return -1;
  if (
    'tool_calls' in m ||
    'tool_call_id' in m ||
    'function_call' in m ||
    role === 'function' ||
    role === 'developer'
  )
    return DEFINITE;
  // The AI SDK's messages have `tool` and `system` roles too.
  if (role === 'system' || role === 'tool') return 1;
  const c = m.content;
  if (Array.isArray(c)) {
    for (const p of c as unknown[]) if (isObject(p) && p.type === 'image_url') return 1;
    for (const p of c as unknown[])
      if (isObject(p) && typeof p.type === 'string' && !CHAT_PARTS.has(p.type)) return FOREIGN;
  } else if (c !== null && c !== undefined && typeof c !== 'string') return -1;
  return 0;
}

const DEFINITE = 2;
const FOREIGN = -2;

/**
 * An empty list (what LangChain `trimMessages` and the AI SDK's `pruneMessages` return when
 * nothing fits) matches every list format equally: it is read as Chat Completions messages, the
 * lowest score, so any format that claims it wins.
 */
const EMPTY_LIST_SCORE = 0.05;

/** The note a bare empty list gets: what it is and what a provider answers to it. */
export const EMPTY_LIST_NOTE =
  'An empty message list (what a trim returns when nothing fits), read as OpenAI Chat Completions messages. Sent as it is, the request is itself a 400 (O8; Anthropic A14, Gemini G8): pick the provider it was meant for.';

function sniffList(list: unknown[]): number {
  if (list.length === 0) return EMPTY_LIST_SCORE;
  let strong = false;
  let definite = false;
  let foreign = 0;
  let good = 0;
  for (const m of list) {
    const s = messageScore(m);
    if (s === FOREIGN) foreign++;
    else if (s < 0 && isObject(m)) return 0;
    if (s >= 0) good++;
    if (s > 0) strong = true;
    if (s === DEFINITE) definite = true;
  }
  // A part of another API (O12's case: a body sent to Chat with it) is still a Chat body when
  // another message has what only Chat has; without that, it is likely another format's.
  if (foreign > 0 && !definite) return 0;
  good += foreign;
  const share = good / list.length;
  if (share < 0.5) return 0;
  return (strong ? 0.9 : 0.45) * share;
}

function sniff(v: unknown): number {
  if (Array.isArray(v)) return sniffList(v);
  if (!isObject(v)) return 0;
  if (
    v.object === 'chat.completion' ||
    (Array.isArray(v.choices) && isObject(v.choices[0]) && isObject(v.choices[0].message))
  )
    return 0.9;
  const msgs = arr(v.messages);
  if (!msgs) return 0;
  let score = msgs.length === 0 ? 0.3 : sniffList(msgs);
  if (score === 0) return 0;
  const tools = arr(v.tools);
  if (tools && tools.some((t) => isObject(t) && t.type === 'function')) score += 0.2;
  // The model's API (modelNames.ts): OpenAI's own, or Gemini's OpenAI-compatible endpoint.
  const family = modelFamily(v.model);
  if (family === 'openai' || family === 'gemini') score += 0.1;
  if ('system' in v || 'anthropic_version' in v) score -= 0.2;
  return Math.max(0, Math.min(1, score));
}

function parseTools(v: Record<string, unknown>): ToolDef[] | null {
  const tools = arr(v.tools) ?? arr(v.functions);
  if (!tools) return null;
  // A loop with fields set one by one, no spreads: read on every check of a request.
  const out: ToolDef[] = [];
  for (const t of tools) {
    if (!isObject(t)) continue;
    const fn = isObject(t.function) ? t.function : isObject(t.custom) ? t.custom : t;
    const def: ToolDef = { name: str(fn.name) ?? '' };
    const description = str(fn.description);
    if (description) def.description = description;
    if (fn.parameters !== undefined) def.schema = fn.parameters;
    out.push(def);
  }
  return out;
}

function usageOf(u: unknown, messageIndex: number): UsageRecord[] {
  if (!isObject(u)) return [];
  const rec: UsageRecord = { messageIndex };
  if (typeof u.prompt_tokens === 'number') rec.inputTokens = u.prompt_tokens;
  if (typeof u.completion_tokens === 'number') rec.outputTokens = u.completion_tokens;
  const ptd = isObject(u.prompt_tokens_details) ? u.prompt_tokens_details : {};
  if (typeof ptd.cached_tokens === 'number') rec.cacheReadTokens = ptd.cached_tokens;
  const ctd = isObject(u.completion_tokens_details) ? u.completion_tokens_details : {};
  if (typeof ctd.reasoning_tokens === 'number') rec.reasoningTokens = ctd.reasoning_tokens;
  return [rec];
}

function parse(v: unknown): Result<Transcript> {
  if (Array.isArray(v)) {
    const bare = bareListTranscript(
      'openai-chat',
      v,
      'messages',
      v.map((m, i) => openaiChatMessage(m, i, 'messages')),
    );
    if (v.length === 0) bare.value.warnings.push(EMPTY_LIST_NOTE);
    return bare;
  }
  if (!isObject(v))
    return shapeError('Expected an object with `messages` or an array of messages.');
  const model = str(v.model);
  if (Array.isArray(v.choices)) {
    const choice = v.choices[0];
    const msg = isObject(choice) ? choice.message : undefined;
    const m = openaiChatMessage(msg, 0, 'choices');
    m.path = 'choices.0.message';
    return responseTranscript('openai-chat', v, 'choices', [m], model, usageOf(v.usage, 0));
  }
  const tc = v.tool_choice;
  // Built field by field, not with spreads: in Node 20's V8 an object literal that adds fields
  // after a spread costs microseconds (a fresh map per call), the bulk of `check` on a short
  // request (issue 17).
  const settings: Transcript['settings'] = {};
  if (model) settings.model = model;
  if (tc === 'required' || (isObject(tc) && (tc.type === 'function' || tc.type === 'custom')))
    settings.toolChoiceForced = true;
  if (isObject(v.response_format) && v.response_format.type === 'json_schema')
    settings.outputFormat = true;
  // DeepSeek's thinking switch (`thinking: {type: 'enabled' | 'disabled'}`), as Anthropic's.
  if (isObject(v.thinking) && typeof v.thinking.type === 'string')
    settings.thinking = v.thinking.type === 'enabled';
  const list = arr(v.messages) ?? [];
  return {
    ok: true,
    value: {
      format: 'openai-chat',
      system: [],
      usage: [],
      warnings: [],
      raw: v,
      listKey: 'messages',
      tools: parseTools(v),
      settings,
      messages: list.map((m, i) => openaiChatMessage(m, i, 'messages')),
    },
  };
}

/** An assistant message's refusal or audio reference (read as `other` blocks), as fields. */
function otherFields(blocks: readonly Block[]): Record<string, unknown> {
  const out: Record<string, unknown> = ownRecord();
  for (const b of blocks)
    if (b.type === 'other' && (b.label === 'refusal' || b.label === 'audio')) out[b.label] = b.raw;
  return out;
}

function textOf(blocks: Block[]): string {
  return blocks
    .map((b) => (b.type === 'text' ? b.text : b.type === 'other' ? JSON.stringify(b.raw) : ''))
    .join('');
}

/**
 * Render a message as Chat Completions message(s): its raw value when untouched; otherwise from
 * blocks. A user message carrying tool_result blocks becomes one `tool` message per result,
 * followed by a user message with the rest (the shape Chat Completions requires).
 */
export function toOpenAIChatMessages(m: Message): unknown[] {
  if (m.raw !== undefined) return [m.raw];
  if (m.role === 'assistant') {
    const calls = m.blocks.filter((b) => b.type === 'tool_use');
    const texts = m.blocks.filter((b) => b.type === 'text');
    const text = textOf(texts);
    const reasoning = m.meta?.reasoning;
    return [
      {
        role: 'assistant',
        // Null only where the message has no text at all (an empty text stays "": O11, D3).
        content: text.length > 0 || (texts.length > 0 && calls.length === 0) ? text : null,
        ...(reasoning !== undefined ? { reasoning_content: reasoning } : {}),
        ...otherFields(m.blocks),
        // A legacy call alone is written back as the `function_call` it was read from.
        ...(calls.length === 1 && calls[0]?.type === 'tool_use' && calls[0].legacy
          ? { function_call: { name: calls[0].name, arguments: argumentsText(calls[0].input) } }
          : calls.length > 0
            ? {
                tool_calls: calls.map((c) =>
                  c.type === 'tool_use'
                    ? {
                        id: c.id,
                        type: 'function',
                        function: {
                          name: c.name,
                          arguments: argumentsText(c.input),
                        },
                      }
                    : null,
                ),
              }
            : {}),
      },
    ];
  }
  const out: unknown[] = [];
  const rest: Block[] = [];
  for (const b of m.blocks) {
    if (b.type === 'tool_result' && b.toolUseId === null && b.name !== undefined)
      // A legacy `function` message answers by name (it was read with no id and its name).
      out.push({ role: 'function', name: b.name, content: textOf(b.content) });
    else if (b.type === 'tool_result')
      out.push({ role: 'tool', tool_call_id: b.toolUseId, content: textOf(b.content) });
    else rest.push(b);
  }
  if (rest.length > 0 || out.length === 0) {
    const media = rest.some((b) => b.type !== 'text');
    const content = media ? rest.map(chatPart) : textOf(rest);
    out.push({ role: m.role === 'tool' ? 'user' : m.role, content });
  }
  return out;
}

/**
 * A block as a Chat content part (a message with media is written as parts): media that reads
 * back as the same block, with a stand-in payload of its size or a stand-in address or file id
 * (the writer holds no payload); anything else as text.
 */
function chatPart(b: Block): unknown {
  if (b.type === 'image') {
    if (b.source !== undefined)
      return { type: 'image_url', image_url: { url: 'https://example.invalid/image' } };
    if (b.bytes === undefined) return { type: 'image_url', image_url: {} };
    return { type: 'image_url', image_url: { url: dataUrlStandIn(b, b.bytes) } };
  }
  if (b.type === 'document')
    return b.mediaType === 'input_audio'
      ? { type: 'input_audio', input_audio: { data: '', format: 'wav' } }
      : { type: 'file', file: { file_id: 'file-document' } };
  if (b.type === 'other') return b.raw;
  return { type: 'text', text: textOf([b]) };
}

function write(t: Transcript): string {
  if (t.listKey === 'choices') return JSON.stringify(t.raw, null, 2);
  return JSON.stringify(
    withList(t.raw, 'messages', t.messages.flatMap(toOpenAIChatMessages)),
    null,
    2,
  );
}

export const openaiChatParser: FormatParser = {
  id: 'openai-chat',
  label: 'OpenAI Chat Completions',
  provider: 'openai-chat',
  category: 'request',
  resultStyle: 'tool',
  // An item of `tool_calls`, answered by a `tool` message.
  blockWords: { call: 'tool_call', result: 'tool' },
  expected:
    'an object with `messages` (roles system/developer/user/assistant/tool, `tool_calls`, `tool_call_id`), a bare array of such messages, or a `chat.completion` response',
  sniff,
  nearMiss: chatNearMiss,
  parse: jsonDocumentOnly(parse, 'OpenAI Chat Completions is a JSON document, not JSON Lines.'),
  write,
};
