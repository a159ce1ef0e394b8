/**
 * Our own OpenTelemetry GenAI traces, written from the semantic conventions (docs/formats.md#otel) and
 * the shape of public OTLP/JSON, Jaeger and OpenLLMetry exports: an on-call agent looks into
 * 502s on checkout-api. A classifier call to OpenAI, then three calls to Anthropic; between the
 * second and the third, two parallel tools run (`execute_tool` spans) and the agent loop loses
 * the result of the one that timed out, so the third call's input has a tool_call without its
 * tool_call_response and Anthropic answers 400.
 */
import type { Transcript } from '../types.ts';
import { parseTranscript, type ParsedTranscript } from '../parse/index.ts';
import type { Json } from '../parse/util.ts';

/** A span as the fixtures describe it: plain attributes, times in seconds after 14:05:00 UTC. */
export interface FixtureSpan {
  name: string;
  spanId: string;
  parentId?: string;
  start: number;
  end: number;
  attrs: Json;
  error?: string;
  events?: { name: string; attrs: Json }[];
}

export const TRACE_ID = '5b8efff798038103d269b633813fc60c';
/** 2025-11-28T14:05:00Z in milliseconds. */
export const T0_MS = Date.UTC(2025, 10, 28, 14, 5, 0);

const user = {
  role: 'user',
  parts: [{ type: 'text', content: 'checkout-api 502s since 14:05 UTC. What changed?' }],
};
const call1 = {
  role: 'assistant',
  parts: [
    { type: 'text', content: 'Checking the error logs first.' },
    {
      type: 'tool_call',
      id: 'toolu_01Logs',
      name: 'search_logs',
      arguments: { service: 'checkout-api', query: 'status:502' },
    },
  ],
};
const result1 = {
  role: 'tool',
  parts: [
    {
      type: 'tool_call_response',
      id: 'toolu_01Logs',
      response: 'upstream connect error: payments-db:5432 connection refused (x412)',
    },
  ],
};
const call2 = {
  role: 'assistant',
  parts: [
    {
      type: 'reasoning',
      content: 'The DB refused connections; check deploys and the pooler in parallel.',
    },
    {
      type: 'tool_call',
      id: 'toolu_02Deploys',
      name: 'list_deploys',
      arguments: { service: 'payments-db' },
    },
    {
      type: 'tool_call',
      id: 'toolu_03Pool',
      name: 'pool_status',
      arguments: { pool: 'pgbouncer' },
    },
  ],
};
const result2 = {
  role: 'tool',
  parts: [
    {
      type: 'tool_call_response',
      id: 'toolu_02Deploys',
      response: { deploys: [{ at: '14:04:51', change: 'pgbouncer max_client_conn 400 -> 40' }] },
    },
  ],
};
const SYSTEM = [{ type: 'text', content: 'You are the on-call assistant for the payments team.' }];

const anthropic = (model: string): Json => ({
  'gen_ai.operation.name': 'chat',
  'gen_ai.provider.name': 'anthropic',
  'gen_ai.request.model': model,
  'gen_ai.request.max_tokens': 1024,
  'gen_ai.system_instructions': JSON.stringify(SYSTEM),
});

const m = 'claude-opus-4-7';

