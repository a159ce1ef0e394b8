/**
 * Messages as the worker sends them to the page (issue 20), in columns (`PackedMessages`): a
 * structured clone of one object per message (and of its meta) was the worker's longest post
 * and, on the page, tens of deserialising tasks; typed arrays and flat string lists clone and
 * rebuild about five times faster. `raw` goes as JSON text, or for a streamed JSON Lines file as
 * byte spans of the file's bytes (transferred with the answer); a format that rebuilds blocks
 * from raw (`blocksOf`) sends none. On the page, `raw` and such `blocks` are computed when first
 * read, through accessors shared by every message (lazyMessage.ts). `packMessages` and `unpackMessages` are inverses
 * (packMessages.test.ts).
 */
import {
  ROLE_NAMES,
  type Block,
  type Message,
  type MessageMeta,
  type Role,
} from '../model/types.ts';
import type { JsonlLine } from '../model/parse/json.ts';
import { attachLazy, type Lazy, type SourceBytes } from './lazyMessage.ts';
import type { Covers, PackedMessages } from './protocol.ts';

export type { SourceBytes };

/** Messages per postMessage: ≈ 10–40 ms of deserialising on the page for Claude Code lines. */
export const MESSAGE_BATCH = 1500;

/** Characters of source JSON per postMessage (≈ 10–25 ms of deserialising on the page). */
export const MESSAGE_BATCH_CHARS = 1_500_000;

/**
 * The byte span [start, end) of each JSON Lines record's value in the file's bytes, by value
 * (identity); `at`, when given, is where the record is expected among the log's records (a
 * message's `rawLine`, + k for the k-th record of a list), which a lookup may try first. A Map
 * of the records is one.
 */
export interface RawSpans {
  get(raw: unknown, at?: number): readonly [number, number] | undefined;
}

/**
 * The spans of a log's records by value: a record at the position asked (a message's
 * `rawLine`) is found there, by identity, without hashing; any other value through a Map of every
 * record, built on the first such lookup (issue 38: building and reading a Map of the 115 MB
 * log's 100,000 records was a third of the worker's time posting its messages).
 * @param lines the log's records, in order; @param lineSpan line number (1-based) → its span
 */
export class RecordSpans implements RawSpans {
  private readonly lines: readonly JsonlLine[];
  private readonly lineSpan: (line: number) => [number, number];
  private byValue: Map<unknown, [number, number]> | null = null;
  constructor(lines: readonly JsonlLine[], lineSpan: (line: number) => [number, number]) {
    this.lines = lines;
    this.lineSpan = lineSpan;
  }
  get(raw: unknown, at?: number): readonly [number, number] | undefined {
    if (typeof raw !== 'object' || raw === null) return undefined;
    const l = at === undefined ? undefined : this.lines[at];
    if (l && l.value === raw) return this.lineSpan(l.line);
    if (!this.byValue) {
      this.byValue = new Map();
      for (const r of this.lines)
        if (typeof r.value === 'object' && r.value !== null)
          this.byValue.set(r.value, this.lineSpan(r.line));
    }
    return this.byValue.get(raw);
  }
}

/** What a message sent without its blocks counts against a batch's `maxChars` (a few fields). */
const HEAD_CHARS = 200;

/** `PackedMessages.flags` bits: an optional boolean takes two (present, value). */
const F = {
  blocksFromRaw: 1,
  rawMany: 2,
  meta: 4,
  stringContentSet: 8,
  stringContent: 16,
  sidechainSet: 32,
  sidechain: 64,
  compactSummarySet: 128,
  compactSummary: 256,
  usageOutputTokens: 512,
} as const;

// Every field of Message and MessageMeta has a column: adding one fails to compile here.
const covered: [
  Covers<
    Message,
    'index' | 'rawIndex' | 'rawLine' | 'path' | 'role' | 'stringContent' | 'blocks' | 'raw' | 'meta'
  >,
  Covers<
    MessageMeta,
    'sidechain' | 'compactSummary' | 'sourceId' | 'timestamp' | 'reasoning' | 'usageOutputTokens'
  >,
] = [true, true];
void covered;

/** An empty batch of `n` rows. */
function emptyBatch(n: number): PackedMessages {
  return {
    count: 0,
    index: new Int32Array(n),
    rawIndex: new Int32Array(n),
    rawLine: new Int32Array(n),
    role: new Uint8Array(n),
    flags: new Uint16Array(n),
    path: [],
    rawJson: [],
    spanAt: new Int32Array(n + 1),
    spans: new Float64Array(0),
    blocks: [],
    sourceId: [],
    timestamp: [],
    reasoning: [],
    usageOutputTokens: new Float64Array(n),
  };
}

