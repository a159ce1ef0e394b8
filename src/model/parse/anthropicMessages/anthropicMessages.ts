/**
 * Anthropic Messages request body (`POST /v1/messages`), a bare `messages` array, or a response
 * object (`{type: "message", role: "assistant", content}`).
 * Source of the shape: anthropic-sdk-typescript `MessageParam` (docs/formats.md#anthropic-messages).
 */
import type {
  Block,
  Message,
  Result,
  Role,
  Transcript,
  ToolDef,
  ToolResultBlock,
  UsageRecord,
} from '../../types.ts';
import type { FormatParser } from '../registry.ts';
import { arr, base64Bytes, isObject, type Json, shapeError, str } from '../util.ts';
import { bareListTranscript, notAnObject, responseTranscript } from '../util.ts';
import { jsonDocumentOnly, toolDef } from '../util.ts';
import { write } from './anthropicWrite.ts';
import { anthropicNearMiss, FOREIGN_PARTS } from './anthropicShape.ts';
import { modelFamily } from '../modelNames.ts';

const SERVER_RESULT = /_tool_result$/;

/** True when an object has exactly `n` own keys (no allocation, unlike Object.keys). */
function onlyKeys(o: object, n: number): boolean {
  let k = 0;
  for (const key in o) if (Object.prototype.hasOwnProperty.call(o, key) && ++k > n) return false;
  return k === n;
}

/** Map one Anthropic content block to a normalised block; unknown types become `other`. */
export function anthropicBlock(b: unknown): Block {
  if (typeof b === 'string') return { type: 'text', text: b };
  if (!isObject(b)) return { type: 'other', label: typeof b, raw: b };
  const type = str(b.type) ?? '';
  switch (type) {
    case 'text':
      if (typeof b.text !== 'string') return { type: 'other', label: 'text', raw: b };
      // A plain `{type, text}` block already is a normalised TextBlock: share it rather than copy
      // (large transcripts hold hundreds of thousands of them). Blocks are never mutated.
      return onlyKeys(b, 2) ? (b as unknown as Block) : { type: 'text', text: b.text };
    case 'image':
    case 'document': {
      const source = isObject(b.source) ? b.source : {};
      if (type === 'document' && source.type === 'text' && typeof source.data === 'string') {
        return { type: 'text', text: source.data };
      }
      const bytes = base64Bytes(source.data);
      const mediaType = str(source.media_type);
      const at = source.type === 'url' || source.type === 'file' ? source.type : undefined;
      return {
        type,
        ...(mediaType ? { mediaType } : {}),
        ...(bytes !== undefined ? { bytes } : {}),
        ...(at ? { source: at } : {}),
      };
    }
    case 'tool_use':
      if (typeof b.id === 'string' && typeof b.name === 'string' && 'input' in b && onlyKeys(b, 4))
        return b as unknown as Block;
      return { type: 'tool_use', id: str(b.id) ?? null, name: str(b.name) ?? '', input: b.input };
    case 'server_tool_use':
    case 'mcp_tool_use':
      return serverToolUse(b);
    case 'tool_result':
      return toolResult(b);
    case 'thinking':
      // `{type, thinking, signature}` with string fields already is a ThinkingBlock: share it.
      if (
        typeof b.thinking === 'string' &&
        (onlyKeys(b, 2) || (typeof b.signature === 'string' && onlyKeys(b, 3)))
      )
        return b as unknown as Block;
      return {
        type: 'thinking',
        thinking: str(b.thinking) ?? '',
        ...(typeof b.signature === 'string' ? { signature: b.signature } : {}),
      };
    case 'redacted_thinking':
      return { type: 'redacted_thinking', bytes: typeof b.data === 'string' ? b.data.length : 0 };
    default:
      if (SERVER_RESULT.test(type)) return toolResult(b, type);
      return { type: 'other', label: type || 'unknown', raw: b };
  }
}

/**
 * A `tool_result` block (`server`: the type of a server tool's result, `web_search_tool_result`).
 * Two literals rather than a spread of `isErrorFalse` between the fields: in Node 20's V8 a field
 * after a spread makes a fresh map per call, some 0.2 µs per block, 10 ms on the 50,000 results
 * of a 100 MB body (issue 38). Same fields in the same order either way.
 */
function toolResult(b: Json, server?: string): Block {
  const toolUseId = str(b.tool_use_id) ?? null;
  const isError = b.is_error === true;
  const content = resultContent(b.content);
  const out: ToolResultBlock =
    b.is_error === false
      ? { type: 'tool_result', toolUseId, isError, isErrorFalse: true, content }
      : { type: 'tool_result', toolUseId, isError, content };
  if (server !== undefined) out.server = server;
  return out;
}