/** The trace's spans (data): one agent span, four LLM calls, three tool executions. */
const ONCALL: FixtureSpan[] = [
  {
    name: 'invoke_agent oncall',
    spanId: 'a000000000000001',
    start: 0,
    end: 30,
    attrs: { 'gen_ai.operation.name': 'invoke_agent', 'gen_ai.agent.name': 'oncall' },
  },
  {
    name: 'chat gpt-4.1-mini',
    spanId: 'c000000000000001',
    parentId: 'a000000000000001',
    start: 0.2,
    end: 0.9,
    attrs: {
      'gen_ai.operation.name': 'chat',
      'gen_ai.provider.name': 'openai',
      'gen_ai.request.model': 'gpt-4.1-mini',
      'gen_ai.input.messages': JSON.stringify([
        {
          role: 'system',
          parts: [{ type: 'text', content: 'Classify the page: incident or noise.' }],
        },
        user,
      ]),
      'gen_ai.output.messages': JSON.stringify([
        {
          role: 'assistant',
          parts: [{ type: 'text', content: 'incident' }],
          finish_reason: 'stop',
        },
      ]),
      'gen_ai.usage.input_tokens': 31,
      'gen_ai.usage.output_tokens': 2,
    },
  },
  {
    name: `chat ${m}`,
    spanId: 'c000000000000002',
    parentId: 'a000000000000001',
    start: 1,
    end: 3,
    attrs: {
      ...anthropic(m),
      'gen_ai.input.messages': JSON.stringify([user]),
      'gen_ai.output.messages': JSON.stringify([{ ...call1, finish_reason: 'tool_use' }]),
      'gen_ai.usage.input_tokens': 2052,
      'gen_ai.usage.cache_read.input_tokens': 1840,
      'gen_ai.usage.output_tokens': 96,
    },
  },
  {
    name: 'execute_tool search_logs',
    spanId: 't000000000000001',
    parentId: 'a000000000000001',
    start: 3.1,
    end: 4,
    attrs: {
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'search_logs',
      'gen_ai.tool.call.id': 'toolu_01Logs',
    },
  },
  {
    name: `chat ${m}`,
    spanId: 'c000000000000003',
    parentId: 'a000000000000001',
    start: 4.1,
    end: 7,
    attrs: {
      ...anthropic(m),
      'gen_ai.input.messages': JSON.stringify([user, call1, result1]),
      'gen_ai.output.messages': JSON.stringify([{ ...call2, finish_reason: 'tool_use' }]),
      'gen_ai.usage.input_tokens': 2260,
      'gen_ai.usage.cache_read.input_tokens': 2052,
      'gen_ai.usage.output_tokens': 141,
    },
  },
  {
    name: 'execute_tool list_deploys',
    spanId: 't000000000000002',
    parentId: 'a000000000000001',
    start: 7.1,
    end: 7.6,
    attrs: {
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'list_deploys',
      'gen_ai.tool.call.id': 'toolu_02Deploys',
    },
  },
  {
    name: 'execute_tool pool_status',
    spanId: 't000000000000003',
    parentId: 'a000000000000001',
    start: 7.1,
    end: 17.1,
    error: 'tool timed out after 10 s',
    attrs: {
      'gen_ai.operation.name': 'execute_tool',
      'gen_ai.tool.name': 'pool_status',
      'gen_ai.tool.call.id': 'toolu_03Pool',
      'error.type': 'TimeoutError',
    },
  },
  {
    name: `chat ${m}`,
    spanId: 'c000000000000004',
    parentId: 'a000000000000001',
    start: 17.2,
    end: 17.5,
    error:
      'messages.3: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_03Pool',
    attrs: {
      ...anthropic(m),
      'gen_ai.input.messages': JSON.stringify([user, call1, result1, call2, result2]),
      'error.type': '400',
    },
  },
];

/** A fresh copy of the on-call trace's spans (tests may change them). */
export function oncallSpans(): FixtureSpan[] {
  return JSON.parse(JSON.stringify(ONCALL)) as FixtureSpan[];
}

/** Seconds after T0 as OTLP nanoseconds (a decimal string). */
function nanos(s: number): string {
  return `${BigInt(T0_MS) * 1_000_000n + BigInt(Math.round(s * 1e9))}`;
}

/** A plain value as an OTLP `AnyValue` (`intValue` is a string, as the JSON encoding writes it). */
export function toAnyValue(v: unknown): Json {
  if (typeof v === 'string') return { stringValue: v };
  if (typeof v === 'boolean') return { boolValue: v };
  if (typeof v === 'number')
    return Number.isInteger(v) ? { intValue: String(v) } : { doubleValue: v };
  if (Array.isArray(v)) return { arrayValue: { values: v.map(toAnyValue) } };
  if (v !== null && typeof v === 'object')
    return {
      kvlistValue: { values: Object.entries(v).map(([key, x]) => ({ key, value: toAnyValue(x) })) },
    };
  return {};
}

const kv = (attrs: Json) =>
  Object.entries(attrs).map(([key, value]) => ({ key, value: toAnyValue(value) }));

/** The spans as an OTLP/JSON export request (what a collector's file exporter writes). */
export function toOtlp(spans: FixtureSpan[]): Json {
  return {
    resourceSpans: [
      {
        resource: { attributes: kv({ 'service.name': 'oncall-agent' }) },
        scopeSpans: [
          {
            scope: { name: 'opentelemetry.instrumentation.genai' },
            spans: spans.map((s) => ({
              traceId: TRACE_ID,
              spanId: s.spanId,
              ...(s.parentId ? { parentSpanId: s.parentId } : {}),
              name: s.name,
              kind: 3,
              startTimeUnixNano: nanos(s.start),
              endTimeUnixNano: nanos(s.end),
              attributes: kv(s.attrs),
              ...(s.events
                ? {
                    events: s.events.map((e) => ({
                      name: e.name,
                      timeUnixNano: nanos(s.start),
                      attributes: kv(e.attrs),
                    })),
                  }
                : {}),
              status: s.error !== undefined ? { code: 2, message: s.error } : { code: 0 },
            })),
          },
        ],
      },
    ],
  };
}

