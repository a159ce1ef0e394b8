/**
 * Raw server-sent-event dumps of a streamed RESPONSE (`event:` / `data:` lines): Anthropic
 * (`message_start` …), OpenAI Chat (`chat.completion.chunk`), Responses (`response.*`) and Gemini
 * (chunks with `candidates`). Each stream is rebuilt into the provider's non-streamed response
 * object (a `Message`, a `chat.completion`, a `response`, a `GenerateContentResponse`), with the
 * partial JSON arguments of its tool calls accumulated, so the existing parsers read it.
 * Split on blank lines, parse the `data:` lines, rebuild (docs/formats.md#sse); event shapes
 * from the providers' streaming docs.
 */
import { parseJsonBounded } from '../json.ts';
import type { FormatId } from '../../types.ts';
import { isObject, str, type Json } from '../util.ts';
import type { ContainerEntry, ContainerRead } from './types.ts';

/** The provider family of a stream. */
export type StreamFamily = 'anthropic' | 'openai-chat' | 'openai-responses' | 'gemini';

/** One rebuilt response, with notes about what could not be rebuilt. */
export interface RebuiltStream {
  family: StreamFamily;
  /** The response object, in the provider's own non-streamed shape. */
  value: Json;
  notes: string[];
}

const FAMILY_LABEL: Record<StreamFamily, string> = {
  anthropic: 'Anthropic Messages',
  'openai-chat': 'OpenAI Chat',
  'openai-responses': 'OpenAI Responses',
  gemini: 'Gemini',
};

/** The format whose parser reads a family's rebuilt response. */
export const FAMILY_FORMAT: Record<StreamFamily, FormatId> = {
  anthropic: 'anthropic-messages',
  'openai-chat': 'openai-chat',
  'openai-responses': 'openai-responses',
  gemini: 'gemini',
};

const ANTHROPIC_EVENTS = new Set([
  'message_start',
  'content_block_start',
  'content_block_delta',
  'content_block_stop',
  'message_delta',
  'message_stop',
  'ping',
]);

/**
 * True when the text looks like an SSE dump: its first non-blank line is an `event:`, `data:`,
 * `id:` or `retry:` field or a `:` comment, and some line starts with `data:`.
 */
export function looksLikeSse(text: string): boolean {
  const head = text.slice(0, 4096);
  const first = /^\s*(\S[^\n]*)/.exec(head)?.[1] ?? '';
  if (!/^(event|data|id|retry):|^:/.test(first)) return false;
  return /^data:/m.test(head);
}

/** The payloads of the `data:` fields, in order, with the event name they came under. */
export interface SseEvent {
  event?: string;
  data: unknown;
  /** 1-based line of the (first) `data:` line. */
  line: number;
}

/**
 * Split an SSE text into events and parse each `data:` payload as JSON.
 * Multi-line data (several `data:` lines before a blank line) is joined with `\n`; a `data:`
 * line that is JSON by itself is taken alone (dumps often lose the blank lines).
 * @returns the events whose data is JSON, and the line numbers of data that is not (`[DONE]`
 *   is skipped silently). Never throws.
 */
export function splitSse(text: string): { events: SseEvent[]; badLines: number[] } {
  const events: SseEvent[] = [];
  const badLines: number[] = [];
  let event: string | undefined;
  let buf: string[] = [];
  let bufLine = 0;
  const flush = () => {
    if (buf.length > 0) {
      const joined = buf.join('\n');
      try {
        events.push({ ...(event ? { event } : {}), data: parseJsonBounded(joined), line: bufLine });
      } catch {
        badLines.push(bufLine);
      }
    }
    buf = [];
    event = undefined;
  };
  const lines = text.split('\n');
  for (let i = 0; i < lines.length; i++) {
    const line = (lines[i] as string).replace(/\r$/, '');
    if (line.trim() === '') {
      flush();
      continue;
    }
    if (line.startsWith(':')) continue;
    const colon = line.indexOf(':');
    const field = colon < 0 ? line : line.slice(0, colon);
    let value = colon < 0 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    if (field === 'event') {
      if (buf.length > 0) flush();
      event = value.trim();
    } else if (field === 'data') {
      if (value.trim() === '[DONE]') continue;
      if (buf.length === 0) {
        const t = value.trimStart();
        if (t.startsWith('{') || t.startsWith('[')) {
          try {
            events.push({
              ...(event ? { event } : {}),
              data: parseJsonBounded(value),
              line: i + 1,
            });
            continue;
          } catch {
            // Not whole: wait for more data lines.
          }
        }
        bufLine = i + 1;
      }
      buf.push(value);
    }
    // id:, retry: and unknown fields carry nothing we need.
  }
  flush();
  return { events, badLines };
}

