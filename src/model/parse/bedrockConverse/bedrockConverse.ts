/**
 * AWS Bedrock Converse request (`{messages[], system[], toolConfig, modelId?}`), a bare
 * `messages` array, or a Converse response (`{output: {message}, stopReason, usage}`).
 * Source of the shape: `@aws-sdk/client-bedrock-runtime` models (docs/formats.md#bedrock-converse).
 *
 * Content blocks are tagged unions with exactly one key: `text`, `image`, `document`, `video`,
 * `audio`, `toolUse {toolUseId, name, input}`, `toolResult {toolUseId, content[], status}`
 * (status "error" → isError), `reasoningContent` (`reasoningText` → thinking,
 * `redactedContent` → redacted_thinking), `cachePoint`, … One block per content block.
 */
import type {
  Block,
  MediaBlock,
  Message,
  Result,
  Role,
  Transcript,
  ToolDef,
  UsageRecord,
} from '../../types.ts';
import type { FormatParser } from '../registry.ts';
import { arr, isObject, type Json, shapeError, str, withList } from '../util.ts';
import { bareListTranscript, jsonDocumentOnly, notAnObject, responseTranscript } from '../util.ts';
import { base64StandIn, toolDef } from '../util.ts';
import { BLOCK_KEYS, bedrockNearMiss } from './bedrockShape.ts';
import { nameTable } from '../../own.ts';
import { modelFamily } from '../modelNames.ts';

const ROLES: ReadonlyMap<string, Role> = nameTable({
  user: 'user',
  assistant: 'assistant',
  system: 'system',
});

function mediaBytes(src: unknown): number | undefined {
  if (!isObject(src)) return undefined;
  const b = src.bytes;
  if (typeof b === 'string') return Math.floor((b.length * 3) / 4);
  if (Array.isArray(b)) return b.length;
  return undefined;
}

/** Map one Converse content block to a normalised block; unknown blocks become `other`. */
export function converseBlock(b: unknown): Block {
  if (!isObject(b)) return { type: 'other', label: typeof b, raw: b };
  if (typeof b.text === 'string') return { type: 'text', text: b.text };
  if (isObject(b.json)) return { type: 'text', text: JSON.stringify(b.json) };
  if (isObject(b.image) || isObject(b.document) || isObject(b.video) || isObject(b.audio)) {
    const kind = isObject(b.image)
      ? 'image'
      : isObject(b.document)
        ? 'document'
        : isObject(b.video)
          ? 'video'
          : 'audio';
    const m = b[kind] as Json;
    const format = str(m.format);
    const bytes = mediaBytes(m.source);
    return {
      type: kind === 'image' ? 'image' : 'document',
      ...(format ? { mediaType: `${kind}/${format}` } : {}),
      ...(bytes !== undefined ? { bytes } : {}),
    };
  }
  if (isObject(b.toolUse)) {
    const u = b.toolUse;
    return {
      type: 'tool_use',
      id: str(u.toolUseId) ?? null,
      name: str(u.name) ?? '',
      input: u.input,
    };
  }
  if (isObject(b.toolResult)) {
    const r = b.toolResult;
    const content = (arr(r.content) ?? []).map(converseBlock);
    return {
      type: 'tool_result',
      toolUseId: str(r.toolUseId) ?? null,
      isError: r.status === 'error',
      content,
    };
  }
  if (isObject(b.reasoningContent)) {
    const rc = b.reasoningContent;
    if (isObject(rc.reasoningText)) {
      const sig = str(rc.reasoningText.signature);
      const block: Block = { type: 'thinking', thinking: str(rc.reasoningText.text) ?? '' };
      if (sig) block.signature = sig; // assigned, not spread: per block of every check
      return block;
    }
    const red = rc.redactedContent;
    return {
      type: 'redacted_thinking',
      bytes: typeof red === 'string' ? red.length : Array.isArray(red) ? red.length : 0,
    };
  }
  const label = Object.keys(b)[0] ?? 'block';
  return { type: 'other', label, raw: b };
}

/**
 * Normalise one Converse message.
 * @param m the message as pasted
 * @param i its index in `messages`
 */
