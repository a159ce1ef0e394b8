import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../model/analyze.ts';
import { decodeBytes } from '../model/parse/bytes.ts';
import { parseTranscript } from '../model/parse/index.ts';
import type { SampleEntry } from './files.ts';

const dir = path.resolve(import.meta.dirname, '../../public/samples');
const index = JSON.parse(readFileSync(path.join(dir, 'index.json'), 'utf8')) as SampleEntry[];

function load(entry: SampleEntry) {
  const text = decodeBytes(new Uint8Array(readFileSync(path.join(dir, entry.file))));
  if (!text.ok) throw new Error(text.error.message);
  // No name hint: detection alone must find the format the menu promises.
  const parsed = parseTranscript(text.value);
  if (!parsed.ok) throw new Error(`${entry.file}: ${parsed.error.message}`);
  return analyze(parsed.value.transcript);
}

describe('public/samples', () => {
  it('has the samples the page needs, with unique ids', () => {
    const ids = index.map((e) => e.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of [
      'invoice',
      'coding-agent',
      'broken-orphan-after-trim',
      'broken-unanswered-after-cancel',
      'broken-partial-answer',
      'broken-text-before-result',
      'broken-duplicate-id',
      'broken-thinking-stripped',
    ]) {
      expect(ids).toContain(id);
    }
  });

  it.each(index.map((e) => [e.id, e] as const))(
    '%s: detected format and verdict match the index',
    (_id, entry) => {
      const a = load(entry);
      expect(a.transcript.format).toBe(entry.format);
      expect(a.validation.valid).toBe(!entry.broken);
    },
  );

  it('the invoice example is one exchange with two parallel calls answered in the next message, where its request ends', () => {
    const a = load(index.find((e) => e.id === 'invoice') as SampleEntry);
    const dump = a.grouping.exchanges.map((x) =>
      x.messages.map((i) => a.transcript.messages[i]?.role[0]).join(''),
    );
    expect(dump).toEqual(['uau']);
    // The first screen's request ends where a real one does (the tool results, sent for the
    // answer): valid with no note, no trailing assistant message read as a prefill.
    expect(a.transcript.messages.at(-1)?.blocks.map((b) => b.type)).toEqual([
      'tool_result',
      'tool_result',
    ]);
    expect(a.validation.valid).toBe(true);
    expect(a.validation.notes).toEqual([]);
    expect(
      a.pairs.map((p) => `${p.name} ${p.status} ${p.call?.message}→${p.result?.message}`),
    ).toEqual(['search_invoices answered 1→2', 'get_customer answered 1→2']);
  });

  it('each broken sample of mine fails with the rule its title names', () => {
    const rules: Record<string, string> = {
      'broken-orphan-after-trim': 'orphan_tool_result',
      'broken-unanswered-after-cancel': 'unanswered_tool_use',
      'broken-partial-answer': 'partial_answer',
      'broken-text-before-result': 'tool_result_not_first',
      'broken-duplicate-id': 'duplicate_tool_use_id',
      'broken-thinking-stripped': 'thinking_missing',
    };
    for (const [id, rule] of Object.entries(rules)) {
      const a = load(index.find((e) => e.id === id) as SampleEntry);
      expect(a.validation.violations.find((v) => v.severity === 'error')?.rule, id).toBe(rule);
    }
  });

  it('the coding-agent session has 8+ exchanges, parallel calls, an error result and thinking', () => {
    const a = load(index.find((e) => e.id === 'coding-agent') as SampleEntry);
    expect(a.grouping.exchanges.length).toBeGreaterThanOrEqual(8);
    const blocks = a.transcript.messages.flatMap((m) => m.blocks);
    expect(blocks.some((b) => b.type === 'tool_result' && b.isError)).toBe(true);
    expect(blocks.some((b) => b.type === 'thinking')).toBe(true);
    expect(
      a.transcript.messages.some((m) => m.blocks.filter((b) => b.type === 'tool_use').length >= 2),
    ).toBe(true);
  });
});
