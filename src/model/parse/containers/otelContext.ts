/**
 * The context of one LLM call span, as the GenAI semantic conventions record it, read into
 * semconv messages (`{role, parts:[{type, …}]}`), whichever of the recorded shapes the span uses:
 * - `gen_ai.input.messages` / `gen_ai.system_instructions` / `gen_ai.output.messages` attributes
 *   (JSON strings on spans) or the same keys on a `gen_ai.client.inference.operation.details`
 *   event (structured);
 * - the deprecated events `gen_ai.{system,user,assistant,tool}.message` and `gen_ai.choice`
 *   (body `{content, tool_calls, id}`), on the span or as log records linked to it;
 * - OpenLLMetry's flattened `gen_ai.prompt.{i}.*` / `gen_ai.completion.{i}.*`.
 * Source: the GenAI semantic conventions (`gen-ai-input-messages.json`; docs/formats.md#otel).
 */
import { arr, isObject, parseArguments, str, type Json } from '../util.ts';
import type { Span } from './otelSpans.ts';
import { nameTable } from '../../own.ts';
import { JsonTooDeepError, parseJsonBounded } from '../json.ts';
import { MAX_JSON_DEPTH } from '../../limits.ts';

/** One semconv message: a role and its parts, with where it was read from. */
export interface SemMessage {
  role: string;
  parts: Json[];
  path: string;
}

/** A call's context: system parts, input messages, output messages, tool definitions. */
export interface CallContext {
  system: Json[];
  input: SemMessage[];
  output: SemMessage[];
  /** `[{name, description?, parameters?}]`, or null when the span does not record them. */
  tools: Json[] | null;
  /** Which recorded shape the context came from, for the transcript's notes. */
  shape: string;
}

/**
 * A JSON string attribute parsed (spans carry structured values as JSON text); text that does not
 * parse, or nests deeper than `MAX_JSON_DEPTH`, stays text (message content may be any text).
 */
export function jsonAttr(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  const t = v.trimStart();
  if (!t.startsWith('[') && !t.startsWith('{')) return v;
  try {
    return parseJsonBounded(v);
  } catch {
    return v;
  }
}

/**
 * An attribute or field whose value the conventions define as JSON (`gen_ai.input.messages`, …)
 * that does not read as JSON: cut by an attribute length limit, nested too deep, or malformed.
 * The request the span recorded cannot be rebuilt from it, so it gets no provider verdict
 * (issue 37: a cut list read as no message was judged Anthropic's A14).
 */
export class UnreadableAttribute extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UnreadableAttribute';
  }
}

/** Where JSON text ends when it ends inside a string or an open array or object, else null. */
function openEnd(text: string): string | null {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 92) i++;
      else if (c === 34) inString = false;
    } else if (c === 34) inString = true;
    else if (c === 123 || c === 91) depth++;
    else if (c === 125 || c === 93) depth--;
  }
  if (inString) return 'inside a string';
  return depth > 0
    ? `with ${depth} list${depth === 1 ? '' : 's'} or object${depth === 1 ? '' : 's'} still open`
    : null;
}

const count = (n: number): string => n.toLocaleString('en-US');

/**
 * A value the conventions define as JSON, parsed. Text that starts as JSON and does not parse is
 * named (what, where, its length: "cut at N characters?"), never read as an empty list.
 * @param what the attribute or field (`gen_ai.input.messages`, `events.2 (gen_ai.choice) message`)
 * @throws UnreadableAttribute for JSON text cut short, nested deeper than `MAX_JSON_DEPTH`, or
 *   malformed
 */
function jsonField(v: unknown, what: string): unknown {
  if (typeof v !== 'string') return v;
  const t = v.trimStart();
  if (!t.startsWith('[') && !t.startsWith('{')) return v;
  try {
    return parseJsonBounded(v);
  } catch (e) {
    const n = count(v.length);
    const open = e instanceof JsonTooDeepError ? null : openEnd(v);
    const why =
      e instanceof JsonTooDeepError
        ? `it nests deeper than ${MAX_JSON_DEPTH} levels of arrays and objects (at character ${count(e.offset + 1)} of ${n})`
        : open !== null
          ? `it ends after ${n} characters ${open} (cut at ${n} characters? OpenTelemetry SDKs and backends cut attribute values longer than their limit, such as OTEL_ATTRIBUTE_VALUE_LENGTH_LIMIT: raise it and record the call again)`
          : `it is not valid JSON (${e instanceof Error ? e.message.slice(0, 120) : 'unreadable'})`;
    throw new UnreadableAttribute(
      `${what} does not read as JSON: ${why}. The request this span recorded cannot be rebuilt from it, so no provider verdict is given.`,
    );
  }
}

