/**
 * Raw server-sent-event dumps of a streamed RESPONSE (`event:` / `data:` lines): Anthropic
 * (`message_start` …), OpenAI Chat (`chat.completion.chunk`), Responses (`response.*`) and Gemini
 * (chunks with `candidates`). Each stream is rebuilt into the provider's non-streamed response
 * object (a `Message`, a `chat.completion`, a `response`, a `GenerateContentResponse`), with the
 * partial JSON arguments of its tool calls accumulated, so the existing parsers read it.
 * Split on blank lines, parse the `data:` lines, rebuild (docs/formats.md#sse); event shapes
 * from the providers' streaming docs.
 */
import type { FormatId } from '../../types.ts';
import { parseJsonBounded } from '../json.ts';
import { isObject, str, type Json } from '../util.ts';
import type { ContainerEntry, ContainerRead } from './types.ts';
import { rebuildAnthropic } from './sseAnthropic.ts';
import { rebuildGemini } from './sseGemini.ts';
import { rebuildOpenaiChat } from './sseOpenaiChat.ts';
import type { RebuiltStream, StreamFamily } from './sseRebuilt.ts';
import { rebuildResponses } from './sseResponses.ts';

export type { RebuiltStream, StreamFamily } from './sseRebuilt.ts';

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
      return rebuildAnthropic(payloads);
    case 'openai-chat':
      return rebuildOpenaiChat(payloads);
    case 'openai-responses':
      return rebuildResponses(payloads);
    case 'gemini':
      return rebuildGemini(payloads);
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
