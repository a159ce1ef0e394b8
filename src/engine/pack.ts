/**
 * The compact form of an inspection sent from the worker to the page (issue 7). A structured
 * clone of a whole Analysis spends most of its time on each message's source JSON (`raw`: a
 * Claude Code line carries tool output twice), and deserialising it is one long task on the
 * page. So the worker sends:
 * - messages in batches (`MESSAGE_BATCH` per postMessage, each a short task on the page), with
 *   `raw` as JSON text, or for a streamed JSON Lines file as byte spans of the file's bytes
 *   (transferred with the answer: nothing stringified or copied twice); the page installs a lazy
 *   `raw` that parses it on first read;
 * - then everything else (pairs, grouping, validation: index-based, small) without messages;
 * - the transcript's own `raw` (the whole source value, only read by export) lazily re-parsed
 *   from the text on first read (for streamed files not enumerable, so spreads do not trigger it).
 * `packMessages`/`unpackMessages` and `stripTranscript`/`joinTranscript` are inverses: a
 * round trip gives a deep-equal Inspection (tested in pack.test.ts).
 */
import type { Analysis } from '../model/analyze.ts';
import { parseTranscript, type ParsedTranscript } from '../model/parse/index.ts';
import type { Exchange } from '../model/exchanges.ts';
import type { ToolPair } from '../model/pairing.ts';
import type { Block, FormatId, Message, Transcript, UsageRecord } from '../model/types.ts';
import type { Inspection, PackedMessage } from './protocol.ts';

/** Messages per postMessage: ≈ 10–40 ms of deserialising on the page for Claude Code lines. */
export const MESSAGE_BATCH = 1500;

/** Characters of source JSON per postMessage (≈ 10–25 ms of deserialising on the page). */
export const MESSAGE_BATCH_CHARS = 1_500_000;

/** The byte span [start, end) of each JSON Lines record's value in the file's bytes, by value. */
export type RawSpans = ReadonlyMap<unknown, [number, number]>;

/** What a message sent without its blocks counts against a batch's `maxChars` (a few fields). */
const HEAD_CHARS = 200;

/**
 * Messages [from, to) with `raw` as JSON text, stopping after the message that brings the JSON
 * text (or its source's bytes, sent as spans) to `maxChars` characters (at least one message).
 * Cost: one JSON.stringify per message (worker). With `spans` (a streamed JSON Lines file whose
 * bytes the page gets), a `raw` that is a record's value, or a list of records' values, goes as
 * their byte spans instead: nothing to stringify, copy or keep twice; the page parses the span
 * when `raw` is read. With `blocksOf` too (the format rebuilds blocks from raw), such a message
 * goes without its blocks, the bulk of its structured clone in the worker and on the page.
 */
export function packMessages(
  messages: readonly Message[],
  from: number,
  to: number,
  maxChars = Infinity,
  spans: RawSpans | null = null,
  blocksOf: ((raw: unknown) => Block[]) | undefined = undefined,
): PackedMessage[] {
  const out: PackedMessage[] = [];
  let chars = 0;
  for (let i = from; i < Math.min(to, messages.length) && chars < maxChars; i++) {
    const { raw, blocks, ...head } = messages[i] as Message;
    const packed: PackedMessage = head;
    const at = spans ? spansOf(raw, spans) : null;
    if (at) {
      packed.rawSpans = at.spans;
      if (at.many) packed.rawMany = true;
      // The blocks stay behind (the page rebuilds them); else the source's length bounds the
      // batch (the message's own text is as long to clone).
      if (blocksOf) {
        packed.blocksFromRaw = true;
        chars += HEAD_CHARS;
      } else
        for (let k = 0; k < at.spans.length; k += 2)
          chars += (at.spans[k + 1] as number) - (at.spans[k] as number);
    } else if (raw !== undefined) {
      packed.rawJson = JSON.stringify(raw);
      chars += packed.rawJson.length;
    }
    if (!packed.blocksFromRaw) packed.blocks = blocks;
    out.push(packed);
  }
  return out;
}

/** `raw` as the flat [start, end, …] spans of the records it is (many: a list of records). */
function spansOf(raw: unknown, spans: RawSpans): { spans: number[]; many: boolean } | null {
  const one = spans.get(raw);
  if (one) return { spans: [one[0], one[1]], many: false };
  if (!Array.isArray(raw) || raw.length === 0) return null;
  const flat: number[] = [];
  for (const v of raw) {
    const s = spans.get(v);
    if (!s) return null;
    flat.push(s[0], s[1]);
  }
  return { spans: flat, many: true };
}

/** The file's bytes, once they arrive (with the answer), for raws sent as spans. */
export interface SourceBytes {
  bytes: Uint8Array | null;
}

/**
 * Turn packed messages back into messages whose `raw` parses its JSON text (or its spans of
 * `source.bytes`, which must have arrived by then) when first read; a message sent without its
 * blocks rebuilds them from its raw with `blocksOf` when they are first read.
 */
export function unpackMessages(
  packed: PackedMessage[],
  source: SourceBytes = { bytes: null },
  blocksOf: ((raw: unknown) => Block[]) | undefined = undefined,
): Message[] {
  for (const p of packed) {
    const json = p.rawJson;
    const spans = p.rawSpans;
    const many = p.rawMany === true;
    const rebuild = p.blocksFromRaw === true;
    delete p.rawJson;
    delete p.rawSpans;
    delete p.rawMany;
    delete p.blocksFromRaw;
    const get = spans
      ? () => spanValues(source.bytes, spans, many)
      : () => (json === undefined ? undefined : JSON.parse(json));
    const m = p as Message;
    lazyValue(m, 'raw', get);
    if (rebuild) lazyValue(m, 'blocks', () => (blocksOf ? blocksOf(m.raw) : []));
  }
  return packed as Message[];
}

