import { describe, expect, it } from 'vitest';
import { generate } from '../../scripts/gen.ts';
import { parserFor } from '../model/parse/registry.ts';
import { inspect } from './inspect.ts';
import {
  joinLists,
  joinTranscript,
  LIST_BATCH,
  packMessages,
  stripLists,
  stripTranscript,
  unpackMessages,
} from './pack.ts';

const text = generate({ format: 'claude-code-jsonl', messages: 300, seed: 3 });

describe('pack', () => {
  it('batches of messages stop at the character budget (at least one message each)', () => {
    const r = inspect({ text, name: 'log.jsonl', format: null, provider: null });
    if (!r.ok) throw new Error('no analysis');
    const msgs = r.analysis.transcript.messages;
    const got: number[] = [];
    for (let from = 0; from < msgs.length; ) {
      const b = packMessages(msgs, from, from + 1000, 5000);
      expect(b.length).toBeGreaterThan(0);
      const chars = b.map((m) => m.rawJson?.length ?? 0);
      // Only the last message may take the batch past the budget.
      expect(chars.slice(0, -1).reduce((a, c) => a + c, 0)).toBeLessThan(5000);
      got.push(...b.map((m) => m.rawIndex));
      from += b.length;
    }
    expect(got).toEqual(msgs.map((m) => m.rawIndex));
  });

  it('raws sent as byte spans count their bytes against the same budget', () => {
    const r = inspect({ text, name: 'log.jsonl', format: null, provider: null });
    if (!r.ok) throw new Error('no analysis');
    const msgs = r.analysis.transcript.messages;
    const spans = new Map<unknown, [number, number]>();
    for (const m of msgs) if (!Array.isArray(m.raw)) spans.set(m.raw, [0, 1000]);
    const b = packMessages(msgs, 0, 1000, 5000, spans);
    expect(b.length).toBeGreaterThan(0);
    expect(b.length).toBeLessThan(msgs.length);
    const bytes = b.map((m) =>
      m.rawSpans ? (m.rawSpans.length / 2) * 1000 : (m.rawJson?.length ?? 0),
    );
    expect(bytes.slice(0, -1).reduce((a, c) => a + c, 0)).toBeLessThan(5000);
    expect(b.some((m) => m.rawSpans)).toBe(true);
  });

  it('a log whose format rebuilds blocks goes without them; the page rebuilds the same (issue 20)', () => {
    const r = inspect({ text, name: 'log.jsonl', format: null, provider: null });
    if (!r.ok) throw new Error('no analysis');
    const msgs = r.analysis.transcript.messages;
    // Each line's span in the text's bytes, as a streamed file gives them.
    const bytes = new TextEncoder().encode(text);
    const lines = text.split('\n');
    const spans = new Map<unknown, [number, number]>();
    const values = r.parsed.transcript.raw as unknown[];
    let at = 0;
    let k = 0;
    for (const line of lines) {
      const n = new TextEncoder().encode(line).length;
      if (line.trim()) spans.set(values[k++], [at, at + n]);
      at += n + 1;
    }
    const blocksOf = parserFor('claude-code-jsonl')?.blocksOf;
    const packed = structuredClone(packMessages(msgs, 0, msgs.length, Infinity, spans, blocksOf));
    expect(packed.every((m) => m.blocksFromRaw && m.blocks === undefined)).toBe(true);
    // Nothing rebuilt before a block is read; then exactly the parse's blocks and raws.
    const back = unpackMessages(packed, { bytes }, blocksOf);
    expect(Object.getOwnPropertyDescriptor(back[5], 'blocks')?.get).toBeDefined();
    expect(back.map((m) => m.blocks)).toEqual(msgs.map((m) => m.blocks));
    expect(back.map((m) => m.raw)).toEqual(msgs.map((m) => m.raw));
    expect(back.map((m) => ({ ...m }))).toEqual(msgs.map((m) => ({ ...m })));
  });

  it('a round trip through the compact form gives the same inspection', () => {
    const r = inspect({ text, name: 'log.jsonl', format: null, provider: null });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const msgs = r.analysis.transcript.messages;
    // Structured clone of what the worker posts, as the page receives it.
    const batches = [packMessages(msgs, 0, 100), packMessages(msgs, 100, 1000)].map((b) =>
      structuredClone(b),
    );
    const head = structuredClone(stripTranscript(r));
    const back = joinTranscript(
      head,
      batches.flatMap((b) => unpackMessages(b)),
      { text, name: 'log.jsonl', format: null },
      null,
    );
    expect(back.ok).toBe(true);
    if (!back.ok) return;
    expect(back.analysis.transcript.messages).toHaveLength(msgs.length);
    expect(back.parsed.transcript).toBe(back.analysis.transcript);
    expect(back.analysis.transcript.messages[5]?.raw).toEqual(msgs[5]?.raw);
    expect(back.analysis.transcript.raw).toEqual(r.analysis.transcript.raw);
    expect(back).toEqual(r);
    // Text the page holds: a spread copy (as faults and eviction make) keeps the source value.
    expect({ ...back.analysis.transcript }.raw).toEqual(r.analysis.transcript.raw);
  });

  it('a streamed file’s source value is not copied by spreads (no re-parse on the page)', () => {
    const r = inspect({ text, name: 'log.jsonl', format: null, provider: null });
    if (!r.ok) throw new Error('parse failed');
    const back = joinTranscript(
      structuredClone(stripTranscript(r)),
      unpackMessages(structuredClone(packMessages(r.analysis.transcript.messages, 0, 1000))),
      { text, name: 'log.jsonl', format: null, streamed: true },
      null,
    );
    if (!back.ok) throw new Error('join failed');
    expect({ ...back.analysis.transcript }.raw).toBeUndefined();
    expect(back.analysis.transcript.raw).toEqual(r.analysis.transcript.raw);
  });

  it('sends each message’s source JSON as text, not as objects', () => {
    const r = inspect({ text, name: 'log.jsonl', format: null, provider: null });
    if (!r.ok) throw new Error('parse failed');
    const [p] = packMessages(r.analysis.transcript.messages, 0, 1);
    expect(typeof p?.rawJson).toBe('string');
    expect(p && 'raw' in p).toBe(false);
    const s = stripTranscript(r);
    expect(s.ok && s.analysis.transcript.messages).toEqual([]);
  });

  it('pairs and exchanges posted in batches join back into the same analysis', () => {
    const r = inspect({ text, name: 'log.jsonl', format: null, provider: null });
    if (!r.ok) throw new Error('no analysis');
    const { pairs, grouping } = r.analysis;
    expect(pairs.length).toBeGreaterThan(10);
    const head = structuredClone(stripLists(r));
    if (!head.ok) throw new Error('no analysis');
    expect(head.analysis.pairs).toEqual([]);
    expect(head.analysis.grouping.exchanges).toEqual([]);
    const size = 7;
    const pb = [];
    const xb = [];
    for (let i = 0; i < Math.max(pairs.length, grouping.exchanges.length); i += size) {
      pb.push(...structuredClone(pairs.slice(i, i + size)));
      xb.push(...structuredClone(grouping.exchanges.slice(i, i + size)));
    }
    expect(head.analysis.transcript.usage).toEqual([]);
    expect(head.parsed.transcript).toBe(head.analysis.transcript);
    const usage = r.analysis.transcript.usage;
    expect(usage.length).toBeGreaterThan(0);
    const back = joinLists(head, pb, xb, structuredClone(usage));
    expect(back).toEqual(r);
    expect(LIST_BATCH).toBeGreaterThan(size);
  });
});