export function converseMessage(m: unknown, i: number, listKey: string): Message {
  const path = `${listKey}.${i}`;
  if (!isObject(m)) return notAnObject(m, path, i);
  const role = ROLES.get(str(m.role) ?? '') ?? 'user';
  const c = m.content;
  if (typeof c === 'string')
    return {
      index: i,
      rawIndex: i,
      path,
      role,
      blocks: [{ type: 'text', text: c }],
      stringContent: true,
      raw: m,
    };
  const list = arr(c);
  const blocks = list
    ? list.map(converseBlock)
    : c === undefined || c === null
      ? []
      : [{ type: 'other' as const, label: 'content', raw: c }];
  return { index: i, rawIndex: i, path, role, blocks, raw: m };
}

/** A Converse content block: one known key, no `type`. */
function isConverseBlock(b: unknown): boolean {
  if (!isObject(b) || 'type' in b) return false;
  // for…in, not Object.keys with closures: every sniff of a `messages` body runs this per block.
  let keys = 0;
  let known = false;
  for (const k in b) {
    if (!Object.prototype.hasOwnProperty.call(b, k)) continue;
    if (++keys > 2) return false;
    if (BLOCK_KEYS.has(k)) known = true;
    else if (k !== 'cachePoint') return false;
  }
  return known;
}

function isConverseMessage(m: unknown): boolean {
  if (!isObject(m)) return false;
  const role = str(m.role);
  if (role !== 'user' && role !== 'assistant') return false;
  const c = arr(m.content);
  if (c === undefined) return false;
  for (const b of c) if (!isConverseBlock(b)) return false;
  return true;
}

/** A block with a key only Converse has (a strong sign of the format). */
function isStrongBlock(b: unknown): boolean {
  return (
    isObject(b) &&
    ('toolUse' in b ||
      'toolResult' in b ||
      'reasoningContent' in b ||
      'image' in b ||
      'document' in b ||
      'cachePoint' in b)
  );
}

function sniffList(list: unknown[]): number {
  if (list.length === 0) return 0;
  for (const m of list) if (!isConverseMessage(m)) return 0;
  for (const m of list)
    for (const b of (m as Json).content as unknown[]) if (isStrongBlock(b)) return 0.95;
  return 0.8;
}

/**
 * Top-level keys of other APIs' request bodies that a Converse request does not have: its model
 * goes in the URL (`modelId`), its sampling settings in `inferenceConfig`, its tools in
 * `toolConfig` (API_runtime_Converse.html). `model` is apart: a Bedrock model id under `model`
 * (a logged body) is still Converse's (`foreignBody`).
 */
const FOREIGN_KEYS = [
  'max_tokens',
  'max_completion_tokens',
  'temperature',
  'top_p',
  'top_k',
  'stream',
  'tools',
  'tool_choice',
  'stop',
  'stop_sequences',
  'anthropic_version',
  'thinking',
  'response_format',
  'generationConfig',
];

/**
 * True when a body holding Converse-shaped messages says it is another API's: a `model` that is
 * no Bedrock model id (`gpt-4o`, `claude-sonnet-4-5`), or a key only other APIs' bodies have. A
 * body with what only Converse has at the top level (`modelId`, `inferenceConfig`,
 * `toolConfig`) is Converse's whatever else it holds (a log that added fields).
 */
function foreignBody(v: Json): boolean {
  if ('modelId' in v || 'inferenceConfig' in v || 'toolConfig' in v) return false;
  if (typeof v.model === 'string' && modelFamily(v.model) !== 'bedrock') return true;
  for (const k of FOREIGN_KEYS) if (k in v) return true;
  return false;
}

/**
 * Scores of Converse-shaped messages in another API's body (`foreignBody`): with a block only
 * Converse has (0.95 otherwise) it is still read as Converse, above any Chat reading of it (0.55
 * with an OpenAI model); with plain `{text}` blocks (0.8 otherwise) it is the other API's body.
 */
const FOREIGN_STRONG = 0.75;
const FOREIGN_WEAK = 0.3;

