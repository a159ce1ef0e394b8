/**
 * The checked-fetch record as an input: one request per call whose body was read, in call order,
 * each in its own API's format with the recorded verdict, repair and answer as notes.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { listRecordCalls } from './fetchRecord.ts';
import { parseTranscript } from '../index.ts';

const sample = readFileSync(
  path.resolve(import.meta.dirname, '../../../../public/samples/fetch-record.jsonl'),
  'utf8',
);

const line = (time: string, body: unknown, extra: Record<string, unknown> = {}) => ({
  schema: 'transcript-inspector/fetch-record',
  v: 1,
  time,
  url: 'https://api.openai.com/v1/chat/completions',
  endpoint: 'openai-chat',
  outcome: 'sent',
  request: { method: 'POST', headers: {}, ...(body !== undefined ? { body } : {}) },
  verdict: null,
  ...extra,
});
const chat = (text: string) => ({ model: 'gpt-4.1', messages: [{ role: 'user', content: text }] });

describe('fetch-record', () => {
  it('lists every call of the sample with a label the picker and `check --requests` show', () => {
    const lines = sample
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as unknown);
    expect(listRecordCalls(lines).map((e) => [e.label, e.format])).toEqual([
      ['#1 · 09:14:02 UTC · anthropic · claude-opus-4-6 · 1 message · 200', 'anthropic-messages'],
      ['#2 · 09:14:43 UTC · anthropic · claude-opus-4-6 · 3 messages · 200', 'anthropic-messages'],
      ['#3 · 09:15:24 UTC · anthropic · claude-opus-4-6 · 3 messages · 400', 'anthropic-messages'],
      ['#4 · 09:16:06 UTC · openai-chat · gpt-4.1 · 6 messages · 200', 'openai-chat'],
      ['#5 · 09:16:47 UTC · openai-chat · gpt-4.1 · 5 messages · 400', 'openai-chat'],
    ]);
  });

  it('parses the chosen call in its format, with its verdict and answer as notes; the newest by default', () => {
    const r = parseTranscript(sample);
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.requests).toHaveLength(5);
    expect(r.value.requestIndex).toBe(4);
    expect(r.value.transcript.format).toBe('openai-chat');
    const third = parseTranscript(sample, { requestIndex: 2 });
    if (!third.ok) throw new Error(third.error.message);
    expect(third.value.transcript.format).toBe('anthropic-messages');
    expect(third.value.transcript.warnings.join('\n')).toMatch(
      /answered with the provider's 400 without sending \(respond mode\)[\s\S]*Recorded verdict: anthropic rejects it \[A1: tool result with no call before it\][\s\S]*The provider answered HTTP 400/,
    );
    // The rule classes, repair kinds and outcomes in words: no internal code in a note.
    for (let i = 0; i < 5; i++) {
      const call = parseTranscript(sample, { requestIndex: i });
      if (!call.ok) throw new Error(call.error.message);
      const notes = call.value.transcript.warnings.join('\n');
      // (The provider's own texts keep their field names: `tool_use_id`, `tool_call_id`.)
      for (const code of [
        'orphan_tool_result',
        'partial_answer',
        'error_result_added',
        'sent-repaired',
        'sent-anyway',
        'answered-400',
      ])
        expect(notes).not.toContain(code);
    }
    const fourth = parseTranscript(sample, { requestIndex: 3 });
    expect(fourth.ok && fourth.value.transcript.warnings.join('\n')).toContain(
      'Repaired before sending (1 change): inserted (only some parallel calls answered: call_w2). Shown as sent.',
    );
  });

  it('orders calls by time (a slow call is written later) and counts the unread ones', () => {
    const text = [
      line('2026-12-01T10:00:02.000Z', chat('second')),
      line('2026-12-01T10:00:01.000Z', chat('first')),
      line('2026-12-01T10:00:03.000Z', undefined, { skipped: 'stream-body' }),
    ]
      .map((l) => JSON.stringify(l))
      .join('\n');
    const r = parseTranscript(text, { requestIndex: 0 });
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.requests).toHaveLength(2);
    expect(r.value.transcript.messages[0]?.blocks[0]).toMatchObject({ text: 'first' });
    expect(r.value.transcript.warnings.join(' ')).toContain('1 call of this record is not listed');
  });

  it('a JSON array of record lines reads the same; the format forced reads the newest call', () => {
    const lines = [
      line('2026-12-01T10:00:01.000Z', chat('a')),
      line('2026-12-01T10:00:02.000Z', chat('b')),
    ];
    const r = parseTranscript(JSON.stringify(lines));
    if (!r.ok) throw new Error(r.error.message);
    expect(r.value.requests).toHaveLength(2);
    const forced = parseTranscript(lines.map((l) => JSON.stringify(l)).join('\n'), {
      format: 'fetch-record',
    });
    if (!forced.ok) throw new Error(forced.error.message);
    expect(forced.value.transcript.messages[0]?.blocks[0]).toMatchObject({ text: 'b' });
  });

  it('is no other JSON Lines file: a session log is not listed as calls', () => {
    expect(listRecordCalls([{ type: 'user', message: { role: 'user', content: 'x' } }])).toEqual(
      [],
    );
    expect(listRecordCalls([])).toEqual([]);
    expect(listRecordCalls(null)).toEqual([]);
  });
});
