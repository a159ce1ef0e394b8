import { getHeapStatistics } from 'node:v8';
import { describe, expect, it } from 'vitest';
import { generate } from '../../../scripts/gen.ts';
import { parseTranscript } from '../parse/index.ts';
import { parsed } from '../testing/index.ts';
import type { Transcript } from '../types.ts';
import { VALIDATORS, validateTranscript } from './index.ts';
import { rawAsRulesRead } from './rawFields.ts';

const held = (t: Transcript): Transcript => ({
  ...t,
  messages: t.messages.map((m) => ({
    ...m,
    raw: Array.isArray(m.raw) ? m.raw.map(rawAsRulesRead) : rawAsRulesRead(m.raw),
  })),
});

describe('what the rules read of a message’s raw (issue 20)', () => {
  it('keeps type, role and prefix, and nothing else', () => {
    const raw = { type: 'function_call', role: 'function', prefix: true, content: 'x', id: 'a' };
    expect(rawAsRulesRead(raw)).toEqual({ type: 'function_call', role: 'function', prefix: true });
    expect(rawAsRulesRead({ content: 'x' })).toEqual({});
    for (const v of [undefined, null, 'x', [1]]) expect(rawAsRulesRead(v)).toBe(v);
  });

  it('keeps an empty tool_calls list (O15), not a list with calls', () => {
    expect(rawAsRulesRead({ role: 'assistant', content: 'x', tool_calls: [] })).toEqual({
      role: 'assistant',
      tool_calls: [],
    });
    expect(rawAsRulesRead({ role: 'assistant', tool_calls: [{ id: 'c' }] })).toEqual({
      role: 'assistant',
    });
    const t = parsed([
      { role: 'user', content: 'q' },
      { role: 'assistant', content: 'x', tool_calls: [] },
    ]).transcript;
    const vs = validateTranscript(held(t), 'openai-chat').violations;
    expect(vs.map((v) => v.code)).toEqual(['O15']);
    expect(vs).toEqual(validateTranscript(t, 'openai-chat').violations);
  });

  it('holds a record’s fields in a small object (issue 38: the worker keeps one per record)', () => {
    const n = 100_000;
    const records = Array.from({ length: n }, (_, k) => ({ type: 'user', uuid: `u${k}`, k }));
    const before = getHeapStatistics().used_heap_size;
    const kept = records.map(rawAsRulesRead);
    const perRecord = (getHeapStatistics().used_heap_size - before) / n;
    expect(kept[n - 1]).toEqual({ type: 'user' });
    // A plain object of one field is 16–32 bytes in V8 (plus the list's 8); a prototype-less
    // one is a hash table of well over 100.
    expect(perRecord).toBeLessThan(80);
  });

  it('every provider judges a log’s messages held that way as it judges the whole ones', () => {
    for (const seed of [1, 2, 3]) {
      const r = parseTranscript(generate({ format: 'claude-code-jsonl', messages: 300, seed }), {
        name: 'x.jsonl',
      });
      if (!r.ok) throw new Error('does not parse');
      const t = r.value.transcript;
      for (const { id } of VALIDATORS)
        expect(validateTranscript(held(t), id).violations, id).toEqual(
          validateTranscript(t, id).violations,
        );
    }
  });

  it('a rule that reads a dropped field would differ (the comparison can fail)', () => {
    // Chat's legacy `function` role is read from raw: without it the verdict changes.
    const t = parsed([
      { role: 'user', content: 'q' },
      { role: 'function', name: 'f', content: '{}' },
    ]).transcript;
    const stripped = { ...t, messages: t.messages.map((m) => ({ ...m, raw: {} })) };
    expect(validateTranscript(stripped, 'openai-chat').violations).not.toEqual(
      validateTranscript(held(t), 'openai-chat').violations,
    );
  });
});
