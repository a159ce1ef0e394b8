/**
 * Spans as trace exports carry them, read into one shape: OTLP/JSON (`resourceSpans[].scopeSpans[]
 * .spans[]`, attribute values wrapped as `{stringValue | intValue | …}`, optionally with
 * `resourceLogs` holding the log-based GenAI events), a collector file export (one OTLP request
 * per JSON Lines line), Jaeger's JSON (`data[].spans[]` with `tags` and `logs`), and flat span
 * arrays whose `attributes` is a plain map (Logfire, Phoenix, Langfuse-style exports). Source:
 * docs/formats.md#otel; the OTLP/JSON encoding of `AnyValue` (opentelemetry-proto).
 */
import { ownRecord } from '../../own.ts';
import { arr, isObject, str, type Json } from '../util.ts';

/** One span event (or a log record linked to the span): its name and its attributes/body. */
export interface SpanEvent {
  name: string;
  attrs: Json;
  /** A log record's body (deprecated GenAI events put `{content, tool_calls, …}` there). */
  body?: unknown;
}

/** A span, whatever export it came from. Attribute values are unwrapped to plain JSON. */
export interface Span {
  name: string;
  spanId?: string;
  parentId?: string;
  traceId?: string;
  /** Start time in milliseconds since the epoch, when the export gives it. */
  startMs?: number;
  /** True when the span's status is an error. */
  error?: string;
  attrs: Json;
  events: SpanEvent[];
  /** Where the span sits in the file (`resourceSpans.0.scopeSpans.1.spans.4`). */
  path: string;
  /** True for the stand-in span of a pasted `gen_ai.input.messages` list. */
  pasted?: true;
}

/** An OTLP `AnyValue` unwrapped: strings, numbers (intValue is a string), lists, maps. */
export function anyValue(v: unknown): unknown {
  if (!isObject(v)) return v;
  if ('stringValue' in v) return v.stringValue;
  if ('intValue' in v) {
    const n = Number(v.intValue);
    return Number.isFinite(n) ? n : v.intValue;
  }
  if ('doubleValue' in v) return Number(v.doubleValue);
  if ('boolValue' in v) return v.boolValue;
  if ('bytesValue' in v) return v.bytesValue;
  if (isObject(v.arrayValue)) return (arr(v.arrayValue.values) ?? []).map(anyValue);
  if (isObject(v.kvlistValue)) return keyValues(v.kvlistValue.values);
  return v;
}

/** `[{key, value}]` (OTLP) or `[{key, type, value}]` (Jaeger tags) as a plain map. */
function keyValues(list: unknown): Json {
  // No prototype: an attribute named `__proto__` is an attribute like any other.
  const out: Json = ownRecord();
  for (const kv of arr(list) ?? []) {
    if (!isObject(kv) || typeof kv.key !== 'string') continue;
    out[kv.key] = 'type' in kv && !isObject(kv.value) ? kv.value : anyValue(kv.value);
  }
  return out;
}

/** Attributes given as an OTLP list, a Jaeger tag list, a plain map, or a map as JSON text. */
function attrsOf(v: unknown): Json {
  if (Array.isArray(v)) return keyValues(v);
  if (typeof v === 'string' && v.trimStart().startsWith('{')) {
    // Logfire's `records` rows hold `attributes` as JSON when exported through its query API.
    try {
      const parsed = JSON.parse(v) as unknown;
      return isObject(parsed) ? parsed : {};
    } catch {
      return {};
    }
  }
  return isObject(v) ? v : {};
}

/** Nanoseconds (a decimal string or number) → milliseconds, without losing the digits. */
function nanosToMs(v: unknown): number | undefined {
  const s = typeof v === 'number' ? String(Math.trunc(v)) : str(v);
  if (s === undefined || !/^\d+$/.test(s)) return undefined;
  return s.length <= 6 ? 0 : Number(s.slice(0, -6));
}

/** A time as exports write it: nanos (OTLP), micros (Jaeger `startTime`), or an ISO string. */
function timeMs(span: Json): number | undefined {
  const nanos = nanosToMs(span.startTimeUnixNano);
  if (nanos !== undefined) return nanos;
  if (typeof span.startTime === 'number') return span.startTime / 1000; // Jaeger: microseconds
  for (const k of ['startTime', 'start_time', 'start_timestamp', 'timestamp']) {
    const s = str(span[k]);
    if (s === undefined) continue;
    const t = Date.parse(/[zZ]|[+-]\d\d:?\d\d$/.test(s) ? s : `${s}Z`);
    if (!Number.isNaN(t)) return t;
  }
  return undefined;
}

