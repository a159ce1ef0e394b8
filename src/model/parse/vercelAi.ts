/**
 * Vercel AI SDK message arrays. Source of the shape: the `ai` package's `ModelMessage` and
 * `UIMessage` (docs/formats.md#vercel-ai).
 *
 * - `ModelMessage[]` (v5+; v4 `CoreMessage` with `args` / `result`): roles system / user /
 *   assistant / tool, `tool-call` and `tool-result` parts paired by `toolCallId`.
 * - `UIMessage[]` (what `useChat` persists): `{id, role, parts}`. A tool part holds the call and
 *   its result together; as `convertToModelMessages` does, each step (split at `step-start`)
 *   becomes an assistant message with the calls, followed by a `tool` message with the results
 *   of the parts that have an output. v4 `tool-invocation` parts are read too.
 * Arrays may also be wrapped as `{messages: […]}`.
 */
import type { Block, Message, Result, Role, Transcript, UsageRecord } from '../types.ts';
import type { SourceDoc } from './json.ts';
import type { FormatParser } from './registry.ts';
import { arr, base64Bytes, isObject, type Json, shapeError, str, withList } from './util.ts';
import { notAnObject } from './util.ts';
import { aiSdkAsSent } from './aiSdkAsSent.ts';
import { aiSdkRefusals } from './aiSdkRefusals.ts';

const ROLES: Record<string, Role> = {
  system: 'system',
  user: 'user',
  assistant: 'assistant',
  tool: 'tool',
};
const MODEL_PART_TYPES = new Set([
  'text',
  'image',
  'file',
  'reasoning',
  'redacted-reasoning',
  'tool-call',
  'tool-result',
  'tool-approval-request',
  'tool-approval-response',
]);

function listOf(v: unknown): unknown[] | undefined {
  if (Array.isArray(v)) return v;
  if (isObject(v)) return arr(v.messages);
  return undefined;
}

function isUiPartType(t: string): boolean {
  return (
    t === 'text' ||
    t === 'reasoning' ||
    t === 'file' ||
    t === 'step-start' ||
    t === 'dynamic-tool' ||
    t === 'tool-invocation' ||
    t.startsWith('tool-') ||
    t.startsWith('data-') ||
    t.startsWith('source-')
  );
}

type Kind = { kind: 0 | 1 | 2; strong: boolean };

/** The four answers of `messageKind`, made once: it runs per message of every body sniffed. */
const NEITHER: Kind = { kind: 0, strong: false };
const MODEL: Kind = { kind: 1, strong: false };
const MODEL_STRONG: Kind = { kind: 1, strong: true };
const UI: Kind = { kind: 2, strong: false };
const UI_STRONG: Kind = { kind: 2, strong: true };

/** 2 = UIMessage, 1 = ModelMessage, 0 = neither; `strong` when a camelCase tool part is present. */
function messageKind(m: unknown): Kind {
  if (!isObject(m) || !ROLES[str(m.role) ?? '']) return NEITHER;
  const parts = arr(m.parts);
  if (parts && !('content' in m && typeof m.content !== 'string')) {
    let strong = false;
    for (const p of parts) {
      if (!isObject(p) || typeof p.type !== 'string' || !isUiPartType(p.type)) return NEITHER;
      if (
        typeof p.toolCallId === 'string' ||
        p.type === 'step-start' ||
        p.type === 'tool-invocation'
      )
        strong = true;
    }
    return strong ? UI_STRONG : UI;
  }
  const c = m.content;
  if (typeof c === 'string') return MODEL;
  if (!Array.isArray(c)) return NEITHER;
  let strong = false;
  for (const p of c as unknown[]) {
    if (!isObject(p) || typeof p.type !== 'string' || !MODEL_PART_TYPES.has(p.type)) return NEITHER;
    if (
      p.type === 'tool-call' ||
      p.type === 'tool-result' ||
      p.type === 'reasoning' ||
      typeof p.toolCallId === 'string'
    )
      strong = true;
  }
  return strong ? MODEL_STRONG : MODEL;
}

/**
 * Sniff: every item is a ModelMessage or every item is a UIMessage, and at least one carries an
 * AI-SDK marker (a camelCase `toolCallId`, a `tool-call` part, `step-start`, `parts`), since plain
 * `{role, content: string}` lists belong to OpenAI Chat.
 */
function sniff(v: unknown): number {
  const list = listOf(v);
  if (!list || list.length === 0) return 0;
  let kind = -1;
  let strong = false;
  for (const m of list) {
    const k = messageKind(m);
    if (k.kind === 0) return 0;
    if (kind !== -1 && k.kind !== kind) return 0;
    kind = k.kind;
    strong ||= k.strong;
  }
  if (kind === 2) return strong ? 0.95 : 0.85;
  return strong ? 0.95 : 0;
}