/** The family an event's payload belongs to, or undefined. */
function familyOf(ev: SseEvent): StreamFamily | undefined {
  const d = ev.data;
  if (!isObject(d)) return undefined;
  const type = str(d.type) ?? ev.event;
  if (type && (ANTHROPIC_EVENTS.has(type) || (type === 'error' && isObject(d.error))))
    return 'anthropic';
  if (d.object === 'chat.completion.chunk') return 'openai-chat';
  if (Array.isArray(d.choices) && d.choices.some((c) => isObject(c) && isObject(c.delta)))
    return 'openai-chat';
  if (type?.startsWith('response.')) return 'openai-responses';
  if (Array.isArray(d.candidates) || isObject(d.usageMetadata)) return 'gemini';
  return undefined;
}

/** Parse accumulated tool arguments; an incomplete text is kept as a string, with a note. */
function finishJson(text: string, what: string, notes: string[]): unknown {
  if (text.trim() === '') return {};
  try {
    return parseJsonBounded(text);
  } catch {
    notes.push(
      `The arguments of ${what} are not complete JSON (the stream was cut off?): kept as text.`,
    );
    return text;
  }
}

const TOOL_BLOCKS = new Set(['tool_use', 'server_tool_use', 'mcp_tool_use']);

function anthropic(events: Json[]): RebuiltStream[] {
  const out: RebuiltStream[] = [];
  let msg: Json | null = null;
  let blocks: Json[] = [];
  let partial = new Map<number, string>();
  let notes: string[] = [];
  let stopped = false;
  const finishBlock = (i: number) => {
    const p = partial.get(i);
    const b = blocks[i];
    if (p === undefined || !b) return;
    partial.delete(i);
    if (p !== '')
      b.input = finishJson(p, `${str(b.name) ?? 'a tool'} (${str(b.id) ?? '?'})`, notes);
  };
  const close = () => {
    if (!msg) return;
    for (const i of [...partial.keys()]) finishBlock(i);
    if (!stopped) notes.push('The stream has no `message_stop`: the response may be cut off.');
    out.push({
      family: 'anthropic',
      value: { ...msg, content: blocks.filter((b) => b !== undefined) },
      notes,
    });
    msg = null;
  };
  for (const d of events) {
    const type = str(d.type);
    if (type === 'message_start') {
      close();
      const m = isObject(d.message) ? d.message : {};
      msg = { type: 'message', role: 'assistant', ...m };
      blocks = [];
      partial = new Map();
      notes = [];
      stopped = false;
      continue;
    }
    if (type === 'error') {
      const e = isObject(d.error) ? d.error : {};
      const line = `The stream ended with an error: ${str(e.type) ?? 'error'}: ${str(e.message) ?? ''}`;
      if (msg) notes.push(line);
      else
        out.push({
          family: 'anthropic',
          value: { type: 'message', role: 'assistant', content: [] },
          notes: [line],
        });
      continue;
    }
    if (!msg) continue;
    const index = typeof d.index === 'number' ? d.index : -1;
    if (type === 'content_block_start' && index >= 0 && isObject(d.content_block)) {
      const b: Json = { ...d.content_block };
      blocks[index] = b;
      if (TOOL_BLOCKS.has(str(b.type) ?? '')) partial.set(index, '');
    } else if (type === 'content_block_delta' && index >= 0 && isObject(d.delta)) {
      const b = blocks[index];
      const delta = d.delta;
      if (!b) continue;
      switch (delta.type) {
        case 'text_delta':
          b.text = (str(b.text) ?? '') + (str(delta.text) ?? '');
          break;
        case 'input_json_delta':
          partial.set(index, (partial.get(index) ?? '') + (str(delta.partial_json) ?? ''));
          break;
        case 'thinking_delta':
          b.thinking = (str(b.thinking) ?? '') + (str(delta.thinking) ?? '');
          break;
        case 'signature_delta':
          b.signature = (str(b.signature) ?? '') + (str(delta.signature) ?? '');
          break;
        case 'citations_delta':
          b.citations = [...(Array.isArray(b.citations) ? b.citations : []), delta.citation];
          break;
        default:
          notes.push(`A delta of unknown type \`${String(delta.type)}\` was skipped.`);
      }
    } else if (type === 'content_block_stop' && index >= 0) {
      finishBlock(index);
    } else if (type === 'message_delta') {
      if (isObject(d.delta)) Object.assign(msg, d.delta);
      if (isObject(d.usage)) msg.usage = { ...(isObject(msg.usage) ? msg.usage : {}), ...d.usage };
    } else if (type === 'message_stop') {
      stopped = true;
    }
  }
  close();
  return out;
}