/** Native content blocks (Anthropic, OpenAI) recorded as message content, as semconv parts. */
function nativePart(b: Json): Json {
  switch (b.type) {
    case 'text':
    case 'input_text':
    case 'output_text':
      return { type: 'text', content: str(b.text) ?? '' };
    case 'tool_use':
      return { type: 'tool_call', id: b.id, name: b.name, arguments: b.input };
    case 'tool_result':
      return {
        type: 'tool_call_response',
        id: b.tool_use_id,
        response: b.content,
        ...(b.is_error === true ? { is_error: true } : {}),
      };
    case 'thinking':
      return { type: 'reasoning', content: str(b.thinking) ?? '' };
    case 'image': {
      const src = isObject(b.source) ? b.source : {};
      if (src.type === 'base64')
        return { type: 'blob', modality: 'image', mime_type: src.media_type, content: src.data };
      return { type: 'uri', modality: 'image', uri: src.url };
    }
    case 'image_url': {
      const url = isObject(b.image_url) ? str(b.image_url.url) : str(b.image_url);
      const m = url !== undefined ? /^data:([^;,]+);base64,(.*)$/s.exec(url) : null;
      if (m) return { type: 'blob', modality: 'image', mime_type: m[1], content: m[2] };
      return { type: 'uri', modality: 'image', uri: url };
    }
    default:
      return b; // already a semconv part, or a type we keep as it is
  }
}

/** Message content (a string, a JSON string of blocks, or blocks) as semconv parts. */
function contentParts(content: unknown): Json[] {
  const v = jsonAttr(content);
  if (typeof v === 'string') return v === '' ? [] : [{ type: 'text', content: v }];
  if (Array.isArray(v))
    return v.map((b) =>
      isObject(b) ? nativePart(b) : { type: 'text', content: typeof b === 'string' ? b : '' },
    );
  if (isObject(v)) return [nativePart(v)];
  return [];
}

/** OpenAI-style `tool_calls` (`{id, function:{name, arguments}}` or flat) as semconv parts. */
function toolCallParts(calls: unknown, what: string): Json[] {
  const out: Json[] = [];
  for (const c of arr(jsonField(calls, what)) ?? []) {
    if (!isObject(c)) continue;
    const fn = isObject(c.function) ? c.function : c;
    out.push({
      type: 'tool_call',
      id: c.id,
      name: str(fn.name) ?? '',
      arguments: parseArguments(fn.arguments),
    });
  }
  return out;
}

/** An OpenAI-shaped message (legacy events, OpenLLMetry) as a semconv message. */
function chatMessage(m: Json, role: string, path: string): SemMessage {
  const toolId = str(m.tool_call_id) ?? (role === 'tool' ? str(m.id) : undefined);
  const parts =
    role === 'tool' && toolId !== undefined
      ? [{ type: 'tool_call_response', id: toolId, response: jsonAttr(m.content) }]
      : [
          ...contentParts(m.content),
          ...toolCallParts(m.tool_calls, `${path || 'a message'}'s tool_calls`),
        ];
  return { role, parts, path };
}

/** Semconv messages as recorded (an array of `{role, parts}`), with their paths. */
function semMessages(v: unknown, key: string, where: string): SemMessage[] {
  const list = arr(jsonField(v, `The ${key} attribute${where}`)) ?? [];
  return list.map((m, i) => {
    const o = isObject(m) ? m : {};
    const parts = Array.isArray(o.parts)
      ? o.parts.filter(isObject)
      : o.content !== undefined || o.tool_calls !== undefined
        ? chatMessage(o, str(o.role) ?? 'user', `${key}.${i}`).parts
        : [];
    return { role: str(o.role) ?? 'user', parts, path: `${key}.${i}` };
  });
}

/** System instructions: a parts array, a JSON string of one, or plain text. */
function systemParts(v: unknown, where: string): Json[] {
  const p = jsonField(v, `The gen_ai.system_instructions attribute${where}`);
  if (typeof p === 'string') return [{ type: 'text', content: p }];
  return (arr(p) ?? []).filter(isObject);
}

/** Tool definitions: `gen_ai.tool.definitions`, or OpenLLMetry's `llm.request.functions.{i}.*`. */
function toolsOf(attrs: Json): Json[] | null {
  const defs = arr(
    jsonField(attrs['gen_ai.tool.definitions'], 'The gen_ai.tool.definitions attribute'),
  );
  if (defs) return defs.filter(isObject).map((d) => (isObject(d.function) ? d.function : d));
  const out: Json[] = [];
  for (let i = 0; typeof attrs[`llm.request.functions.${i}.name`] === 'string'; i++)
    out.push({
      name: attrs[`llm.request.functions.${i}.name`],
      description: attrs[`llm.request.functions.${i}.description`],
      parameters: jsonAttr(attrs[`llm.request.functions.${i}.parameters`]),
    });
  return out.length > 0 ? out : null;
}

