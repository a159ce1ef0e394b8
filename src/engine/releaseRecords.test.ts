import { describe, expect, it } from 'vitest';
import { generate } from '../../scripts/gen.ts';
import { parseDocument, readSource } from '../model/parse/index.ts';
import type { SourceDoc } from '../model/parse/json.ts';
import type { Transcript } from '../model/types.ts';
import { rawAsRulesRead } from '../model/validate/rawFields.ts';
import { releaseRecords } from './releaseRecords.ts';

/** A generated log's document and its parse (replies over several lines are lists of records). */
function parsed(): { doc: SourceDoc & { kind: 'jsonl' }; t: Transcript } {
  const text = generate({ format: 'claude-code-jsonl', messages: 300, seed: 5 });
  const src = readSource(text, 'log.jsonl');
  if (!src.ok || src.value.kind !== 'jsonl') throw new Error('not a log');
  const p = parseDocument(src.value, { format: 'claude-code-jsonl' });
  if (!p.ok) throw new Error('no parse');
  return { doc: src.value, t: p.value.transcript };
}

describe('releaseRecords (issue 20; issue 38: records found by position)', () => {
  it('replaces every record and every message’s raw by what the rules read, keeping identity', () => {
    const { doc, t } = parsed();
    const before = t.messages.map((m) => m.raw);
    expect(before.some((r) => Array.isArray(r))).toBe(true);
    releaseRecords(doc, t);
    expect(t.raw).toEqual(doc.lines.map((l) => l.value));
    t.messages.forEach((m, i) => {
      const old = before[i];
      if (Array.isArray(old)) {
        expect(m.raw).toEqual(old.map(rawAsRulesRead));
        (m.raw as unknown[]).forEach((v, k) =>
          expect(v).toBe((t.raw as unknown[])[(m.rawLine as number) + k]),
        );
      } else {
        expect(m.raw).toEqual(rawAsRulesRead(old));
        expect(m.raw).toBe((t.raw as unknown[])[m.rawLine as number]);
      }
    });
  });

  it('keeps each line’s own object, its value replaced (no second set of line objects, issue 38)', () => {
    const { doc, t } = parsed();
    const entries = [...doc.lines];
    releaseRecords(doc, t);
    doc.lines.forEach((l, k) => {
      expect(l).toBe(entries[k]);
      expect(l.value).toBe((t.raw as unknown[])[k]);
    });
  });

  it('finds a message’s records wherever they are when its rawLine does not point at them', () => {
    const a = parsed();
    const b = parsed();
    // Positions that point elsewhere (or nowhere): the records are found by value instead.
    b.t.messages.forEach((m, i) => {
      if (i % 2 === 0) m.rawLine = (m.rawLine ?? 0) + 1;
      else delete m.rawLine;
    });
    releaseRecords(a.doc, a.t);
    releaseRecords(b.doc, b.t);
    expect(b.t.messages.map((m) => m.raw)).toEqual(a.t.messages.map((m) => m.raw));
    // The same new values as the records' (identity), not copies.
    const values = new Set(b.doc.lines.map((l) => l.value));
    for (const m of b.t.messages)
      for (const v of Array.isArray(m.raw) ? m.raw : [m.raw]) expect(values.has(v)).toBe(true);
  });
});