interface ChatChoice {
  role: string;
  content: string | null;
  reasoning: string | null;
  refusal: string | null;
  calls: Map<number, { id?: string; type: string; name: string; args: string }>;
  legacy: { name: string; args: string } | null;
  finish: unknown;
}

function openaiChat(events: Json[]): RebuiltStream[] {
  const out: RebuiltStream[] = [];
  let head: Json | null = null;
  let choices = new Map<number, ChatChoice>();
  let usage: unknown;
  const close = () => {
    if (!head) return;
    const notes: string[] = [];
    const list = [...choices.entries()]
      .sort((a, b) => a[0] - b[0])
      .map(([index, c]) => {
        const message: Json = { role: c.role, content: c.content };
        if (c.reasoning !== null) message.reasoning_content = c.reasoning;
        if (c.refusal !== null) message.refusal = c.refusal;
        if (c.calls.size > 0)
          message.tool_calls = [...c.calls.entries()]
            .sort((a, b) => a[0] - b[0])
            .map(([, t]) => {
              finishJson(t.args, `${t.name || 'a tool'} (${t.id ?? '?'})`, notes);
              return {
                ...(t.id !== undefined ? { id: t.id } : {}),
                type: t.type,
                function: { name: t.name, arguments: t.args },
              };
            });
        if (c.legacy) message.function_call = { name: c.legacy.name, arguments: c.legacy.args };
        return { index, message, finish_reason: c.finish ?? null };
      });
    if (list.every((c) => c.finish_reason === null))
      notes.push('No chunk carries a `finish_reason`: the response may be cut off.');
    out.push({
      family: 'openai-chat',
      value: {
        id: head.id,
        object: 'chat.completion',
        created: head.created,
        model: head.model,
        choices: list,
        ...(usage !== undefined && usage !== null ? { usage } : {}),
      },
      notes,
    });
    head = null;
  };
  for (const d of events) {
    if (head && d.id !== undefined && d.id !== head.id) close();
    if (!head) {
      head = d;
      choices = new Map();
      usage = undefined;
    }
    if (d.usage !== undefined && d.usage !== null) usage = d.usage;
    for (const [pos, raw] of (Array.isArray(d.choices) ? d.choices : []).entries()) {
      if (!isObject(raw)) continue;
      const index = typeof raw.index === 'number' ? raw.index : pos;
      let c = choices.get(index);
      if (!c) {
        c = {
          role: 'assistant',
          content: null,
          reasoning: null,
          refusal: null,
          calls: new Map(),
          legacy: null,
          finish: null,
        };
        choices.set(index, c);
      }
      if (raw.finish_reason !== undefined && raw.finish_reason !== null)
        c.finish = raw.finish_reason;
      const delta = isObject(raw.delta) ? raw.delta : {};
      if (typeof delta.role === 'string') c.role = delta.role;
      if (typeof delta.content === 'string') c.content = (c.content ?? '') + delta.content;
      const reasoning = str(delta.reasoning_content) ?? str(delta.reasoning);
      if (reasoning !== undefined) c.reasoning = (c.reasoning ?? '') + reasoning;
      if (typeof delta.refusal === 'string') c.refusal = (c.refusal ?? '') + delta.refusal;
      if (isObject(delta.function_call)) {
        c.legacy ??= { name: '', args: '' };
        c.legacy.name += str(delta.function_call.name) ?? '';
        c.legacy.args += str(delta.function_call.arguments) ?? '';
      }
      for (const [tpos, tc] of (Array.isArray(delta.tool_calls)
        ? delta.tool_calls
        : []
      ).entries()) {
        if (!isObject(tc)) continue;
        const ti = typeof tc.index === 'number' ? tc.index : tpos;
        let t = c.calls.get(ti);
        if (!t) {
          t = { type: 'function', name: '', args: '' };
          c.calls.set(ti, t);
        }
        if (typeof tc.id === 'string' && tc.id !== '') t.id = tc.id;
        if (typeof tc.type === 'string') t.type = tc.type;
        const fn = isObject(tc.function) ? tc.function : {};
        const name = str(fn.name);
        // The name comes once; a provider that repeats it in every chunk must not double it.
        if (name !== undefined && name !== t.name) t.name += name;
        t.args += str(fn.arguments) ?? '';
      }
    }
  }
  close();
  return out;
}