function outputBlocks(o: unknown, legacy: boolean): { blocks: Block[]; isError: boolean } {
  if (legacy || !isObject(o) || typeof o.type !== 'string') {
    return {
      blocks:
        o === undefined
          ? []
          : [{ type: 'text', text: typeof o === 'string' ? o : (JSON.stringify(o) ?? '') }],
      isError: false,
    };
  }
  switch (o.type) {
    case 'text':
      return { blocks: [{ type: 'text', text: str(o.value) ?? '' }], isError: false };
    case 'error-text':
      return { blocks: [{ type: 'text', text: str(o.value) ?? '' }], isError: true };
    case 'json':
    case 'error-json':
      return {
        blocks: [{ type: 'text', text: JSON.stringify(o.value) ?? '' }],
        isError: o.type === 'error-json',
      };
    case 'execution-denied':
      return {
        blocks: [{ type: 'text', text: str(o.reason) ?? 'Tool execution denied.' }],
        isError: true,
      };
    case 'content':
      return {
        blocks: (arr(o.value) ?? []).map((c): Block => {
          if (isObject(c) && c.type === 'text') return { type: 'text', text: str(c.text) ?? '' };
          if (
            isObject(c) &&
            (c.type === 'media' || c.type === 'image-data' || c.type === 'file-data')
          ) {
            const bytes = base64Bytes(c.data);
            return {
              type:
                str(c.mediaType)?.startsWith('image/') || c.type === 'image-data'
                  ? 'image'
                  : 'document',
              ...(str(c.mediaType) ? { mediaType: str(c.mediaType) as string } : {}),
              ...(bytes !== undefined ? { bytes } : {}),
            };
          }
          return {
            type: 'other',
            label: isObject(c) ? (str(c.type) ?? 'content') : 'content',
            raw: c,
          };
        }),
        isError: false,
      };
    default:
      return { blocks: [{ type: 'other', label: o.type, raw: o }], isError: false };
  }
}

function modelPart(p: unknown): Block {
  if (typeof p === 'string') return { type: 'text', text: p };
  if (!isObject(p)) return { type: 'other', label: typeof p, raw: p };
  switch (p.type) {
    case 'text':
      return { type: 'text', text: str(p.text) ?? '' };
    case 'image':
    case 'file': {
      const data = p.type === 'image' ? p.image : p.data;
      const bytes =
        typeof data === 'string' && !/^https?:/.test(data) ? base64Bytes(data) : undefined;
      const mediaType = str(p.mediaType) ?? str(p.mimeType);
      return {
        type: p.type === 'image' || mediaType?.startsWith('image/') ? 'image' : 'document',
        ...(mediaType ? { mediaType } : {}),
        ...(bytes !== undefined ? { bytes } : {}),
      };
    }
    case 'reasoning':
      return { type: 'thinking', thinking: str(p.text) ?? '' };
    case 'redacted-reasoning':
      return { type: 'redacted_thinking', bytes: str(p.data)?.length ?? 0 };
    case 'tool-call':
      return {
        type: 'tool_use',
        id: str(p.toolCallId) ?? null,
        name: str(p.toolName) ?? '',
        input: 'input' in p ? p.input : p.args,
        ...(p.providerExecuted === true ? { server: true } : {}),
      };
    case 'tool-result': {
      const legacy = !('output' in p) && 'result' in p;
      const { blocks, isError } = outputBlocks(legacy ? p.result : p.output, legacy);
      return {
        type: 'tool_result',
        toolUseId: str(p.toolCallId) ?? null,
        isError: isError || p.isError === true,
        content: blocks,
        ...(str(p.toolName) ? { name: str(p.toolName) as string } : {}),
      };
    }
    default:
      return { type: 'other', label: str(p.type) ?? 'unknown', raw: p };
  }
}

function modelMessage(m: unknown, i: number): Message {
  const path = `messages.${i}`;
  if (!isObject(m)) return notAnObject(m, path, i);
  const role = ROLES[str(m.role) ?? ''] ?? 'user';
  const c = m.content;
  const stringContent = typeof c === 'string';
  let blocks = stringContent ? [{ type: 'text' as const, text: c }] : (arr(c) ?? []).map(modelPart);
  // A provider-executed result inside the assistant content answers a server call (Anthropic §1.3).
  if (role === 'assistant')
    blocks = blocks.map((b) => (b.type === 'tool_result' ? { ...b, server: 'tool-result' } : b));
  return {
    index: i,
    rawIndex: i,
    path,
    role,
    blocks,
    raw: m,
    ...(stringContent ? { stringContent } : {}),
  };
}

