/**
 * OpenTelemetry GenAI traces: an OTLP/JSON export (or a collector's file export, one request per
 * line), a Jaeger JSON download, or a flat span array with a `gen_ai.*` attribute map (Logfire,
 * Phoenix, Langfuse-style exports). Each LLM call span (`chat`, `generate_content`,
 * `text_completion`) becomes one request of the request picker, named by its start time, model
 * and span name, in time order (the newest opens by default). Its context is rebuilt as the
 * request body its provider (`gen_ai.provider.name`, older `gen_ai.system`) received, so that
 * provider's rules judge it; `execute_tool` spans are linked to the calls by
 * `gen_ai.tool.call.id` and said in the notes. See docs/formats.md#otel.
 */
import { requestLabel, str, type Json } from '../util.ts';
import { bodyFormatOf, buildBody, type BodyFormat } from './otelBody.ts';
import { callContext, UnreadableAttribute, type CallContext } from './otelContext.ts';
import {
  flatSpans,
  isOtlp,
  isSemconvMessageList,
  isSpanRow,
  otlpSpans,
  pastedMessagesSpan,
  type Span,
} from './otelSpans.ts';
import type { ContainerEntry, ContainerRead } from './types.ts';
import { endpointOfHost, endpointOfOtelProvider } from '../../validate/endpoints/recognise.ts';

/** `gen_ai.operation.name` values of a model call (semconv), and OpenLLMetry's request types. */
const LLM_OPERATIONS = new Set(['chat', 'generate_content', 'text_completion', 'completion']);

const PROVIDER_LABEL: Record<BodyFormat, string> = {
  'anthropic-messages': 'Anthropic Messages',
  'openai-chat': 'OpenAI Chat Completions',
  gemini: 'Gemini generateContent',
  'bedrock-converse': 'Bedrock Converse',
};

/** OpenAI-compatible providers with a validator of their own: [name pattern, label, id]. */
const COMPATIBLE: [RegExp, string, string][] = [
  [/^deepseek/, 'DeepSeek', 'deepseek'],
  [/^mistral/, 'Mistral', 'mistral'],
  [/^(qwen|dashscope|alibaba)/, 'Qwen (DashScope)', 'qwen'],
];

/** True for a span that is one model call. */
function isLlmCall(s: Span): boolean {
  const op = str(s.attrs['gen_ai.operation.name']) ?? str(s.attrs['llm.request.type']);
  if (op !== undefined) return LLM_OPERATIONS.has(op);
  return (
    s.attrs['gen_ai.input.messages'] !== undefined ||
    s.attrs['gen_ai.prompt.0.role'] !== undefined ||
    s.attrs['gen_ai.prompt.0.content'] !== undefined ||
    s.events.some((e) => e.name === 'gen_ai.user.message')
  );
}

function isToolSpan(s: Span): boolean {
  return s.attrs['gen_ai.operation.name'] === 'execute_tool';
}

function num(v: unknown): number | undefined {
  return typeof v === 'number' && Number.isFinite(v) ? v : undefined;
}

/** `14:07:12 UTC`, or undefined without a time. */
function clock(ms: number | undefined): string | undefined {
  if (ms === undefined || !Number.isFinite(ms)) return undefined;
  const d = new Date(ms);
  return Number.isNaN(d.getTime()) ? undefined : `${d.toISOString().slice(11, 19)} UTC`;
}

/** What the span reports about tokens, with the semconv meaning of `input_tokens`. */
function usageNote(a: Json): string | undefined {
  const input = num(a['gen_ai.usage.input_tokens']) ?? num(a['gen_ai.usage.prompt_tokens']);
  const output = num(a['gen_ai.usage.output_tokens']) ?? num(a['gen_ai.usage.completion_tokens']);
  if (input === undefined && output === undefined) return undefined;
  const read = num(a['gen_ai.usage.cache_read.input_tokens']);
  const written = num(a['gen_ai.usage.cache_creation.input_tokens']);
  const reasoning = num(a['gen_ai.usage.reasoning.output_tokens']);
  const parts: string[] = [];
  if (input !== undefined) {
    const cache = [
      read !== undefined ? `${read} read from the cache` : undefined,
      written !== undefined ? `${written} written to it` : undefined,
    ].filter((x) => x !== undefined);
    parts.push(
      `${input} input tokens${cache.length > 0 ? ` (the semconv count includes the cache buckets: ${cache.join(', ')})` : ''}`,
    );
  }
  if (output !== undefined)
    parts.push(
      `${output} output tokens${reasoning !== undefined ? ` (${reasoning} of them reasoning)` : ''}`,
    );
  return `The span reports ${parts.join(' and ')}.`;
}