/** The span's error, from an OTLP status, Jaeger's `error` tag or an export's status column. */
function errorOf(span: Json, attrs: Json): string | undefined {
  const st = isObject(span.status) ? span.status : {};
  const code = st.code ?? span.status_code ?? span.statusCode ?? span.otel_status_code;
  const failed =
    code === 2 || code === 'STATUS_CODE_ERROR' || code === 'ERROR' || attrs.error === true;
  if (!failed) return undefined;
  return (
    str(st.message) ??
    str(span.status_message) ??
    str(span.otel_status_message) ??
    str(attrs['otel.status_description']) ??
    str(attrs['error.type']) ??
    'error'
  );
}

function eventsOf(span: Json): SpanEvent[] {
  const out: SpanEvent[] = [];
  for (const e of arr(span.events) ?? []) {
    if (!isObject(e)) continue;
    const attrs = attrsOf(e.attributes);
    out.push({ name: str(e.name) ?? str(attrs['event.name']) ?? '', attrs });
  }
  for (const l of arr(span.logs) ?? []) {
    // Jaeger: span events become logs whose `event` field is the name.
    if (!isObject(l)) continue;
    const attrs = keyValues(l.fields);
    out.push({ name: str(attrs.event) ?? str(attrs['event.name']) ?? '', attrs });
  }
  return out;
}

/** Read one span object of any supported export. */
function readSpan(s: Json, path: string): Span {
  const tagAttrs = Array.isArray(s.tags) ? keyValues(s.tags) : {};
  const meta = isObject(s.metadata) && isObject(s.metadata.attributes) ? s.metadata.attributes : {};
  const attrs: Json = { ...meta, ...tagAttrs, ...attrsOf(s.attributes) };
  const startMs = timeMs(s);
  const refs = arr(s.references) ?? [];
  const parentRef = refs.find((r) => isObject(r) && r.refType === 'CHILD_OF');
  const span: Span = {
    name: str(s.name) ?? str(s.operationName) ?? str(s.span_name) ?? str(s.spanName) ?? '',
    attrs,
    events: eventsOf(s),
    path,
  };
  const spanId = str(s.spanId) ?? str(s.spanID) ?? str(s.span_id);
  const parentId =
    str(s.parentSpanId) ??
    str(s.parent_span_id) ??
    str(s.parentId) ??
    (isObject(parentRef) ? str(parentRef.spanID) : undefined);
  const traceId = str(s.traceId) ?? str(s.traceID) ?? str(s.trace_id);
  const error = errorOf(s, attrs);
  if (spanId) span.spanId = spanId;
  if (parentId) span.parentId = parentId;
  if (traceId) span.traceId = traceId;
  if (startMs !== undefined) span.startMs = startMs;
  if (error !== undefined) span.error = error;
  return span;
}

/** True for an OTLP/JSON export request: `resourceSpans` (or `resourceLogs`) is a list. */
export function isOtlp(v: unknown): v is Json {
  return isObject(v) && (Array.isArray(v.resourceSpans) || Array.isArray(v.resourceLogs));
}

/** Log records of an OTLP logs export, attached to their spans as events (by `spanId`). */
function attachLogs(doc: Json, bySpan: Map<string, Span>): void {
  for (const rl of arr(doc.resourceLogs) ?? []) {
    if (!isObject(rl)) continue;
    for (const sl of arr(rl.scopeLogs) ?? []) {
      if (!isObject(sl)) continue;
      for (const r of arr(sl.logRecords) ?? []) {
        if (!isObject(r)) continue;
        const span = bySpan.get(str(r.spanId) ?? '');
        if (!span) continue;
        const attrs = attrsOf(r.attributes);
        const name = str(r.eventName) ?? str(attrs['event.name']) ?? '';
        span.events.push({ name, attrs, body: anyValue(r.body) });
      }
    }
  }
}

/**
 * The spans of OTLP/JSON export requests.
 * @param docs one export request, or several (a collector file export: one per line)
 * @param linePaths each document's location prefix (`line 3: `), same length as `docs`
 * @returns every span, in file order, with log-based events attached to their span
 */
export function otlpSpans(docs: Json[], linePaths: string[]): Span[] {
  const spans: Span[] = [];
  const bySpan = new Map<string, Span>();
  docs.forEach((doc, d) => {
    (arr(doc.resourceSpans) ?? []).forEach((rs, r) => {
      if (!isObject(rs)) return;
      const scopes = arr(rs.scopeSpans) ?? arr(rs.instrumentationLibrarySpans) ?? [];
      scopes.forEach((ss, si) => {
        if (!isObject(ss)) return;
        (arr(ss.spans) ?? []).forEach((s, i) => {
          if (!isObject(s)) return;
          const span = readSpan(
            s,
            `${linePaths[d] ?? ''}resourceSpans.${r}.scopeSpans.${si}.spans.${i}`,
          );
          spans.push(span);
          if (span.spanId) bySpan.set(span.spanId, span);
        });
      });
    });
  });
  for (const doc of docs) attachLogs(doc, bySpan);
  return spans;
}