/** The current attributes, on the span or on an operation-details event. */
function fromAttributes(
  attrs: Json,
  where: string,
  onEvent = '',
): Omit<CallContext, 'tools'> | null {
  const hasInput = attrs['gen_ai.input.messages'] !== undefined;
  const hasSystem = attrs['gen_ai.system_instructions'] !== undefined;
  if (!hasInput && !hasSystem) return null;
  return {
    system: systemParts(attrs['gen_ai.system_instructions'], onEvent),
    input: semMessages(attrs['gen_ai.input.messages'], 'gen_ai.input.messages', onEvent),
    output: semMessages(attrs['gen_ai.output.messages'], 'gen_ai.output.messages', onEvent),
    shape: where,
  };
}

const LEGACY_ROLE: ReadonlyMap<string, string> = nameTable({
  'gen_ai.system.message': 'system',
  'gen_ai.user.message': 'user',
  'gen_ai.assistant.message': 'assistant',
  'gen_ai.tool.message': 'tool',
});

/** The deprecated per-message events (`gen_ai.user.message`, …, `gen_ai.choice`). */
function fromLegacyEvents(span: Span): Omit<CallContext, 'tools'> | null {
  const input: SemMessage[] = [];
  const output: SemMessage[] = [];
  const system: Json[] = [];
  span.events.forEach((e, i) => {
    const body = isObject(e.body)
      ? e.body
      : isObject(jsonAttr(e.body))
        ? jsonAttr(e.body)
        : e.attrs;
    const b = body as Json;
    const path = `events.${i} (${e.name})`;
    const role = LEGACY_ROLE.get(e.name);
    if (role === 'system') system.push(...contentParts(b.content));
    else if (role !== undefined) input.push(chatMessage(b, str(b.role) ?? role, path));
    else if (e.name === 'gen_ai.choice') {
      const message = jsonField(b.message, `The message of ${path}`);
      const m = isObject(message) ? message : b;
      output.push(chatMessage(m, 'assistant', path));
    }
  });
  if (input.length === 0 && system.length === 0) return null;
  return { system, input, output, shape: 'the deprecated gen_ai.*.message events' };
}

/** OpenLLMetry's flattened `gen_ai.prompt.{i}.*` (input) or `gen_ai.completion.{i}.*` (output). */
function flattened(attrs: Json, key: 'prompt' | 'completion'): SemMessage[] {
  const out: SemMessage[] = [];
  for (let i = 0; ; i++) {
    const p = `gen_ai.${key}.${i}.`;
    if (attrs[`${p}role`] === undefined && attrs[`${p}content`] === undefined) break;
    const role = str(attrs[`${p}role`]) ?? (key === 'prompt' ? 'user' : 'assistant');
    const calls: Json[] = [];
    for (let j = 0; attrs[`${p}tool_calls.${j}.name`] !== undefined; j++)
      calls.push({
        id: attrs[`${p}tool_calls.${j}.id`],
        name: attrs[`${p}tool_calls.${j}.name`],
        arguments: attrs[`${p}tool_calls.${j}.arguments`],
      });
    const m: Json = { content: attrs[`${p}content`], tool_calls: calls };
    if (attrs[`${p}tool_call_id`] !== undefined) m.tool_call_id = attrs[`${p}tool_call_id`];
    out.push(chatMessage(m, role, `gen_ai.${key}.${i}`));
  }
  return out;
}

function fromFlattened(attrs: Json): Omit<CallContext, 'tools'> | null {
  const all = flattened(attrs, 'prompt');
  if (all.length === 0) return null;
  const system = all.filter((m) => m.role === 'system').flatMap((m) => m.parts);
  const input = all.filter((m) => m.role !== 'system');
  return {
    system,
    input,
    output: flattened(attrs, 'completion'),
    shape: "OpenLLMetry's gen_ai.prompt.{i}.* attributes",
  };
}

/**
 * The context of an LLM call span.
 * @param span the span, its events and linked log records attached
 * @returns the system parts, input and output messages and tool definitions, or null when the
 *   span records no content (capturing message content is opt-in in every instrumentation)
 * @throws UnreadableAttribute when a value the conventions define as JSON does not read as JSON
 */
export function callContext(span: Span): CallContext | null {
  const details = span.events.find((e) => e.name === 'gen_ai.client.inference.operation.details');
  const ctx =
    fromAttributes(span.attrs, 'the gen_ai.input.messages attribute') ??
    (details
      ? fromAttributes(
          { ...details.attrs, ...(isObject(details.body) ? details.body : {}) },
          'the gen_ai.client.inference.operation.details event',
          ' of the gen_ai.client.inference.operation.details event',
        )
      : null) ??
    fromLegacyEvents(span) ??
    fromFlattened(span.attrs);
  if (!ctx) return null;
  // The system prompt may also sit in the input list (OpenAI-style instrumentations).
  return { ...ctx, tools: toolsOf(span.attrs) };
}