function sniff(v: unknown): number {
  if (Array.isArray(v)) return sniffList(v);
  if (!isObject(v)) return 0;
  if (isObject(v.output) && isObject(v.output.message) && 'stopReason' in v) return 0.9;
  const msgs = arr(v.messages);
  if (!msgs) return 0;
  const hasToolSpec =
    isObject(v.toolConfig) &&
    (arr(v.toolConfig.tools) ?? []).some((t) => isObject(t) && 'toolSpec' in t);
  if (msgs.length === 0) return hasToolSpec || 'inferenceConfig' in v ? 0.7 : 0;
  const s = sniffList(msgs);
  if (s === 0) return 0;
  if (foreignBody(v)) return s >= 0.95 ? FOREIGN_STRONG : FOREIGN_WEAK;
  const named = modelFamily(v.model) === 'bedrock';
  return Math.min(
    1,
    s + (hasToolSpec || 'inferenceConfig' in v || 'modelId' in v || named ? 0.05 : 0),
  );
}

function parseTools(v: unknown): ToolDef[] | null {
  if (!isObject(v)) return null;
  const list = arr(v.tools);
  if (!list) return null;
  const out: ToolDef[] = [];
  for (const t of list) {
    if (!isObject(t) || !isObject(t.toolSpec)) continue;
    const s = t.toolSpec;
    const schema = isObject(s.inputSchema) ? s.inputSchema.json : undefined;
    out.push(toolDef(str(s.name) ?? '', s.description, schema));
  }
  return out;
}

function usageOf(u: unknown, messageIndex: number): UsageRecord[] {
  if (!isObject(u)) return [];
  const rec: UsageRecord = { messageIndex };
  if (typeof u.inputTokens === 'number') rec.inputTokens = u.inputTokens;
  if (typeof u.outputTokens === 'number') rec.outputTokens = u.outputTokens;
  if (typeof u.cacheReadInputTokens === 'number') rec.cacheReadTokens = u.cacheReadInputTokens;
  if (typeof u.cacheWriteInputTokens === 'number') rec.cacheWriteTokens = u.cacheWriteInputTokens;
  return [rec];
}

function parse(v: unknown): Result<Transcript> {
  if (Array.isArray(v))
    return bareListTranscript(
      'bedrock-converse',
      v,
      'messages',
      v.map((m, i) => converseMessage(m, i, 'messages')),
    );
  if (!isObject(v))
    return shapeError(
      'Expected a Converse body with `messages`, an array of messages, or a response with `output.message`.',
    );
  const model = str(v.modelId);
  if (isObject(v.output) && isObject(v.output.message)) {
    const m = converseMessage(v.output.message, 0, 'output');
    m.path = 'output.message';
    return responseTranscript('bedrock-converse', v, 'output', [m], model, usageOf(v.usage, 0));
  }
  const system: Transcript['system'] = [];
  (arr(v.system) ?? []).forEach((b, i) => {
    if (isObject(b) && typeof b.text === 'string')
      system.push({ text: b.text, path: `system.${i}` });
  });
  const extra = isObject(v.additionalModelRequestFields)
    ? v.additionalModelRequestFields
    : undefined;
  const thinkingCfg = extra && isObject(extra.thinking) ? extra.thinking : undefined;
  const full = 'modelId' in v || 'inferenceConfig' in v || 'toolConfig' in v || 'system' in v;
  const thinking = thinkingCfg
    ? thinkingCfg.type === 'enabled' || thinkingCfg.type === 'adaptive'
    : full
      ? false
      : undefined;
  const tc =
    isObject(v.toolConfig) && isObject(v.toolConfig.toolChoice)
      ? v.toolConfig.toolChoice
      : undefined;
  // Built field by field, not with spreads: in Node 20's V8 an object literal that adds fields
  // after a spread costs microseconds (a fresh map per call): issue 17, `check` per request.
  const settings: Transcript['settings'] = {};
  if (model) settings.model = model;
  if (thinking !== undefined) settings.thinking = thinking;
  if (tc && ('any' in tc || 'tool' in tc)) settings.toolChoiceForced = true;
  const tools = 'toolConfig' in v ? (parseTools(v.toolConfig) ?? []) : null;
  const list = arr(v.messages) ?? [];
  return {
    ok: true,
    value: {
      format: 'bedrock-converse',
      usage: [],
      warnings: [],
      raw: v,
      listKey: 'messages',
      system,
      tools,
      settings,
      messages: list.map((m, i) => converseMessage(m, i, 'messages')),
    },
  };
}

/**
 * A media block for one that holds no payload: bytes of its size (an S3 location when its size
 * is unknown), under the kind its media type names, so it reads back as the same block.
 */