function responses(events: Json[]): RebuiltStream[] {
  const out: RebuiltStream[] = [];
  let base: Json | null = null;
  let items: Json[] = [];
  let final: Json | null = null;
  let notes: string[] = [];
  const close = () => {
    if (!base && !final) return;
    if (final && Array.isArray(final.output)) {
      out.push({ family: 'openai-responses', value: { object: 'response', ...final }, notes });
    } else {
      notes.push(
        'The stream has no `response.completed`: the output was rebuilt from its deltas and may be cut off.',
      );
      for (const it of items)
        if (it && it.type === 'function_call' && typeof it.arguments === 'string')
          finishJson(
            it.arguments,
            `${str(it.name) ?? 'a tool'} (${str(it.call_id) ?? '?'})`,
            notes,
          );
      out.push({
        family: 'openai-responses',
        value: {
          ...(base ?? {}),
          object: 'response',
          output: items.filter((x) => x !== undefined),
        },
        notes,
      });
    }
    base = null;
    final = null;
    items = [];
    notes = [];
  };
  for (const d of events) {
    const type = str(d.type) ?? '';
    const oi = typeof d.output_index === 'number' ? d.output_index : -1;
    if (type === 'response.created') {
      close();
      base = isObject(d.response) ? { ...d.response } : {};
      continue;
    }
    base ??= {};
    if (
      (type === 'response.completed' ||
        type === 'response.incomplete' ||
        type === 'response.failed') &&
      isObject(d.response)
    ) {
      final = d.response;
      const err = isObject(d.response.error) ? d.response.error : null;
      if (err)
        notes.push(`The response failed: ${str(err.code) ?? ''} ${str(err.message) ?? ''}`.trim());
      if (type === 'response.incomplete') notes.push('The response is marked incomplete.');
      continue;
    }
    if (type === 'error') {
      notes.push(
        `The stream ended with an error: ${str(d.code) ?? ''} ${str(d.message) ?? ''}`.trim(),
      );
      continue;
    }
    if (
      (type === 'response.output_item.added' || type === 'response.output_item.done') &&
      oi >= 0
    ) {
      if (isObject(d.item)) items[oi] = { ...d.item };
      continue;
    }
    const item = oi >= 0 ? items[oi] : undefined;
    if (!item) continue;
    if (type === 'response.function_call_arguments.delta')
      item.arguments = (str(item.arguments) ?? '') + (str(d.delta) ?? '');
    else if (type === 'response.function_call_arguments.done' && typeof d.arguments === 'string')
      item.arguments = d.arguments;
    else if (type === 'response.output_text.delta' || type === 'response.output_text.done') {
      const ci = typeof d.content_index === 'number' ? d.content_index : 0;
      const content: Json[] = Array.isArray(item.content) ? [...(item.content as Json[])] : [];
      const part: Json = isObject(content[ci])
        ? { ...content[ci] }
        : { type: 'output_text', text: '' };
      part.text =
        type === 'response.output_text.done'
          ? (str(d.text) ?? '')
          : (str(part.text) ?? '') + (str(d.delta) ?? '');
      content[ci] = part;
      item.content = content;
    }
  }
  close();
  return out;
}