interface ToolPart {
  id: string | null;
  name: string;
  state: string;
  input: unknown;
  output: unknown;
  errorText: string | undefined;
  providerExecuted: boolean;
  legacy: boolean;
}

function toolPart(p: Json): ToolPart | null {
  const t = str(p.type) ?? '';
  if (t === 'tool-invocation' && isObject(p.toolInvocation)) {
    const ti = p.toolInvocation;
    return {
      id: str(ti.toolCallId) ?? null,
      name: str(ti.toolName) ?? '',
      state: ti.state === 'result' ? 'output-available' : 'input-available',
      input: ti.args,
      output: ti.result,
      errorText: undefined,
      providerExecuted: false,
      legacy: true,
    };
  }
  if (t === 'dynamic-tool' || (t.startsWith('tool-') && t !== 'tool-invocation')) {
    return {
      id: str(p.toolCallId) ?? null,
      name: t === 'dynamic-tool' ? (str(p.toolName) ?? '') : t.slice(5),
      state: str(p.state) ?? 'input-available',
      input: p.input,
      output: p.output,
      errorText: str(p.errorText),
      providerExecuted: p.providerExecuted === true,
      legacy: false,
    };
  }
  return null;
}

/** Split one UIMessage into model messages (steps), as `convertToModelMessages` does. */
function uiMessages(m: unknown, i: number, start: number): Message[] {
  const path = `messages.${i}`;
  if (!isObject(m)) return [notAnObject(m, path, start, i)];
  const role = ROLES[str(m.role) ?? ''] ?? 'user';
  const parts = arr(m.parts) ?? [];
  const id = str(m.id);
  const meta = id ? { sourceId: id } : undefined;
  const out: Message[] = [];
  const push = (r: Role, blocks: Block[], p: string) =>
    out.push({
      index: start + out.length,
      rawIndex: i,
      path: p,
      role: r,
      blocks,
      raw: m,
      ...(meta ? { meta: { ...meta } } : {}),
    });
  if (role !== 'assistant') {
    const blocks: Block[] = [];
    for (const p of parts) {
      if (!isObject(p)) continue;
      if (p.type === 'text') blocks.push({ type: 'text', text: str(p.text) ?? '' });
      else if (p.type === 'file')
        blocks.push({
          type: str(p.mediaType)?.startsWith('image/') ? 'image' : 'document',
          ...(str(p.mediaType) ? { mediaType: str(p.mediaType) as string } : {}),
        });
      else if (
        typeof p.type === 'string' &&
        (p.type.startsWith('data-') || p.type.startsWith('source-'))
      )
        continue;
      else blocks.push({ type: 'other', label: str(p.type) ?? 'part', raw: p });
    }
    if (blocks.length === 0 && typeof m.content === 'string')
      blocks.push({ type: 'text', text: m.content });
    push(role, blocks, path);
    return out;
  }
  let calls: Block[] = [];
  let results: Block[] = [];
  let stepIndex = 0;
  const flush = () => {
    if (calls.length > 0)
      push('assistant', calls, stepIndex === 0 ? path : `${path}.parts.${stepIndex}`);
    if (results.length > 0) push('tool', results, `${path}.parts.${stepIndex}`);
    calls = [];
    results = [];
  };
  parts.forEach((p, k) => {
    if (!isObject(p)) return;
    if (p.type === 'step-start') {
      if (calls.length > 0 || results.length > 0) flush();
      stepIndex = k;
      return;
    }
    if (p.type === 'text') calls.push({ type: 'text', text: str(p.text) ?? '' });
    else if (p.type === 'reasoning')
      calls.push({ type: 'thinking', thinking: str(p.text) ?? str(p.reasoning) ?? '' });
    else if (p.type === 'file')
      calls.push({ type: str(p.mediaType)?.startsWith('image/') ? 'image' : 'document' });
    else {
      const t = toolPart(p);
      if (t) {
        if (t.state === 'input-streaming') return;
        calls.push({
          type: 'tool_use',
          id: t.id,
          name: t.name,
          input: t.input,
          ...(t.providerExecuted ? { server: true } : {}),
        });
        if (
          t.state === 'output-available' ||
          t.state === 'output-error' ||
          t.state === 'output-denied'
        ) {
          const { blocks, isError } =
            t.state === 'output-error'
              ? { blocks: [{ type: 'text' as const, text: t.errorText ?? '' }], isError: true }
              : t.state === 'output-denied'
                ? {
                    blocks: [{ type: 'text' as const, text: 'Tool execution denied.' }],
                    isError: true,
                  }
                : outputBlocks(t.output, true);
          const result: Block = {
            type: 'tool_result',
            toolUseId: t.id,
            isError,
            content: blocks,
            name: t.name,
            ...(t.providerExecuted ? { server: 'tool-result' } : {}),
          };
          if (t.providerExecuted) calls.push(result);
          else results.push(result);
        }
      } else if (
        typeof p.type === 'string' &&
        !(p.type.startsWith('data-') || p.type.startsWith('source-'))
      )
        calls.push({ type: 'other', label: p.type, raw: p });
    }
  });
  flush();
  if (out.length === 0) push('assistant', [], path);
  return out;
}