/** One line per tool call of this call that an `execute_tool` span ran. */
function toolNotes(ctx: CallContext, tools: Map<string, Span>): string[] {
  const answered = new Set<string>();
  for (const m of ctx.input)
    for (const p of m.parts)
      if (p.type === 'tool_call_response' && typeof p.id === 'string') answered.add(p.id);
  const notes: string[] = [];
  const seen = new Set<string>();
  const each = (list: typeof ctx.input, inOutput: boolean) => {
    for (const m of list)
      for (const p of m.parts) {
        if (p.type !== 'tool_call' || typeof p.id !== 'string' || seen.has(p.id)) continue;
        seen.add(p.id);
        const run = tools.get(p.id);
        if (!run) continue;
        const when = clock(run.startMs);
        const how = run.error !== undefined ? `failed: ${run.error}` : 'succeeded';
        const ran = `${run.name || 'execute_tool'}${when ? ` at ${when}` : ''} (${how})`;
        if (inOutput)
          notes.push(`This answer calls ${p.id} (${str(p.name) ?? ''}); span ${ran} ran it.`);
        else if (!answered.has(p.id))
          notes.push(
            `Tool call ${p.id} (${str(p.name) ?? ''}) has no tool_call_response in this input, but span ${ran} ran it: its result was lost before this call.`,
          );
        else notes.push(`Tool call ${p.id} (${str(p.name) ?? ''}) ran in span ${ran}.`);
      }
  };
  each(ctx.input, false);
  each(ctx.output, true);
  return notes;
}

function hasReasoning(ctx: CallContext): boolean {
  return [...ctx.input, ...ctx.output].some((m) => m.parts.some((p) => p.type === 'reasoning'));
}

function entryOf(
  span: Span,
  ctx: CallContext,
  i: number,
  total: number,
  tools: Map<string, Span>,
): ContainerEntry {
  const a = span.attrs;
  const providerName = str(a['gen_ai.provider.name']) ?? str(a['gen_ai.system']);
  const model = str(a['gen_ai.request.model']) ?? str(a['gen_ai.response.model']);
  const format = bodyFormatOf(providerName, model);
  // The endpoint: the host that answered (`server.address`), else the provider's name.
  const host = str(a['server.address']);
  const endpoint =
    (host !== undefined ? endpointOfHost(host, format) : undefined) ??
    (providerName !== undefined ? endpointOfOtelProvider(providerName, format) : undefined);
  const maxTokens = num(a['gen_ai.request.max_tokens']);
  // The verdict is about the request that was sent: the span's output (the model's answer) came
  // back from that request and is not part of it. Appended, a final answer would end the request
  // on an assistant turn (A12 "prefill" on a model that rejects it, a prefill note elsewhere) and
  // an answer that calls tools would end it in unanswered calls: 400s that never happened.
  const outputCalls = ctx.output.flatMap((m) => m.parts.filter((p) => p.type === 'tool_call'));
  const settings = {
    ...(model !== undefined ? { model } : {}),
    ...(maxTokens !== undefined ? { maxTokens } : {}),
  };
  const value = buildBody(ctx, format, settings);
  const notes = [
    span.pasted
      ? `Read as GenAI semantic-convention messages and rebuilt as the ${PROVIDER_LABEL[format]} request: a bare message list names no provider, so pick the one that received it under Provider (--provider).`
      : `Read from ${ctx.shape} and rebuilt as the ${PROVIDER_LABEL[format]} request ${providerName !== undefined ? `${providerName} received (gen_ai.provider.name)` : `of model ${model ?? '(unnamed)'}: the span names no provider (gen_ai.provider.name)`}.`,
  ];
  const compatible = COMPATIBLE.find(([re]) => re.test((providerName ?? '').toLowerCase()));
  if (compatible)
    notes.push(
      `${providerName ?? ''} takes OpenAI Chat Completions bodies with its own rules: pick ${compatible[1]} under Provider (--provider ${compatible[2]}).`,
    );
  if (outputCalls.length > 0)
    notes.push(
      `The answer (gen_ai.output.messages) calls ${outputCalls.map((p) => `${str(p.id) ?? '(no id)'} (${str(p.name) ?? ''})`).join(', ')}; it is not appended, so the request is judged as it was sent.`,
    );
  else if (ctx.output.length > 0)
    notes.push(
      `The answer (gen_ai.output.messages) is what this request returned; it is not appended, so the request is judged as it was sent.`,
    );
  if (span.error !== undefined) notes.push(`The span ended with an error: ${span.error}`);
  const usage = usageNote(a);
  if (usage) notes.push(usage);
  if (hasReasoning(ctx))
    notes.push(
      'Traces do not record reasoning signatures: reasoning is shown as recorded, and the signature rules are not judged.',
    );
  notes.push(...toolNotes(ctx, tools));
  const where = spanWhere(span, i, total);
  return {
    label: requestLabel(i, clock(span.startMs), model, span.name || undefined),
    value,
    note: {
      kind: 'otel',
      where,
      formatHint: format,
      notes,
      ...(endpoint ? { endpoint } : {}),
      ...(ctx.tools ? {} : { toolsUnrecorded: true }),
    },
  };
}

