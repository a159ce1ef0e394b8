import type {
  Block,
  FormatId,
  MediaBlock,
  Message,
  ParseError,
  Result,
  ToolDef,
  Transcript,
  UsageRecord,
} from '../types.ts';
import { parseJsonBounded, type SourceDoc } from './json.ts';

/** Small, total helpers for reading untrusted JSON. None of them throws. */

/** A JSON object as parsed: keys to unknown values. */
export type Json = Record<string, unknown>;

/** True for a plain JSON object (not null, not an array). */
export function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The value if it is a string, else undefined. */
export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** The value if it is an array, else undefined. */
export function arr(v: unknown): unknown[] | undefined {
  return Array.isArray(v) ? v : undefined;
}

/** Bytes of a base64 payload (3 bytes per 4 chars), for media that must not be tokenised. */
export function base64Bytes(data: unknown): number | undefined {
  return typeof data === 'string' ? Math.floor((data.length * 3) / 4) : undefined;
}

/**
 * A stand-in payload that `base64Bytes` reads as `bytes` bytes (writers: a media block keeps its
 * size, not its payload). ceil(bytes × 4 / 3) characters, since the reading floors.
 */
export function base64StandIn(bytes: number): string {
  return 'A'.repeat(Math.ceil((bytes * 4) / 3));
}

/** A media block's type for a writer: its own, else PNG for an image and PDF for a document. */
export function mediaTypeOf(b: MediaBlock): string {
  return b.mediaType ?? (b.type === 'image' ? 'image/png' : 'application/pdf');
}

/** True for an image or a document block. */
export function isMedia(b: Block): b is MediaBlock {
  return b.type === 'image' || b.type === 'document';
}

/** A data URL with a stand-in payload of `bytes` bytes, in the block's media type (writers). */
export function dataUrlStandIn(b: MediaBlock, bytes: number): string {
  return `data:${mediaTypeOf(b)};base64,${base64StandIn(bytes)}`;
}

/**
 * What a `data:` URL says of its payload: its media type (when it names one) and its size in
 * bytes (`base64Bytes` of what follows the comma); null for any other string.
 */
export function readDataUrl(url: string): { mediaType?: string; bytes?: number } | null {
  if (!url.startsWith('data:')) return null;
  const comma = url.indexOf(',');
  const mediaType = url.slice(5, comma < 0 ? undefined : comma).split(';')[0];
  const out: { mediaType?: string; bytes?: number } = {};
  if (mediaType) out.mediaType = mediaType;
  if (comma >= 0) out.bytes = base64Bytes(url.slice(comma + 1));
  return out;
}

/**
 * A tool definition with its optional fields set only when given. Fields are assigned, not
 * spread: in Node 20's V8 an object literal with conditional spreads costs a fresh hidden class
 * per call, and every check of a request reads its tools (issue 17).
 */
export function toolDef(name: string, description: unknown, schema: unknown): ToolDef {
  const def: ToolDef = { name };
  if (typeof description === 'string' && description) def.description = description;
  if (schema !== undefined) def.schema = schema;
  return def;
}

/** Replace the accessor `text` of a `jsonText` block by a plain data property. */
function settleText(block: object, text: string): void {
  Object.defineProperty(block, 'text', {
    value: text,
    writable: true,
    enumerable: true,
    configurable: true,
  });
}

/**
 * A `jsonText` block. The value waits in a private field (no property: spreads, keys, structured
 * clone and JSON never see it), and `text` is an own enumerable accessor until first read. One
 * accessor pair serves every block, so V8 gives them one hidden class; a class is used because a
 * private field is the cheapest place to keep the value (a symbol property would cost a second
 * `defineProperty` per block: as much as the stringify it saves on a short result).
 */
