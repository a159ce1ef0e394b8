import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generate } from '../../scripts/gen.ts';
import { parserFor } from '../model/parse/registry.ts';
import { arbBlock } from '../model/testing/arbitraries.ts';
import type { Message, MessageMeta, Role } from '../model/types.ts';
import { inspect } from './inspect.ts';
import { packMessagesReference } from './testing/packMessages.reference.ts';
import {
  packedMessageBuffers,
  packedRows,
  packMessages,
  RecordSpans,
  unpackMessages,
  type RawSpans,
} from './packMessages.ts';

const text = generate({ format: 'claude-code-jsonl', messages: 300, seed: 3 });

function analysed() {
  const r = inspect({ text, name: 'log.jsonl', format: null, provider: null });
  if (!r.ok) throw new Error('no analysis');
  return r;
}

/** Each JSON Lines record's byte span in `text`, by its parsed value (as a streamed file gives). */
function lineSpans(values: unknown[]): Map<unknown, [number, number]> {
  const spans = new Map<unknown, [number, number]>();
  let at = 0;
  let k = 0;
  for (const line of text.split('\n')) {
    const n = new TextEncoder().encode(line).length;
    if (line.trim()) spans.set(values[k++], [at, at + n]);
    at += n + 1;
  }
  return spans;
}

const arbMeta: fc.Arbitrary<MessageMeta> = fc.record(
  {
    sidechain: fc.boolean(),
    compactSummary: fc.boolean(),
    sourceId: fc.string(),
    timestamp: fc.string(),
    // NaN too (a Codex delta of two infinite counts).
    usageOutputTokens: fc.oneof(fc.nat(), fc.double()),
    reasoning: fc.string(),
  },
  { requiredKeys: [], noNullPrototype: true },
);

/** Messages with every optional field present or not (raws JSON values, or undefined). */
const arbMessages: fc.Arbitrary<Message[]> = fc
  .array(
    fc.record(
      {
        rawIndex: fc.nat(),
        rawLine: fc.nat(),
        path: fc.string(),
        role: fc.constantFrom<Role>('system', 'developer', 'user', 'assistant', 'tool'),
        stringContent: fc.boolean(),
        blocks: fc.array(arbBlock, { maxLength: 3 }),
        raw: fc.option(fc.jsonValue(), { nil: undefined }),
        meta: arbMeta,
      },
      { requiredKeys: ['rawIndex', 'path', 'role', 'blocks', 'raw'], noNullPrototype: true },
    ),
    { maxLength: 12 },
  )
  .map((ms) => ms.map((m, index) => ({ index, ...m }) as Message));

