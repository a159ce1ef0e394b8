import { describe, expect, it } from 'vitest';
import { generate } from '../../scripts/gen.ts';
import { inspect } from './inspect.ts';
import { joinLists, joinTranscript, LIST_BATCH, stripLists, stripTranscript } from './pack.ts';
import { packMessages, unpackMessages } from './packMessages.ts';

const text = generate({ format: 'claude-code-jsonl', messages: 300, seed: 3 });

describe('pack: the transcript and its lists', () => {
  it('a round trip through the compact form gives the same inspection', () => {
    const r = inspect({ text, name: 'log.jsonl', format: null, provider: null });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const msgs = r.analysis.transcript.messages;
    // Structured clone of what the worker posts, as the page receives it.
    const batches = [packMessages(msgs, 0, 100), packMessages(msgs, 100, 1000)].map((b) =>
      structuredClone(b),
    );
    expect(batches.map((b) => b.count)).toEqual([100, msgs.length - 100]);
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