/** The span list of a flat export: a bare array, `{spans}`, `{data:[{spans}]}` (Jaeger), `{data}`. */
function flatList(v: unknown): { list: unknown[]; prefix: (i: number) => string } | null {
  if (Array.isArray(v)) return { list: v, prefix: (i) => String(i) };
  if (!isObject(v)) return null;
  if (Array.isArray(v.spans)) return { list: v.spans, prefix: (i) => `spans.${i}` };
  if (Array.isArray(v.rows)) return { list: v.rows, prefix: (i) => `rows.${i}` };
  const data = arr(v.data);
  if (data && data.every((t) => isObject(t) && Array.isArray(t.spans))) {
    const list: unknown[] = [];
    const where: string[] = [];
    data.forEach((t, ti) =>
      ((t as Json).spans as unknown[]).forEach((s, i) => {
        list.push(s);
        where.push(`data.${ti}.spans.${i}`);
      }),
    );
    return { list, prefix: (i) => where[i] ?? String(i) };
  }
  if (data) return { list: data, prefix: (i) => `data.${i}` };
  return null;
}

/**
 * True for one span row of a JSON Lines export (Logfire NDJSON, one span per line): a named
 * object with a span id and attributes. Cheap; for the first line of a JSON Lines file.
 */
export function isSpanRow(v: unknown): boolean {
  if (!isObject(v)) return false;
  const named = ['name', 'operationName', 'span_name', 'spanName'].some(
    (k) => typeof v[k] === 'string',
  );
  const id = ['spanId', 'spanID', 'span_id'].some((k) => typeof v[k] === 'string');
  return named && id && (v.attributes !== undefined || Array.isArray(v.tags));
}

/** True when an object looks like a span with GenAI attributes (cheap: a few keys). */
function isGenAiSpan(s: unknown): boolean {
  if (!isObject(s)) return false;
  const named = ['name', 'operationName', 'span_name', 'spanName'].some(
    (k) => typeof s[k] === 'string',
  );
  if (!named) return false;
  const attrs = Array.isArray(s.tags)
    ? keyValues(s.tags)
    : isObject(s.metadata) && isObject(s.metadata.attributes)
      ? { ...s.metadata.attributes, ...attrsOf(s.attributes) }
      : attrsOf(s.attributes);
  return Object.keys(attrs).some((k) => k.startsWith('gen_ai.'));
}

/**
 * The spans of a flat export, or null when the value is not one.
 * @param v a parsed JSON value
 * @returns the spans in file order when the value is a list of span objects (every item named,
 *   at least one with a `gen_ai.*` attribute); else null. Never throws.
 */
export function flatSpans(v: unknown): Span[] | null {
  const found = flatList(v);
  if (!found || found.list.length === 0) return null;
  const { list, prefix } = found;
  if (!list.every(isObject)) return null;
  if (!list.some(isGenAiSpan)) return null;
  return list.map((s, i) => readSpan(s as Json, prefix(i)));
}

/** Part types only the GenAI semconv message format uses (Gemini parts and AI SDK parts differ). */
const SEMCONV_ONLY_PARTS = new Set(['tool_call', 'tool_call_response', 'server_tool_call']);

/**
 * True for a bare list of GenAI semconv messages, as copied from a span's
 * `gen_ai.input.messages` attribute: `[{role, parts: [{type, …}]}]`, every part typed, text parts
 * holding `content` (not `text`, as AI SDK UI messages do), and no message `id`.
 */
export function isSemconvMessageList(v: unknown): boolean {
  if (!Array.isArray(v) || v.length === 0) return false;
  let semconv = false;
  for (const m of v) {
    if (!isObject(m) || typeof m.role !== 'string' || !Array.isArray(m.parts) || 'id' in m)
      return false;
    for (const p of m.parts) {
      if (!isObject(p) || typeof p.type !== 'string') return false;
      if (p.type === 'text' && typeof p.content !== 'string') return false;
      if (SEMCONV_ONLY_PARTS.has(p.type) || p.type === 'text') semconv = true;
    }
  }
  return semconv;
}

/** A stand-in span for a pasted `gen_ai.input.messages` list (no provider, model or time). */
export function pastedMessagesSpan(list: unknown[]): Span {
  return {
    name: 'pasted gen_ai.input.messages',
    attrs: { 'gen_ai.operation.name': 'chat', 'gen_ai.input.messages': list },
    events: [],
    path: '',
    pasted: true,
  };
}