function parse(doc: SourceDoc): Result<Transcript> {
  if (doc.kind !== 'json')
    return shapeError('AI SDK messages are one JSON document, not JSON Lines.');
  const list = listOf(doc.value);
  if (!list)
    return shapeError(
      'Expected an array of AI SDK ModelMessages or UIMessages, or an object with `messages`.',
    );
  const ui = list.some((m) => isObject(m) && Array.isArray(m.parts));
  const messages: Message[] = [];
  const usage: UsageRecord[] = [];
  list.forEach((m, i) => {
    const produced = ui ? uiMessages(m, i, messages.length) : [modelMessage(m, i)];
    messages.push(...produced);
    const md = isObject(m) && isObject(m.metadata) ? m.metadata : null;
    const u = md && isObject(md.usage) ? md.usage : null;
    if (u) {
      const last = messages.length - 1;
      const rec: UsageRecord = { messageIndex: last };
      if (typeof u.inputTokens === 'number') rec.inputTokens = u.inputTokens;
      if (typeof u.outputTokens === 'number') rec.outputTokens = u.outputTokens;
      const itd = isObject(u.inputTokenDetails) ? u.inputTokenDetails : {};
      const cr =
        typeof itd.cacheReadTokens === 'number' ? itd.cacheReadTokens : u.cachedInputTokens;
      if (typeof cr === 'number') rec.cacheReadTokens = cr;
      if (typeof itd.cacheWriteTokens === 'number') rec.cacheWriteTokens = itd.cacheWriteTokens;
      const otd = isObject(u.outputTokenDetails) ? u.outputTokenDetails : {};
      const rt = typeof otd.reasoningTokens === 'number' ? otd.reasoningTokens : u.reasoningTokens;
      if (typeof rt === 'number') rec.reasoningTokens = rt;
      usage.push(rec);
    }
  });
  const warnings = [
    'AI SDK message lists carry no tool definitions; they are checked as the request the provider adapter would send (default: Anthropic).',
  ];
  if (ui)
    warnings.push(
      'UIMessages hold a tool call and its result in one part; each step is shown as an assistant message followed by a tool message, as convertToModelMessages sends it.',
    );
  return {
    ok: true,
    value: {
      format: 'vercel-ai',
      system: [],
      tools: null,
      settings: {},
      usage,
      messages,
      warnings,
      listKey: 'messages',
      raw: doc.value,
    },
  };
}

/**
 * Render a changed or new message as ModelMessage(s). A user message carrying tool results
 * (Anthropic shape) becomes a `tool` message with the results, then a user message with the rest.
 */
function renderModelAll(m: Message): unknown[] {
  if (m.role !== 'user' || !m.blocks.some((b) => b.type === 'tool_result')) return [renderModel(m)];
  const rest = m.blocks.filter((b) => b.type !== 'tool_result');
  const out = [
    renderModel({
      ...m,
      role: 'tool',
      stringContent: false,
      blocks: m.blocks.filter((b) => b.type === 'tool_result'),
    }),
  ];
  if (rest.length > 0) out.push(renderModel({ ...m, stringContent: false, blocks: rest }));
  return out;
}

function renderModel(m: Message): unknown {
  if (m.stringContent && m.blocks.length === 1 && m.blocks[0]?.type === 'text')
    return { role: m.role === 'developer' ? 'system' : m.role, content: m.blocks[0].text };
  const content = m.blocks.map((b) => {
    switch (b.type) {
      case 'text':
        return { type: 'text', text: b.text };
      case 'thinking':
        return { type: 'reasoning', text: b.thinking };
      case 'tool_use':
        return {
          type: 'tool-call',
          toolCallId: b.id,
          toolName: b.name,
          input: b.input ?? {},
          ...(b.server ? { providerExecuted: true } : {}),
        };
      case 'tool_result': {
        const text = b.content.map((c) => (c.type === 'text' ? c.text : '')).join('');
        return {
          type: 'tool-result',
          toolCallId: b.toolUseId,
          toolName: b.name ?? '',
          output: { type: b.isError ? 'error-text' : 'text', value: text },
        };
      }
      case 'other':
        return b.raw;
      default:
        return { type: 'text', text: '' };
    }
  });
  return { role: m.role === 'developer' ? 'system' : m.role, content };
}