describe('packMessages (issue 20: messages in columns)', () => {
  it('pack → structured clone → unpack is the identity, in batches of any size', () => {
    fc.assert(
      fc.property(arbMessages, fc.integer({ min: 1, max: 5 }), (msgs, size) => {
        const back: Message[] = [];
        for (let from = 0; from < msgs.length; ) {
          const b = structuredClone(packMessages(msgs, from, from + size));
          expect(b.count).toBeGreaterThan(0);
          back.push(...unpackMessages(b));
          from += b.count;
        }
        // Spreads read the lazy fields as plain values (as faults and eviction copy messages).
        const json = (v: unknown) => (v === undefined ? v : JSON.parse(JSON.stringify(v)));
        expect(back.map((m) => ({ ...m }))).toStrictEqual(
          // Blocks go by structured clone, raws as JSON.
          msgs.map((m) => ({ ...m, raw: json(m.raw), blocks: structuredClone(m.blocks) })),
        );
      }),
    );
  });

  it('packs every batch as the reference does, spans found or not (issue 38)', () => {
    // The spans of some raws and of some elements of list raws (a list found whole, in part or
    // not at all), at the position asked or elsewhere; any budget, with blocks or without.
    const arbCase = arbMessages.chain((msgs) =>
      fc.record({
        msgs: fc.constant(msgs),
        found: fc.array(fc.integer({ min: 0, max: 3 }), {
          minLength: msgs.length,
          maxLength: msgs.length,
        }),
        from: fc.nat(msgs.length),
        size: fc.integer({ min: 1, max: 14 }),
        maxChars: fc.oneof(fc.constant(Infinity), fc.nat(400)),
        withSpans: fc.boolean(),
        rebuild: fc.boolean(),
      }),
    );
    fc.assert(
      fc.property(arbCase, ({ msgs, found, from, size, maxChars, withSpans, rebuild }) => {
        const spans = new Map<unknown, [number, number]>();
        let at = 0;
        const give = (v: unknown) => {
          if (typeof v === 'object' && v !== null) spans.set(v, [at, (at += 1 + (at % 7))]);
        };
        msgs.forEach((m, k) => {
          const how = found[k] ?? 0;
          if (how === 1) give(m.raw);
          if (Array.isArray(m.raw) && how >= 2)
            m.raw.forEach((x, j) => (how === 3 || j % 2 === 0 ? give(x) : undefined));
        });
        const blocksOf = rebuild ? () => [] : undefined;
        const args = [
          msgs,
          from,
          from + size,
          maxChars,
          withSpans ? spans : null,
          blocksOf,
        ] as const;
        const got = packMessages(...args);
        const want = packMessagesReference(...args);
        expect(got).toStrictEqual(want);
        const bytes = (b: typeof got) => packedMessageBuffers(b).map((x) => x.byteLength);
        expect(bytes(got)).toEqual(bytes(want));
      }),
      { numRuns: 500 },
    );
  });

  it('refuses a role outside the type instead of sending it as undefined', () => {
    const m = { index: 0, rawIndex: 0, path: '', role: 'function', blocks: [], raw: 1 };
    expect(() => packMessages([m as unknown as Message], 0, 1)).toThrow(/no known role/);
  });

  it('batches stop at the character budget (at least one message each)', () => {
    const msgs = analysed().analysis.transcript.messages;
    const got: number[] = [];
    for (let from = 0; from < msgs.length; ) {
      const b = packMessages(msgs, from, from + 1000, 5000);
      expect(b.count).toBeGreaterThan(0);
      const chars = packedRows(b).map((m) => m.rawJson?.length ?? 0);
      // Only the last message may take the batch past the budget.
      expect(chars.slice(0, -1).reduce((a, c) => a + c, 0)).toBeLessThan(5000);
      got.push(...b.rawIndex);
      from += b.count;
    }
    expect(got).toEqual(msgs.map((m) => m.rawIndex));
  });

  it('raws sent as byte spans count their bytes against the same budget', () => {
    const msgs = analysed().analysis.transcript.messages;
    const spans = new Map<unknown, [number, number]>();
    for (const m of msgs) if (!Array.isArray(m.raw)) spans.set(m.raw, [0, 1000]);
    const b = packMessages(msgs, 0, 1000, 5000, spans);
    expect(b.count).toBeGreaterThan(0);
    expect(b.count).toBeLessThan(msgs.length);
    const rows = packedRows(b);
    const bytes = rows.map((m) =>
      m.spans.length ? (m.spans.length / 2) * 1000 : (m.rawJson?.length ?? 0),
    );
    expect(bytes.slice(0, -1).reduce((a, c) => a + c, 0)).toBeLessThan(5000);
    expect(rows.some((m) => m.spans.length > 0)).toBe(true);
  });

  it('a log whose format rebuilds blocks goes without them; the page rebuilds the same', () => {
    const r = analysed();
    const msgs = r.analysis.transcript.messages;
    const spans = lineSpans(r.parsed.transcript.raw as unknown[]);
    const bytes = new TextEncoder().encode(text);
    const blocksOf = parserFor('claude-code-jsonl')?.blocksOf;
    const packed = structuredClone(packMessages(msgs, 0, msgs.length, Infinity, spans, blocksOf));
    expect(packedRows(packed).every((m) => m.blocks === null && m.rawJson === null)).toBe(true);
    // Columns of nulls go empty.
    expect([packed.blocks, packed.rawJson, packed.reasoning]).toEqual([[], [], []]);
    expect(new Set(packedMessageBuffers(packed)).size).toBe(8);
    // Nothing rebuilt before a block is read; then exactly the parse's blocks and raws.
    const back = unpackMessages(packed, { bytes }, blocksOf);
    const lazy = (m: Message | undefined, key: 'raw' | 'blocks') =>
      m && Object.getOwnPropertyDescriptor(m, key)?.get;
    expect(lazy(back[5], 'blocks')).toBeDefined();
    // One accessor for every message (per-message closures gave each its own shape).
    expect(lazy(back[5], 'blocks')).toBe(lazy(back[6], 'blocks'));
    expect(lazy(back[5], 'raw')).toBe(lazy(back[6], 'raw'));
    expect(back.map((m) => m.blocks)).toEqual(msgs.map((m) => m.blocks));
    expect(back.map((m) => m.raw)).toEqual(msgs.map((m) => m.raw));
    expect(back.map((m) => ({ ...m }))).toEqual(msgs.map((m) => ({ ...m })));
    // Once read, a plain data property (writable, as before packing).
    expect(lazy(back[5], 'blocks')).toBeUndefined();
    const m = back[7] as Message;
    m.raw = { replaced: true };
    expect(m.raw).toEqual({ replaced: true });
  });

  it('a log’s records found by position give the spans a Map of every record gives (issue 38)', () => {
    const r = analysed();
    const msgs = r.analysis.transcript.messages;
    const raw = r.parsed.transcript.raw as unknown[];
    const byMap = lineSpans(raw);
    const blocksOf = parserFor('claude-code-jsonl')?.blocksOf;
    const rows = (spans: RawSpans) =>
      packedRows(packMessages(msgs, 0, msgs.length, Infinity, spans, blocksOf));
    const expected = rows(byMap);
    // Replies written over several lines are lists of records: both paths are covered.
    expect(expected.filter((x) => x.rawMany).length).toBeGreaterThan(0);
    expect(expected.every((x) => x.spans.length > 0)).toBe(true);
    const lines = raw.map((value, k) => ({ line: k + 1, value }));
    const lineSpan = (n: number): [number, number] => byMap.get(raw[n - 1]) ?? [-1, -1];
    let built = 0;
    const counted = (ls: typeof lines) =>
      new RecordSpans(
        new Proxy(ls, {
          get(target, key, receiver) {
            // Iterating (the Map's build) reads `length` or the iterator; a hinted lookup does not.
            if (key === Symbol.iterator) built++;
            return Reflect.get(target, key, receiver) as unknown;
          },
        }),
        lineSpan,
      );
    // In order: every message's records are where its rawLine says, and no Map is built.
    expect(rows(counted(lines))).toEqual(expected);
    expect(built).toBe(0);
    // Out of order (each position holds another record): the Map answers the same.
    expect(rows(counted([...lines].reverse()))).toEqual(expected);
    expect(built).toBe(1);
  });

  it('a raw sent as spans is undefined until the bytes arrive', () => {
    const r = analysed();
    const msgs = r.analysis.transcript.messages;
    const source = { bytes: null as Uint8Array | null };
    const spans = lineSpans(r.parsed.transcript.raw as unknown[]);
    const back = unpackMessages(packMessages(msgs, 0, 3, Infinity, spans), source);
    expect(back[0]?.raw).toBeUndefined();
    source.bytes = new TextEncoder().encode(text);
    expect(back[1]?.raw).toEqual(msgs[1]?.raw);
    // Read before the bytes came, it is not kept undefined.
    expect(back[0]?.raw).toEqual(msgs[0]?.raw);
  });

  it('blocks read before the bytes arrive are empty, then rebuilt once they have', () => {
    const r = analysed();
    const msgs = r.analysis.transcript.messages;
    const blocksOf = parserFor('claude-code-jsonl')?.blocksOf;
    const source = { bytes: null as Uint8Array | null };
    const spans = lineSpans(r.parsed.transcript.raw as unknown[]);
    const back = unpackMessages(
      packMessages(msgs, 0, 3, Infinity, spans, blocksOf),
      source,
      blocksOf,
    );
    expect(back[1]?.blocks).toEqual([]);
    source.bytes = new TextEncoder().encode(text);
    expect(back[1]?.blocks).toEqual(msgs[1]?.blocks);
  });

  it('a message whose source cannot be read again says which, where and why, in raw and blocks', () => {
    const r = analysed();
    const msgs = r.analysis.transcript.messages;
    const blocksOf = parserFor('claude-code-jsonl')?.blocksOf;
    const spans = lineSpans(r.parsed.transcript.raw as unknown[]);
    const source = { bytes: new TextEncoder().encode(text) };
    const back = unpackMessages(
      packMessages(msgs, 0, 3, Infinity, spans, blocksOf),
      source,
      blocksOf,
    );
    source.bytes = source.bytes.subarray(0, 10); // shorter than the spans
    const note = `message 2 (${msgs[2]?.path}) could not be read again from the source: bytes`;
    expect(back[2]?.raw).toEqual({ unreadable: expect.stringContaining(note) as string });
    expect(back[2]?.blocks).toEqual([
      { type: 'text', text: expect.stringContaining(note) as string },
    ]);
    source.bytes = new TextEncoder().encode(text.replace(/^\{/, '[')); // the first line broken
    expect(back[0]?.blocks[0]).toMatchObject({
      text: expect.stringMatching(
        /^\(message 0 \(line 1\) could not be read again from the source: .*JSON/,
      ) as string,
    });
  });

  it('blocks a parser cannot rebuild from a raw become a note, not a throw', () => {
    const r = analysed();
    const msgs = r.analysis.transcript.messages;
    const spans = lineSpans(r.parsed.transcript.raw as unknown[]);
    const source = { bytes: new TextEncoder().encode(text) };
    const failing = (): never => {
      throw new Error('no blocks here');
    };
    const back = unpackMessages(
      packMessages(msgs, 0, 3, Infinity, spans, failing),
      source,
      failing,
    );
    expect(back[1]?.raw).toEqual(msgs[1]?.raw);
    expect(back[1]?.blocks).toEqual([
      {
        type: 'text',
        text: `(message 1 (${msgs[1]?.path}) could not be read again from the source: no blocks here)`,
      },
    ]);
  });

  it('sends each message’s source JSON as text and its blocks as they are', () => {
    const msgs = analysed().analysis.transcript.messages;
    const b = packMessages(msgs, 0, 2);
    expect(b.count).toBe(2);
    expect(b.rawJson).toEqual(msgs.slice(0, 2).map((m) => JSON.stringify(m.raw)));
    expect(b.blocks).toEqual(msgs.slice(0, 2).map((m) => m.blocks));
    expect(b.index).toBeInstanceOf(Int32Array);
    // Parsed on first read; then the message keeps the value and drops what made it.
    const [m, n] = unpackMessages(b);
    if (!m || !n) throw new Error('no messages');
    const hidden = (x: Message) =>
      Object.getOwnPropertySymbols(x).map((k) => Object.getOwnPropertyDescriptor(x, k)?.value);
    expect(hidden(m)).toEqual([expect.objectContaining({ json: b.rawJson[0] })]);
    expect(m.raw).toEqual(msgs[0]?.raw);
    expect(hidden(m)).toEqual([null]);
    expect(m.raw).toEqual(msgs[0]?.raw);
    // A copy of the accessors computes its own value and leaves the original's alone.
    const copy = Object.defineProperties({}, Object.getOwnPropertyDescriptors(n)) as Message;
    expect(copy.raw).toEqual(msgs[1]?.raw);
    expect(n.raw).toEqual(msgs[1]?.raw);
  });
});