/** The spans as Jaeger's JSON download (`data[].spans[]`, `tags`, microseconds). */
export function toJaeger(spans: FixtureSpan[]): Json {
  const tag = (key: string, value: unknown) => ({
    key,
    type: typeof value === 'number' ? 'int64' : typeof value === 'boolean' ? 'bool' : 'string',
    value,
  });
  return {
    data: [
      {
        traceID: TRACE_ID,
        spans: spans.map((s) => ({
          traceID: TRACE_ID,
          spanID: s.spanId,
          operationName: s.name,
          references: s.parentId
            ? [{ refType: 'CHILD_OF', traceID: TRACE_ID, spanID: s.parentId }]
            : [],
          startTime: T0_MS * 1000 + Math.round(s.start * 1e6),
          duration: Math.round((s.end - s.start) * 1e6),
          tags: [
            ...Object.entries(s.attrs).map(([k, v]) => tag(k, v)),
            ...(s.error !== undefined
              ? [tag('error', true), tag('otel.status_description', s.error)]
              : []),
          ],
          logs: (s.events ?? []).map((e) => ({
            timestamp: T0_MS * 1000,
            fields: [tag('event', e.name), ...Object.entries(e.attrs).map(([k, v]) => tag(k, v))],
          })),
          processID: 'p1',
        })),
        processes: { p1: { serviceName: 'oncall-agent', tags: [] } },
      },
    ],
  };
}

/** The spans as a flat array with a plain attribute map and ISO times (Logfire-style rows). */
export function toFlat(spans: FixtureSpan[]): Json[] {
  return spans.map((s) => ({
    trace_id: TRACE_ID,
    span_id: s.spanId,
    ...(s.parentId ? { parent_span_id: s.parentId } : {}),
    span_name: s.name,
    start_timestamp: new Date(T0_MS + s.start * 1000).toISOString(),
    attributes: s.attrs,
    ...(s.error !== undefined ? { status_code: 'ERROR', status_message: s.error } : {}),
  }));
}

/** Parse a trace (a value or its text) and fail loudly when it does not parse. */
export function openTrace(doc: unknown, requestIndex?: number, name?: string): ParsedTranscript {
  const r = parseTranscript(typeof doc === 'string' ? doc : JSON.stringify(doc), {
    ...(requestIndex !== undefined ? { requestIndex } : {}),
    ...(name !== undefined ? { name } : {}),
  });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

/** One line per message: role and its blocks (`tool_use toolu_1`, `tool_result toolu_1`, …). */
export function dump(t: Transcript): string[] {
  return t.messages.map(
    (m) =>
      `${m.role}: ${m.blocks
        .map((b) =>
          b.type === 'tool_use'
            ? `tool_use ${b.id ?? '-'} ${b.name}`
            : b.type === 'tool_result'
              ? `tool_result ${b.toolUseId ?? '-'}`
              : b.type === 'other'
                ? `other ${b.label}`
                : b.type,
        )
        .join(', ')}`,
  );
}

/** A trace of one chat span with these attributes (and events). */
export function oneSpan(attrs: Json, events?: FixtureSpan['events']): Json {
  return toOtlp([
    {
      name: 'chat',
      spanId: 'c1',
      start: 0,
      end: 1,
      attrs: { 'gen_ai.operation.name': 'chat', ...attrs },
      ...(events ? { events } : {}),
    },
  ]);
}

/** A user question, two parallel calls, and the result of the first only. */
export const lostResult = [
  { role: 'user', parts: [{ type: 'text', content: 'Is payments-db up?' }] },
  {
    role: 'assistant',
    parts: [
      { type: 'tool_call', id: 'c_a', name: 'ping', arguments: '{"host":"payments-db"}' },
      { type: 'tool_call', id: 'c_b', name: 'pool_status', arguments: { pool: 'pgbouncer' } },
    ],
  },
  { role: 'tool', parts: [{ type: 'tool_call_response', id: 'c_a', response: 'pong 3 ms' }] },
];