/** An optional boolean as its two flag bits. */
const bool = (v: boolean | undefined, set: number, on: number) =>
  v === undefined ? 0 : v ? set | on : set;

/** Row k's head fields and meta (everything but raw and blocks). */
function putHead(b: PackedMessages, k: number, m: Message): number {
  b.index[k] = m.index;
  b.rawIndex[k] = m.rawIndex;
  b.rawLine[k] = m.rawLine ?? -1;
  const role = ROLE_NAMES.indexOf(m.role);
  // A role outside the type would come back undefined: fail loudly (the worker reports it).
  if (role < 0) throw new Error(`message ${m.index} has no known role (${String(m.role)})`);
  b.role[k] = role;
  b.path.push(m.path);
  const meta = m.meta;
  b.sourceId.push(meta?.sourceId ?? null);
  b.timestamp.push(meta?.timestamp ?? null);
  b.reasoning.push(meta?.reasoning ?? null);
  b.usageOutputTokens[k] = meta?.usageOutputTokens ?? 0;
  return (
    bool(m.stringContent, F.stringContentSet, F.stringContent) |
    (meta
      ? F.meta |
        bool(meta.sidechain, F.sidechainSet, F.sidechain) |
        bool(meta.compactSummary, F.compactSummarySet, F.compactSummary) |
        (meta.usageOutputTokens === undefined ? 0 : F.usageOutputTokens)
      : 0)
  );
}

/**
 * Messages [from, to) in columns, stopping after the message that brings the JSON text (or its
 * source's bytes, sent as spans) to `maxChars` characters (at least one message).
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
): PackedMessages {
  const end = Math.min(to, messages.length);
  const b = emptyBatch(Math.max(0, end - from));
  const flat: number[] = [];
  let chars = 0;
  let k = 0;
  for (let i = from; i < end && chars < maxChars; i++, k++) {
    const m = messages[i] as Message;
    let flags = putHead(b, k, m);
    const before = flat.length;
    const found = spans ? putSpans(m.raw, spans, m.rawLine, flat) : NONE;
    let json: string | null = null;
    if (found !== NONE) {
      if (found === MANY) flags |= F.rawMany;
      // The blocks stay behind (the page rebuilds them); else the source's length bounds the
      // batch (the message's own text is as long to clone).
      if (blocksOf) {
        flags |= F.blocksFromRaw;
        chars += HEAD_CHARS;
      } else
        for (let s = before; s < flat.length; s += 2)
          chars += (flat[s + 1] as number) - (flat[s] as number);
    } else if (m.raw !== undefined) {
      json = JSON.stringify(m.raw);
      chars += json.length;
    }
    b.rawJson.push(json);
    b.spanAt[k + 1] = flat.length;
    b.blocks.push(flags & F.blocksFromRaw ? null : m.blocks);
    b.flags[k] = flags;
  }
  return trim(b, k, flat);
}

/** The batch cut to its `count` rows, with its spans. */
function trim(b: PackedMessages, count: number, flat: number[]): PackedMessages {
  const cut = <T extends Int32Array | Uint8Array | Uint16Array | Float64Array>(a: T, n = count) =>
    a.length === n ? a : (a.subarray(0, n).slice() as T);
  return {
    ...b,
    count,
    index: cut(b.index),
    rawIndex: cut(b.rawIndex),
    rawLine: cut(b.rawLine),
    role: cut(b.role),
    flags: cut(b.flags),
    spanAt: cut(b.spanAt, count + 1),
    spans: Float64Array.from(flat),
    usageOutputTokens: cut(b.usageOutputTokens),
    // A column of nulls goes empty (a log's raws are all spans, its blocks all rebuilt).
    rawJson: orEmpty(b.rawJson),
    blocks: orEmpty(b.blocks),
    reasoning: orEmpty(b.reasoning),
    sourceId: orEmpty(b.sourceId),
    timestamp: orEmpty(b.timestamp),
  };
}

/** `list`, or [] when every entry is null (read back as null). */
const orEmpty = <T>(list: (T | null)[]): (T | null)[] => (list.some((x) => x !== null) ? list : []);

/** The typed arrays of a batch (to transfer: each is the batch's own). */
export function packedMessageBuffers(b: PackedMessages): ArrayBuffer[] {
  const arrays = [b.index, b.rawIndex, b.rawLine, b.role, b.flags, b.spanAt, b.spans];
  return [...arrays, b.usageOutputTokens].flatMap((a) =>
    a.buffer instanceof ArrayBuffer ? [a.buffer] : [],
  );
}

