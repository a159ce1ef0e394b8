/**
 * `packMessages` as it was before issue 38 wrote a raw's spans without a closure and a result
 * object per message (engine/packMessages.ts): the property test holds the new one's batches
 * equal to this one's, column by column.
 */
import { ROLE_NAMES, type Block, type Message } from '../../model/types.ts';
import type { RawSpans } from '../packMessages.ts';
import type { PackedMessages } from '../protocol.ts';

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
export function packMessagesReference(
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
    const at = spans ? spansOf(m.raw, spans, m.rawLine) : null;
    let json: string | null = null;
    if (at) {
      for (const x of at.spans) flat.push(x);
      if (at.many) flags |= F.rawMany;
      // The blocks stay behind (the page rebuilds them); else the source's length bounds the
      // batch (the message's own text is as long to clone).
      if (blocksOf) {
        flags |= F.blocksFromRaw;
        chars += HEAD_CHARS;
      } else
        for (let s = 0; s < at.spans.length; s += 2)
          chars += (at.spans[s + 1] as number) - (at.spans[s] as number);
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

/**
 * `raw` as the flat [start, end, …] spans of the records it is (many: a list of records).
 * `at`: the position of its (first) record among the log's records (`Message.rawLine`), which
 * the lookup may try first. A list's elements are looked up before the list itself: a record is
 * never an element of another record, so the answer is the one a lookup of the list first gives.
 */
function spansOf(
  raw: unknown,
  spans: RawSpans,
  at: number | undefined,
): { spans: number[]; many: boolean } | null {
  const whole = () => {
    const one = spans.get(raw, at);
    return one ? { spans: [one[0], one[1]], many: false } : null;
  };
  if (!Array.isArray(raw) || raw.length === 0) return whole();
  const flat: number[] = [];
  for (let k = 0; k < raw.length; k++) {
    const s = spans.get(raw[k], at === undefined ? undefined : at + k);
    if (!s) return whole();
    flat.push(s[0], s[1]);
  }
  return { spans: flat, many: true };
}