class JsonTextBlock {
  readonly type = 'text';
  readonly #value: unknown;
  constructor(value: unknown) {
    this.#value = value;
    Object.defineProperty(this, 'text', JsonTextBlock.TEXT);
  }
  static readonly TEXT: PropertyDescriptor = {
    get(this: JsonTextBlock): string {
      const text = JSON.stringify(this.#value) ?? '';
      settleText(this, text);
      return text;
    },
    set(this: JsonTextBlock, text: string): void {
      settleText(this, text);
    },
    enumerable: true,
    configurable: true,
  };
}

/**
 * A text block whose text is `JSON.stringify(value)` (a tool's structured response shown as
 * text), computed when `text` is first read: `check` never reads a result's text, and the
 * stringify cost as much as the rest of a Gemini body's check (issue 17). `text` is an own
 * enumerable property, so spreads, structured clone (postMessage) and JSON read it like a field.
 * @param value a parsed JSON value (not mutated afterwards, as every parsed input)
 */
export function jsonText(value: unknown): Block {
  return new JsonTextBlock(value) as unknown as Block;
}

/**
 * Parse a JSON-encoded string argument (OpenAI `arguments`); keep the string if it is not JSON or
 * nests deeper than `MAX_JSON_DEPTH` (then it stays text, as the provider received it).
 */
export function parseArguments(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  try {
    return parseJsonBounded(v);
  } catch {
    return v;
  }
}

/**
 * The inverse of `parseArguments` for writing a call back: a string input as it is, anything
 * else as JSON (`{}` for none), the way OpenAI-style `arguments` carry it.
 */
export function argumentsText(input: unknown): string {
  return typeof input === 'string' ? input : JSON.stringify(input ?? {});
}

/**
 * Replace `listKey` in the top-level source object with a new list, keeping every other field
 * (model, tools, system, …). A bare-array source stays a bare array.
 */
export function withList(raw: unknown, listKey: string, list: unknown[]): unknown {
  if (raw !== null && typeof raw === 'object' && !Array.isArray(raw))
    return { ...(raw as Record<string, unknown>), [listKey]: list };
  return list;
}

/**
 * A FormatParser's `parse` for a format that is one JSON document: the value goes to `parse`,
 * JSON Lines get a shape error.
 * @param parse reads the parsed JSON value
 * @param notJsonLines the error's text for JSON Lines input, naming the format
 */
export function jsonDocumentOnly(
  parse: (v: unknown) => Result<Transcript>,
  notJsonLines: string,
): (doc: SourceDoc) => Result<Transcript> {
  return (doc) => (doc.kind === 'json' ? parse(doc.value) : shapeError(notJsonLines));
}

/** A parse failure for JSON of the wrong shape, with what was expected. */
export function shapeError(message: string): { ok: false; error: ParseError } {
  return { ok: false, error: { kind: 'shape', message } };
}

/**
 * The message for a list item that is not a JSON object (a string, number, null, a nested array):
 * a user message holding one `other` block labelled "not an object", so bad input is shown
 * instead of throwing.
 * @param raw the item as pasted
 * @param path its location in the source (`messages.3`)
 * @param index our index (Message.index)
 * @param rawIndex the item's position in the source list; `index` when absent
 */
export function notAnObject(raw: unknown, path: string, index: number, rawIndex = index): Message {
  return {
    index,
    rawIndex,
    path,
    role: 'user',
    blocks: [{ type: 'other', label: 'not an object', raw }],
    raw,
  };
}

/**
 * The record position (in `Transcript.raw`) a message came from: `rawLine`, set by the log's
 * parser and kept by faults and copies; a message built without it (tests) uses its raw index.
 */
export function lineOf(m: Message): number {
  return m.rawLine ?? m.rawIndex;
}

/** A transcript of messages with no request around them: no system prompt, no tools. */
function requestless(
  format: FormatId,
  raw: unknown,
  listKey: string,
  messages: Message[],
  settings: Transcript['settings'],
  usage: UsageRecord[],
  warnings: string[],
): { ok: true; value: Transcript } {
  return {
    ok: true,
    value: { format, system: [], tools: null, settings, usage, messages, warnings, listKey, raw },
  };
}

/**
 * A bare array of messages (the list without its request body) read as a transcript: no system
 * prompt, no tools, no settings, no usage, no warnings.
 * @param format the format the list was read as
 * @param raw the array as pasted (kept as `raw`, written back as a bare array)
 * @param listKey the list's name in a full body (`messages`, `contents`, `input`)
 * @param messages the normalised messages
 */
export function bareListTranscript(
  format: FormatId,
  raw: unknown[],
  listKey: string,
  messages: Message[],
): { ok: true; value: Transcript } {
  return requestless(format, raw, listKey, messages, {}, [], []);
}

/**
 * A legacy OpenAI `function_call` (`{name, arguments}`, before `tool_calls`) as a `tool_use`
 * block without an id: it carries none, and its result (role `function`) names it instead.
 * Source of the shape: openai-node's deprecated `function_call` (docs/formats.md#openai-chat).
 */
export function legacyFunctionCall(fc: Json): Block {
  return {
    type: 'tool_use',
    id: null,
    name: str(fc.name) ?? '',
    input: parseArguments(fc.arguments),
    legacy: true,
  };
}

/**
 * The request picker's label for one request of a file holding several: `#<n>` (1-based), then
 * each part that is not undefined, joined with ` · ` (`#2 · Weather · 5 nodes`).
 * @param i the request's position, 0-based
 * @param parts a title, a model, a count, … in display order
 */
export function requestLabel(i: number, ...parts: (string | undefined)[]): string {
  let label = `#${i + 1}`;
  for (const p of parts) if (p !== undefined) label += ` · ${p}`;
  return label;
}

/**
 * A response object (the provider's answer: one message, no request around it) read as a
 * transcript, with a warning that says so: no system prompt, no tools.
 * @param format the format the response was read as
 * @param raw the response as pasted
 * @param listKey where the message sits in it (`content`, `choices`, `output`, `candidates`)
 * @param messages the normalised message(s), their paths already set
 * @param model the model the response names
 * @param usage the response's usage records
 * @param speaker how the warning names the message's author (Gemini: `model`)
 */
export function responseTranscript(
  format: FormatId,
  raw: unknown,
  listKey: string,
  messages: Message[],
  model: string | undefined,
  usage: UsageRecord[],
  speaker: 'assistant' | 'model' = 'assistant',
): { ok: true; value: Transcript } {
  return requestless(format, raw, listKey, messages, model ? { model } : {}, usage, [
    `This is a response object: one ${speaker} message, no request around it.`,
  ]);
}