function gemini(events: Json[]): RebuiltStream[] {
  const out: RebuiltStream[] = [];
  let parts: Json[] = [];
  let last: Json | null = null;
  let finish: unknown;
  let id: unknown;
  const close = () => {
    if (!last) return;
    const notes =
      finish === undefined
        ? ['No chunk carries a `finishReason`: the response may be cut off.']
        : [];
    out.push({
      family: 'gemini',
      value: {
        candidates: [
          {
            content: { role: 'model', parts },
            ...(finish !== undefined ? { finishReason: finish } : {}),
          },
        ],
        ...(last.usageMetadata !== undefined ? { usageMetadata: last.usageMetadata } : {}),
        ...(last.modelVersion !== undefined ? { modelVersion: last.modelVersion } : {}),
        ...(id !== undefined ? { responseId: id } : {}),
      },
      notes,
    });
    parts = [];
    last = null;
    finish = undefined;
  };
  for (const d of events) {
    if (last && d.responseId !== undefined && id !== undefined && d.responseId !== id) close();
    id = d.responseId ?? id;
    last = { ...(last ?? {}), ...d };
    const cand = Array.isArray(d.candidates) && isObject(d.candidates[0]) ? d.candidates[0] : null;
    if (!cand) continue;
    if (cand.finishReason !== undefined) finish = cand.finishReason;
    const content = isObject(cand.content) ? cand.content : {};
    for (const p of Array.isArray(content.parts) ? content.parts : []) {
      if (!isObject(p)) continue;
      const prev = parts[parts.length - 1];
      const textOnly = (x: Json) =>
        typeof x.text === 'string' && Object.keys(x).every((k) => k === 'text' || k === 'thought');
      // Text arrives in pieces: join consecutive text parts of the same kind (thought or not).
      if (prev && textOnly(prev) && typeof p.text === 'string' && !!prev.thought === !!p.thought) {
        prev.text = (prev.text as string) + p.text;
        if (p.thoughtSignature !== undefined) prev.thoughtSignature = p.thoughtSignature;
      } else parts.push({ ...p });
    }
  }
  close();
  return out;
}

/**
 * Rebuild the responses of a list of stream payloads (SSE `data:` objects or the chunks of a
 * Gemini `streamGenerateContent` JSON array).
 * @param events the parsed events, in order
 * @returns one rebuilt response per stream found (a dump may hold several), or `[]` when the
 *   first recognised payload belongs to no known family. Never throws.
 */
export function rebuildStreams(events: SseEvent[]): RebuiltStream[] {
  let family: StreamFamily | undefined;
  for (const ev of events) {
    family = familyOf(ev);
    if (family) break;
  }
  if (!family) return [];
  const payloads = events
    .filter((e) => isObject(e.data) && familyOf(e) === family)
    .map((e) => {
      const d = e.data as Json;
      // Anthropic dumps from some proxies drop `type` from the data and keep only `event:`.
      return d.type === undefined && e.event ? { ...d, type: e.event } : d;
    });
  switch (family) {
    case 'anthropic':
      return anthropic(payloads);
    case 'openai-chat':
      return openaiChat(payloads);
    case 'openai-responses':
      return responses(payloads);
    case 'gemini':
      return gemini(payloads);
  }
}

/**
 * Read a raw SSE dump of a streamed response.
 * @param text the whole paste
 * @returns null when the text is not an SSE dump; else one entry per rebuilt response
 *   ("SSE stream 1 of 2 (Anthropic Messages), line 1"), or a ParseError when no event is a known
 *   LLM stream. Data lines that are not JSON become a note. Never throws.
 */
export function readSse(text: string): ContainerRead {
  if (!looksLikeSse(text)) return null;
  const { events, badLines } = splitSse(text);
  const streams = rebuildStreams(events);
  if (streams.length === 0)
    return {
      ok: false,
      error: {
        kind: 'shape',
        message: `This looks like a server-sent-event dump (${events.length} JSON data lines), but no event is part of a known LLM response stream (Anthropic message_start…, OpenAI chat.completion.chunk, Responses response.*, Gemini candidates).`,
      },
    };
  const bad =
    badLines.length > 0
      ? [
          `${badLines.length} data line(s) are not JSON and were skipped: ${badLines.slice(0, 20).join(', ')}.`,
        ]
      : [];
  const entries: ContainerEntry[] = streams.map((s, i) => {
    const n = streams.length > 1 ? `SSE stream ${i + 1} of ${streams.length}` : 'SSE stream';
    return {
      label: `${n} (${FAMILY_LABEL[s.family]})`,
      value: s.value,
      note: {
        kind: 'sse',
        formatHint: FAMILY_FORMAT[s.family],
        where: `${n}: a streamed ${FAMILY_LABEL[s.family]} response rebuilt from its events`,
        notes: [...s.notes, ...bad],
      },
    };
  });
  return { ok: true, value: entries };
}