/**
 * A call the provider runs itself (Anthropic `server_tool_use` / `mcp_tool_use`, a claude.ai
 * export's `tool_use`): a `tool_use` block marked `server`, answered inside the same turn.
 * See docs/formats.md#anthropic-messages (server tools) and #claude-ai-export.
 */
export function serverToolUse(b: Json): Block {
  return {
    type: 'tool_use',
    id: str(b.id) ?? null,
    name: str(b.name) ?? '',
    input: b.input,
    server: true,
  };
}

/**
 * The normalised blocks of a content array. When every block already is a normalised block
 * (plain text, tool_use and thinking blocks are shared, see `anthropicBlock`), the array itself
 * is shared too: no copy per assistant message of a 100k-message transcript. Blocks and block
 * arrays are never mutated in place.
 */
function blocksOf(content: unknown[]): Block[] {
  for (let i = 0; i < content.length; i++) {
    const b = anthropicBlock(content[i]);
    if (b === content[i]) continue;
    const out = content.slice() as Block[]; // one packed array of the final length
    out[i] = b;
    for (let j = i + 1; j < content.length; j++) out[j] = anthropicBlock(content[j]);
    return out;
  }
  return content as Block[];
}

function resultContent(c: unknown): Block[] {
  if (c === undefined || c === null) return [];
  if (typeof c === 'string') return [{ type: 'text', text: c }];
  const list = arr(c);
  if (list) return list.map(anthropicBlock);
  return [{ type: 'other', label: 'content', raw: c }];
}

/** `assistant` and `system` as given; any other role (or none) is read as `user`. */
function roleOf(r: unknown): Role {
  return r === 'assistant' ? 'assistant' : r === 'system' ? 'system' : 'user';
}

function parseMessages(list: unknown[], listKey: string): Message[] {
  return list.map((m, i): Message => {
    const path = `${listKey}.${i}`;
    if (!isObject(m)) return notAnObject(m, path, i);
    const role = roleOf(m.role);
    const content = m.content;
    let blocks: Block[];
    let stringContent = false;
    if (typeof content === 'string') {
      blocks = [{ type: 'text', text: content }];
      stringContent = true;
    } else if (Array.isArray(content)) {
      blocks = blocksOf(content);
    } else {
      blocks =
        content === undefined || content === null
          ? []
          : [{ type: 'other', label: 'content', raw: content }];
    }
    const out: Message = { index: i, rawIndex: i, path, role, blocks, raw: m };
    if (stringContent) out.stringContent = true;
    return out;
  });
}

function parseTools(v: unknown): ToolDef[] | null {
  const list = arr(v);
  if (!list) return null;
  const out: ToolDef[] = [];
  for (const t of list)
    if (isObject(t))
      out.push(toolDef(str(t.name) ?? str(t.type) ?? '', t.description, t.input_schema));
  return out;
}

function usageOf(u: unknown, messageIndex?: number): UsageRecord[] {
  if (!isObject(u)) return [];
  const n = (k: string) => (typeof u[k] === 'number' ? (u[k] as number) : undefined);
  const rec: UsageRecord = {};
  if (messageIndex !== undefined) rec.messageIndex = messageIndex;
  const input = n('input_tokens');
  const output = n('output_tokens');
  const cr = n('cache_read_input_tokens');
  const cw = n('cache_creation_input_tokens');
  if (input !== undefined) rec.inputTokens = input;
  if (output !== undefined) rec.outputTokens = output;
  if (cr !== undefined) rec.cacheReadTokens = cr;
  if (cw !== undefined) rec.cacheWriteTokens = cw;
  return [rec];
}

/** 1 = an Anthropic message, 0 = unsure (a stray item), -1 = clearly another format's message. */
function anthropicMessageScore(m: unknown): number {
  if (!isObject(m)) return 0;
  if (
    'tool_calls' in m ||
    'tool_call_id' in m ||
    'function_call' in m ||
    'parts' in m ||
    'type' in m
  )
    return -1;
  const role = str(m.role);
  if (role !== 'user' && role !== 'assistant' && role !== 'system') return -1;
  const c = m.content;
  if (typeof c === 'string') return 1;
  if (!Array.isArray(c)) return 0;
  // A loop, not `some` with a closure: every check of a `messages` body runs this per message.
  for (const b of c as unknown[])
    if (isObject(b) && (FOREIGN_PARTS.has(b.type as string) || 'toolUse' in b || 'toolResult' in b))
      return -1;
  return 1;
}

/** Share of messages that look like Anthropic messages, or 0 if any clearly belongs elsewhere. */
function anthropicShare(list: unknown[]): number {
  let good = 0;
  for (const m of list) {
    const s = anthropicMessageScore(m);
    if (s < 0) return 0;
    good += s;
  }
  return list.length === 0 ? 0 : good / list.length;
}

function isResponseObject(v: Json): boolean {
  return v.type === 'message' && v.role === 'assistant' && Array.isArray(v.content);
}