function mediaBlock(b: MediaBlock): Record<string, unknown> {
  const [major, minor] = (b.mediaType ?? '').split('/');
  const kind =
    b.type === 'image' ? 'image' : major === 'video' || major === 'audio' ? major : 'document';
  const format = minor || (b.type === 'image' ? 'png' : 'pdf');
  const source =
    b.bytes === undefined
      ? { s3Location: { uri: `s3://example-invalid/${kind}` } }
      : { bytes: base64StandIn(b.bytes) };
  return { [kind]: { format, ...(kind === 'document' ? { name: 'document' } : {}), source } };
}

/** Render a normalised block as a Converse content block (inverse of `converseBlock`, best effort). */
function toBlock(b: Block): unknown[] {
  switch (b.type) {
    case 'text':
      return [{ text: b.text }];
    case 'image':
    case 'document':
      return [mediaBlock(b)];
    case 'tool_use':
      return [{ toolUse: { toolUseId: b.id, name: b.name, input: b.input ?? {} } }];
    case 'tool_result':
      return [
        {
          toolResult: {
            toolUseId: b.toolUseId,
            content: b.content.flatMap(toBlock),
            status: b.isError ? 'error' : 'success',
          },
        },
      ];
    case 'thinking':
      return [
        {
          reasoningContent: {
            reasoningText: { text: b.thinking, ...(b.signature ? { signature: b.signature } : {}) },
          },
        },
      ];
    case 'redacted_thinking':
      // Opaque: a stand-in of the same length (what the reader counts).
      return [{ reasoningContent: { redactedContent: 'x'.repeat(b.bytes) } }];
    case 'other':
      return [b.raw];
  }
}

/**
 * Write a transcript as a Converse request body. Untouched messages (raw set, same format) are
 * written from `raw`; others are rendered from blocks. For a transcript from another format,
 * consecutive messages of the same Converse role (tool results count as `user`) are merged, as
 * converters do, and system text goes to `system`.
 */
function write(t: Transcript): string {
  const same = t.format === 'bedrock-converse';
  const messages: unknown[] = [];
  const sys: string[] = t.system.map((s) => s.text);
  let lastRendered: { role: string; content: unknown[] } | null = null;
  for (const m of t.messages) {
    if (same && m.raw !== undefined) {
      messages.push(m.raw);
      lastRendered = null;
      continue;
    }
    if (!same && (m.role === 'system' || m.role === 'developer')) {
      sys.push(m.blocks.flatMap((b) => (b.type === 'text' ? [b.text] : [])).join('\n'));
      continue;
    }
    const content = m.blocks.flatMap(toBlock);
    const role = m.role === 'assistant' ? 'assistant' : m.role === 'system' ? 'system' : 'user';
    if (!same && lastRendered && lastRendered.role === role) {
      lastRendered.content.push(...content);
      continue;
    }
    const msg: { role: string; content: unknown[] } = { role, content };
    messages.push(msg);
    lastRendered = msg;
  }
  if (!same) {
    const text = sys.filter((s) => s.length > 0);
    return JSON.stringify(
      {
        ...(t.settings.model ? { modelId: t.settings.model } : {}),
        ...(text.length ? { system: text.map((s) => ({ text: s })) } : {}),
        messages,
      },
      null,
      2,
    );
  }
  if (isObject(t.raw) && isObject(t.raw.output)) return JSON.stringify({ messages }, null, 2);
  return JSON.stringify(withList(t.raw, 'messages', messages), null, 2);
}

export const bedrockConverseParser: FormatParser = {
  id: 'bedrock-converse',
  label: 'AWS Bedrock Converse',
  provider: 'bedrock',
  category: 'request',
  resultStyle: 'user',
  // Converse content blocks.
  blockWords: { call: 'toolUse', result: 'toolResult' },
  usageCacheApart: true,
  expected:
    'an object with `messages` whose content blocks are single-key objects (`text`, `toolUse`, `toolResult`, `reasoningContent`, …), a bare array of such messages, or a response with `output.message`',
  sniff,
  nearMiss: bedrockNearMiss,
  parse: jsonDocumentOnly(parse, 'A Converse request is a JSON document, not JSON Lines.'),
  write,
};