/** A call span's context, or what of it does not read (`UnreadableAttribute`'s message). */
function readCall(s: Span): { s: Span; ctx: CallContext | string | null } {
  try {
    return { s, ctx: callContext(s) };
  } catch (e) {
    if (e instanceof UnreadableAttribute) return { s, ctx: e.message };
    throw e;
  }
}

/** Where a call span sits, for people (the note's `where`, the start of an unreadable one). */
function spanWhere(span: Span, i: number, total: number): string {
  return span.pasted
    ? 'gen_ai.input.messages list (OpenTelemetry GenAI semantic conventions) pasted on its own'
    : `OpenTelemetry trace, LLM call ${i + 1} of ${total}: span ${span.name || '(unnamed)'}${span.spanId ? ` (${span.spanId})` : ''} at ${span.path}`;
}

/**
 * The request of a call span whose context does not read (issue 37): listed like the others, and
 * refused with the reason when opened, so no provider judges a request rebuilt from part of it.
 */
function unreadableEntry(span: Span, why: string, i: number, total: number): ContainerEntry {
  const a = span.attrs;
  const model = str(a['gen_ai.request.model']) ?? str(a['gen_ai.response.model']);
  const where = spanWhere(span, i, total);
  return {
    label: requestLabel(i, clock(span.startMs), model, span.name || undefined),
    value: null,
    note: { kind: 'otel', where },
    unreadable: `${where}: ${why}`,
  };
}

/** The spans of any supported trace export, or null when the value is not one. */
function spansOf(v: unknown, lineOf?: number[]): Span[] | null {
  if (isOtlp(v)) return otlpSpans([v], ['']);
  if (lineOf === undefined && isSemconvMessageList(v)) return [pastedMessagesSpan(v as unknown[])];
  if (Array.isArray(v) && v.length > 0 && v.every(isOtlp))
    return otlpSpans(
      v,
      v.map((_, i) => (lineOf ? `line ${lineOf[i] ?? i + 1}: ` : `${i}.`)),
    );
  const flat = flatSpans(v);
  // A JSON Lines export (one span per line): say where each span is by its line.
  if (flat && lineOf) for (const s of flat) s.path = `line ${lineOf[Number(s.path)] ?? s.path}`;
  return flat;
}

/** True for a value that starts a trace export (cheap; for a JSON Lines file's first line). */
export function isTraceRow(v: unknown): boolean {
  return isOtlp(v) || isSpanRow(v);
}

/**
 * Read an OpenTelemetry trace export.
 * @param value a parsed JSON value, or the values of a JSON Lines file's lines (collector file
 *   export: one OTLP request per line)
 * @param lineOf the 1-based line of each value, for JSON Lines
 * @returns null when the value is not a trace export; else one entry per LLM call span whose
 *   content was recorded, oldest first, each rebuilt as its provider's request body with a
 *   format hint; or a ParseError when the trace holds no LLM call, or none with content.
 *   Never throws.
 */
export function readOtel(value: unknown, lineOf?: number[]): ContainerRead {
  const spans = spansOf(value, lineOf);
  if (!spans) return null;
  const tools = new Map<string, Span>();
  for (const s of spans) {
    const id = s.attrs['gen_ai.tool.call.id'];
    if (isToolSpan(s) && typeof id === 'string') tools.set(id, s);
  }
  const calls = spans
    .filter(isLlmCall)
    .map((s, i) => ({ s, i }))
    .sort((x, y) => (x.s.startMs ?? 0) - (y.s.startMs ?? 0) || x.i - y.i)
    .map(({ s }) => s);
  const read = calls
    .map(readCall)
    .filter((c): c is { s: Span; ctx: CallContext | string } => c.ctx !== null);
  if (read.length === 0)
    return {
      ok: false,
      error: {
        kind: 'shape',
        message:
          calls.length === 0
            ? `This OpenTelemetry trace has ${spans.length} span(s), none of them an LLM call: expected a span whose gen_ai.operation.name is chat, generate_content or text_completion.`
            : `This OpenTelemetry trace has ${calls.length} LLM call span(s), but none recorded its messages: expected gen_ai.input.messages (or gen_ai.prompt.{i}.* or gen_ai.user.message events). Message content is opt-in: turn on content capture in the instrumentation (OTEL_INSTRUMENTATION_GENAI_CAPTURE_MESSAGE_CONTENT=true in OpenTelemetry's Python instrumentations).`,
      },
    };
  const skipped = calls.length - read.length;
  const out = read.map(({ s, ctx }, i) =>
    typeof ctx === 'string'
      ? unreadableEntry(s, ctx, i, read.length)
      : entryOf(s, ctx, i, read.length, tools),
  );
  if (skipped > 0)
    for (const e of out)
      e.note.notes = [
        ...(e.note.notes ?? []),
        `${skipped} more LLM call span(s) recorded no messages and are not listed.`,
      ];
  return { ok: true, value: out };
}