/** Render the steps of one assistant UIMessage back into parts (calls merged with their results). */
function renderUi(group: Message[], base: Json): unknown {
  const parts: unknown[] = [];
  const results = new Map<string, Block>();
  for (const m of group)
    for (const b of m.blocks)
      if (b.type === 'tool_result' && b.toolUseId !== null) results.set(b.toolUseId, b);
  group.forEach((m, k) => {
    if (m.role === 'tool') return;
    if (k > 0 || group.length > 1) parts.push({ type: 'step-start' });
    for (const b of m.blocks) {
      if (b.type === 'text') parts.push({ type: 'text', text: b.text });
      else if (b.type === 'thinking') parts.push({ type: 'reasoning', text: b.thinking });
      else if (b.type === 'tool_use') {
        const r = b.id !== null ? results.get(b.id) : undefined;
        const text =
          r && r.type === 'tool_result'
            ? r.content.map((c) => (c.type === 'text' ? c.text : '')).join('')
            : '';
        const state = !r
          ? 'input-available'
          : r.type === 'tool_result' && r.isError
            ? 'output-error'
            : 'output-available';
        parts.push({
          type: `tool-${b.name}`,
          toolCallId: b.id,
          state,
          input: b.input,
          ...(state === 'output-available'
            ? { output: text }
            : state === 'output-error'
              ? { errorText: text }
              : {}),
        });
      } else if (b.type === 'other') parts.push(b.raw);
    }
  });
  return { ...base, parts };
}

/**
 * Write the list back. ModelMessages: untouched ones from raw, others rendered. UIMessages: a
 * UIMessage whose pieces are all present and untouched is written from raw; otherwise its
 * remaining pieces are merged back into one UIMessage's parts.
 */
function write(t: Transcript): string {
  const src = listOf(t.raw) ?? [];
  const ui = src.some((m) => isObject(m) && Array.isArray(m.parts));
  if (!ui)
    return JSON.stringify(
      withList(
        t.raw,
        'messages',
        t.messages.flatMap((m) => (m.raw !== undefined ? [m.raw] : renderModelAll(m))),
      ),
      null,
      2,
    );
  const out: unknown[] = [];
  let k = 0;
  while (k < t.messages.length) {
    const m = t.messages[k] as Message;
    const group: Message[] = [m];
    const key = m.raw !== undefined ? m.raw : null;
    // The steps of one UIMessage: the same raw, or (rendered copies, raw undefined) the same
    // source position, so a redacted assistant turn keeps its results inside its tool parts.
    const sameUi = (n: Message): boolean =>
      key !== null
        ? n.raw === key
        : n.raw === undefined &&
          n.rawIndex === m.rawIndex &&
          (m.role === 'assistant' || m.role === 'tool') &&
          (n.role === 'assistant' || n.role === 'tool');
    while (k + group.length < t.messages.length && sameUi(t.messages[k + group.length] as Message))
      group.push(t.messages[k + group.length] as Message);
    k += group.length;
    const expected = key !== null ? uiMessages(key, 0, 0).length : -1;
    if (key !== null && expected === group.length) out.push(key);
    else if (m.role === 'assistant' || m.role === 'tool')
      out.push(renderUi(group, isObject(key) ? { ...key } : { role: 'assistant' }));
    else
      out.push({
        ...(isObject(key) ? key : {}),
        role: m.role === 'developer' ? 'system' : m.role,
        parts: m.blocks.map((b) =>
          b.type === 'text'
            ? { type: 'text', text: b.text }
            : b.type === 'other'
              ? b.raw
              : { type: 'text', text: '' },
        ),
      });
  }
  return JSON.stringify(withList(t.raw, 'messages', out), null, 2);
}

export const vercelAiParser: FormatParser = {
  asSent: aiSdkAsSent,
  refusals: aiSdkRefusals,
  id: 'vercel-ai',
  label: 'Vercel AI SDK messages',
  provider: 'anthropic',
  category: 'framework',
  resultStyle: 'user',
  expected:
    'an array (or `{messages}`) of AI SDK ModelMessages (`tool-call` / `tool-result` parts with `toolCallId`) or UIMessages (`{id, role, parts}` with `tool-*` parts)',
  sniff,
  parse,
  write,
};
