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
import type { Message, Result, Transcript, UsageRecord } from '../../types.ts';
import type { SourceDoc } from '../json.ts';
import type { FormatParser } from '../registry.ts';
import { arr, isObject, shapeError, str } from '../util.ts';
import { aiSdkAsSent } from './aiSdkAsSent.ts';
import { aiSdkRefusals } from './aiSdkRefusals.ts';
import { listOf, modelMessage, ROLES } from './vercelAiModel.ts';
import { uiMessages } from './vercelAiUi.ts';
import { write } from './vercelAiWrite.ts';

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
  if (!isObject(m) || !ROLES.has(str(m.role) ?? '')) return NEITHER;
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

export const vercelAiParser: FormatParser = {
  asSent: aiSdkAsSent,
  refusals: aiSdkRefusals,
  id: 'vercel-ai',
  label: 'Vercel AI SDK messages',
  provider: 'anthropic',
  category: 'framework',
  // ModelMessages and UIMessage steps both answer calls in a `tool` message.
  resultStyle: 'tool',
  // AI SDK content parts.
  blockWords: { call: 'tool-call', result: 'tool-result' },
  expected:
    'an array (or `{messages}`) of AI SDK ModelMessages (`tool-call` / `tool-result` parts with `toolCallId`) or UIMessages (`{id, role, parts}` with `tool-*` parts)',
  sniff,
  parse,
  write,
};