/** The values at `spans` of `bytes` (one, or a list when `many`); undefined without bytes. */
function spanValues(bytes: Uint8Array | null, spans: number[], many: boolean): unknown {
  if (!bytes) return undefined;
  const decoder = new TextDecoder();
  const values: unknown[] = [];
  for (let k = 0; k < spans.length; k += 2)
    values.push(JSON.parse(decoder.decode(bytes.subarray(spans[k], spans[k + 1]))));
  return many ? values : values[0];
}

/**
 * Define `obj[key]` as a value computed on first read (then a plain data property).
 * `enumerable: false` keeps object spreads (`{...t, messages}`) from computing it: they then do
 * not carry the value.
 */
function lazyValue<T extends object>(
  obj: T,
  key: keyof T & string,
  get: () => unknown,
  enumerable = true,
): void {
  Object.defineProperty(obj, key, {
    configurable: true,
    enumerable,
    get() {
      const v = get();
      Object.defineProperty(obj, key, {
        value: v,
        writable: true,
        enumerable: true,
        configurable: true,
      });
      return v;
    },
    set(v: unknown) {
      Object.defineProperty(obj, key, {
        value: v,
        writable: true,
        enumerable: true,
        configurable: true,
      });
    },
  });
}

/** The inspection without the transcript's messages and source value (sent separately). */
export function stripTranscript(r: Inspection): Inspection {
  if (!r.ok) return r;
  const t: Transcript = { ...r.parsed.transcript, messages: [], raw: undefined };
  const parsed: ParsedTranscript = { ...r.parsed, transcript: t };
  const analysis: Analysis = { ...r.analysis, transcript: t };
  return { ok: true, parsed, analysis };
}

/**
 * Put the messages back (the same array object in `parsed` and `analysis`) and make the
 * transcript's `raw` lazy: re-parsed from `text` on first read (see `streamed` below).
 * @param r a stripped inspection; `messages` its messages (unpacked); `transcript` a transcript
 *   the page already holds for this parse, reused as is
 */
export function joinTranscript(
  r: Inspection,
  messages: Message[] | null,
  source: { text: string; name: string; format: FormatId | null; streamed?: boolean } | null,
  transcript: Transcript | null,
): Inspection {
  if (!r.ok) return r;
  let t: Transcript;
  if (transcript) t = transcript;
  else {
    t = { ...r.parsed.transcript, messages: messages ?? [] };
    const src = source;
    lazyValue(
      t,
      'raw',
      () => {
        if (!src) return undefined;
        const again = parseTranscript(src.text, {
          format: t.format,
          ...(src.name ? { name: src.name } : {}),
          ...(r.parsed.requestIndex !== undefined ? { requestIndex: r.parsed.requestIndex } : {}),
        });
        return again.ok ? again.value.transcript.raw : undefined;
      },
      // A streamed (large) file: not enumerable, so a spread copy of the transcript (eviction,
      // faults) does not re-parse the whole file on the page; such copies do not carry the
      // source value (an export of a faulted copy writes the messages without the top-level
      // fields). Text the page holds (pastes, samples): enumerable, as a plain value would be.
      !src?.streamed,
    );
  }
  return {
    ok: true,
    parsed: { ...r.parsed, transcript: t },
    analysis: { ...r.analysis, transcript: t },
  };
}

/** Pairs or exchanges per postMessage: ≈ 10 ms of deserialising each on the page. */
export const LIST_BATCH = 3000;

/**
 * The inspection without its pairs and exchanges (sent separately in batches, `LIST_BATCH` per
 * postMessage: a 100,000-message analysis holds tens of thousands of ToolPair objects, one
 * deserialisation of 150–250 ms on the page when posted at once). `joinLists` puts them back.
 */
export function stripLists(r: Inspection): Inspection {
  if (!r.ok) return r;
  // The transcript's usage records too (one per API call: tens of thousands in a long log).
  const t: Transcript = { ...r.parsed.transcript, usage: [] };
  const analysis: Analysis = {
    ...r.analysis,
    transcript: t,
    pairs: [],
    grouping: { ...r.analysis.grouping, exchanges: [] },
  };
  return { ok: true, parsed: { ...r.parsed, transcript: t }, analysis };
}

/**
 * Put the pairs, exchanges and usage records posted in batches back into a stripped inspection
 * (the inverse of `stripLists`).
 * @param pairs the analysis' pairs, in order; @param exchanges its exchanges, in order
 * @param usage the transcript's usage records, in order
 */
export function joinLists(
  r: Inspection,
  pairs: ToolPair[],
  exchanges: Exchange[],
  usage: UsageRecord[],
): Inspection {
  if (!r.ok) return r;
  const t: Transcript = { ...r.parsed.transcript, usage };
  const analysis: Analysis = {
    ...r.analysis,
    transcript: t,
    pairs,
    grouping: { ...r.analysis.grouping, exchanges },
  };
  return { ok: true, parsed: { ...r.parsed, transcript: t }, analysis };
}