/** What `putSpans` found: no spans, one record's, or a list of records' (`F.rawMany`). */
const NONE = 0;
const ONE = 1;
const MANY = 2;

/**
 * Push `raw` as the flat [start, end, …] spans of the records it is onto `flat` (MANY: a list of
 * records); NONE, with `flat` as it was, when it is none. `at`: the position of its (first)
 * record among the log's records (`Message.rawLine`), which the lookup may try first. A list's
 * elements are looked up before the list itself: a record is never an element of another
 * record, so the answer is the one a lookup of the list first gives. No object per message
 * (issue 38: a closure and a result per message were a fifth of packing the 115 MB log's).
 */
function putSpans(
  raw: unknown,
  spans: RawSpans,
  at: number | undefined,
  flat: number[],
): typeof NONE | typeof ONE | typeof MANY {
  if (Array.isArray(raw) && raw.length > 0) {
    const before = flat.length;
    let k = 0;
    for (; k < raw.length; k++) {
      const s = spans.get(raw[k], at === undefined ? undefined : at + k);
      if (!s) break;
      flat.push(s[0], s[1]);
    }
    if (k === raw.length) return MANY;
    flat.length = before;
  }
  const one = spans.get(raw, at);
  if (!one) return NONE;
  flat.push(one[0], one[1]);
  return ONE;
}

/** Row k's meta, or undefined. */
function metaOf(b: PackedMessages, k: number, flags: number): MessageMeta | undefined {
  if (!(flags & F.meta)) return undefined;
  const meta: MessageMeta = {};
  if (flags & F.sidechainSet) meta.sidechain = (flags & F.sidechain) !== 0;
  if (flags & F.compactSummarySet) meta.compactSummary = (flags & F.compactSummary) !== 0;
  const id = b.sourceId[k];
  if (id !== undefined && id !== null) meta.sourceId = id;
  const ts = b.timestamp[k];
  if (ts !== undefined && ts !== null) meta.timestamp = ts;
  if (flags & F.usageOutputTokens) meta.usageOutputTokens = b.usageOutputTokens[k] as number;
  const reasoning = b.reasoning[k];
  if (reasoning !== undefined && reasoning !== null) meta.reasoning = reasoning;
  return meta;
}

/**
 * The messages of a batch, whose `raw` parses its JSON text (or its spans of `source.bytes`,
 * which must have arrived by then) when first read; a message sent without its blocks rebuilds
 * them from its raw with `blocksOf` when they are first read.
 */
export function unpackMessages(
  batch: PackedMessages,
  source: SourceBytes = { bytes: null },
  blocksOf: ((raw: unknown) => Block[]) | undefined = undefined,
): Message[] {
  const out: Message[] = [];
  for (let k = 0; k < batch.count; k++) {
    const flags = batch.flags[k] as number;
    const m = {
      index: batch.index[k] as number,
      rawIndex: batch.rawIndex[k] as number,
      path: batch.path[k] as string,
      role: ROLE_NAMES[batch.role[k] as number] as Role,
    } as Message;
    const line = batch.rawLine[k] as number;
    if (line >= 0) m.rawLine = line;
    if (flags & F.stringContentSet) m.stringContent = (flags & F.stringContent) !== 0;
    const meta = metaOf(batch, k, flags);
    if (meta) m.meta = meta;
    const lazy: Lazy = {
      json: batch.rawJson[k] ?? null,
      spans: batch.spans,
      a: batch.spanAt[k] as number,
      z: batch.spanAt[k + 1] as number,
      many: (flags & F.rawMany) !== 0,
      source,
      blocksOf,
    };
    if (flags & F.blocksFromRaw) attachLazy(m, lazy, true);
    else {
      attachLazy(m, lazy, false);
      m.blocks = batch.blocks[k] ?? [];
    }
    out.push(m);
  }
  return out;
}

/** Row k of a batch as plain fields: how its raw and blocks were sent (tests, debugging). */
export function packedRow(
  b: PackedMessages,
  k: number,
): { rawJson: string | null; spans: number[]; rawMany: boolean; blocks: Block[] | null } {
  const flags = b.flags[k] as number;
  return {
    rawJson: b.rawJson[k] ?? null,
    spans: [...b.spans.subarray(b.spanAt[k], b.spanAt[k + 1])],
    rawMany: (flags & F.rawMany) !== 0,
    blocks: (flags & F.blocksFromRaw) === 0 ? (b.blocks[k] ?? null) : null,
  };
}

/** Every row of a batch as `packedRow` gives it. */
export const packedRows = (b: PackedMessages) =>
  Array.from({ length: b.count }, (_, k) => packedRow(b, k));