function hasBlocks(list: unknown[], types: readonly string[]): boolean {
  for (const m of list) {
    if (!isObject(m) || !Array.isArray(m.content)) continue;
    for (const b of m.content as unknown[])
      if (isObject(b) && types.includes(b.type as string)) return true;
  }
  return false;
}

const SOME_BLOCKS = ['tool_use', 'tool_result', 'thinking', 'text'];
const TOOL_BLOCKS = ['tool_use', 'tool_result'];

function sniff(v: unknown): number {
  if (Array.isArray(v)) {
    const share = anthropicShare(v);
    if (share < 0.5) return 0;
    return (hasBlocks(v, SOME_BLOCKS) ? 0.8 : 0.5) * share;
  }
  if (!isObject(v)) return 0;
  if (isResponseObject(v)) return 0.9;
  const msgs = arr(v.messages);
  if (!msgs) return 0;
  const share = msgs.length === 0 ? 1 : anthropicShare(msgs);
  if (share < 0.5) return 0;
  let score = 0.6 * share;
  if ('system' in v || 'max_tokens' in v || 'thinking' in v || 'anthropic_version' in v)
    score += 0.3;
  if (hasBlocks(msgs, TOOL_BLOCKS)) score += 0.3;
  const tools = arr(v.tools);
  if (tools && tools.some((t) => isObject(t) && 'input_schema' in t)) score += 0.2;
  if (tools && tools.some((t) => isObject(t) && (t.type === 'function' || 'toolSpec' in t)))
    score -= 0.5;
  if ('toolConfig' in v || 'contents' in v || 'input' in v) score -= 0.5;
  const family = modelFamily(v.model);
  if (family === 'claude') score += 0.1;
  // An OpenAI or Gemini model name on a body both shapes could read (plain string contents,
  // untyped parts): a Chat Completions body (OpenAI's, or Gemini's OpenAI-compatible endpoint).
  if (family === 'openai' || family === 'gemini') score -= 0.4;
  return Math.max(0, Math.min(1, score));
}

function parse(v: unknown): Result<Transcript> {
  if (Array.isArray(v))
    return bareListTranscript('anthropic-messages', v, 'messages', parseMessages(v, 'messages'));
  if (!isObject(v))
    return shapeError('Expected an object with `messages` or an array of messages.');
  if (isResponseObject(v)) {
    const messages = parseMessages([{ role: 'assistant', content: v.content }], 'content');
    const first = messages[0];
    if (first) first.path = 'content';
    return responseTranscript(
      'anthropic-messages',
      v,
      'content',
      messages,
      str(v.model),
      usageOf(v.usage, 0),
    );
  }
  const list = arr(v.messages) ?? [];
  const system: Transcript['system'] = [];
  if (typeof v.system === 'string') system.push({ text: v.system, path: 'system' });
  else if (Array.isArray(v.system)) {
    v.system.forEach((b, i) => {
      if (isObject(b) && typeof b.text === 'string')
        system.push({ text: b.text, path: `system.${i}` });
    });
  }
  // Built field by field, not with spreads: in Node 20's V8 an object literal that adds fields
  // after a spread costs microseconds (a fresh map per call), the bulk of `check` on a short
  // request (issue 17).
  return {
    ok: true,
    value: {
      format: 'anthropic-messages',
      usage: [],
      warnings: [],
      raw: v,
      system,
      tools: parseTools(v.tools),
      settings: settingsOf(v),
      messages: parseMessages(list, 'messages'),
      listKey: 'messages',
    },
  };
}

/** The request settings the rules read: model, extended thinking, forced tool, output format. */
function settingsOf(v: Json): Transcript['settings'] {
  const settings: Transcript['settings'] = {};
  const model = str(v.model);
  if (model) settings.model = model;
  settings.thinking =
    isObject(v.thinking) && (v.thinking.type === 'enabled' || v.thinking.type === 'adaptive');
  const tc = isObject(v.tool_choice) ? str(v.tool_choice.type) : undefined;
  if (tc === 'any' || tc === 'tool') settings.toolChoiceForced = true;
  if ('output_format' in v || (isObject(v.output_config) && 'format' in v.output_config))
    settings.outputFormat = true;
  return settings;
}

export const anthropicMessagesParser: FormatParser = {
  id: 'anthropic-messages',
  label: 'Anthropic Messages',
  provider: 'anthropic',
  category: 'request',
  resultStyle: 'user',
  usageCacheApart: true,
  expected:
    'an object with `messages` (role user/assistant, string or content blocks such as `tool_use`/`tool_result`), a bare array of such messages, or a response object with `type: "message"`',
  sniff,
  nearMiss: anthropicNearMiss,
  parse: jsonDocumentOnly(parse, 'Anthropic Messages is a JSON document, not JSON Lines.'),
  write,
};
