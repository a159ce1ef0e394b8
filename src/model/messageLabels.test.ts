import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyze } from './analyze.ts';
import {
  causeLabel,
  messageLabel,
  messageLabels,
  requestIndexNote,
  requestIndexOf,
  rowNumberTitle,
  sourceLines,
} from './messageLabels.ts';
import { parseTranscript } from './parse/index.ts';
import { assistant, transcript, user } from './testing/index.ts';
import type { Message } from './types.ts';

function withRaw(raws: readonly number[]): Message[] {
  return transcript(
    'anthropic-messages',
    raws.map((_, i) => (i % 2 === 0 ? user(`u${i}`) : assistant(`a${i}`))),
  ).messages.map((m, i) => ({ ...m, rawIndex: raws[i] as number }));
}

describe('messageLabels', () => {
  it('names a message by its raw index when no other message shares it', () => {
    const ms = withRaw([0, 1, 2]);
    expect([0, 1, 2].map((i) => messageLabel(ms, i))).toEqual(['#0', '#1', '#2']);
  });

  it('gives a sub-position to every message of a shared raw index, in our order', () => {
    // A Gemini CLI turn and its results (raw 1 twice), a retry copy (raw 3 three times).
    const ms = withRaw([0, 1, 1, 2, 3, 3, 3]);
    const l = messageLabels(ms);
    expect(ms.map((_, i) => l.of(i))).toEqual(['#0', '#1.1', '#1.2', '#2', '#3.1', '#3.2', '#3.3']);
  });

  it('numbers shared raw indices that are not adjacent (a reordered log) and keeps unique ones plain', () => {
    const ms = withRaw([2, 0, 2, 1]);
    expect(ms.map((_, i) => messageLabel(ms, i))).toEqual(['#2.1', '#0', '#2.2', '#1']);
  });

  it('falls back to the position outside the list', () => {
    expect(messageLabel(withRaw([0]), 5)).toBe('#5');
    expect(messageLabel(withRaw([0]), -1)).toBe('#-1');
  });

  it('property: labels are unique, start with `#rawIndex`, and are plain when the raw index is unique', () => {
    fc.assert(
      fc.property(fc.array(fc.nat(6), { maxLength: 20 }), (raws) => {
        const ms = withRaw(raws);
        const labels = ms.map((_, i) => messageLabel(ms, i));
        expect(new Set(labels).size).toBe(labels.length);
        ms.forEach((m, i) => {
          const shared = raws.filter((r) => r === m.rawIndex).length > 1;
          const label = labels[i] as string;
          if (shared) expect(label.startsWith(`#${m.rawIndex}.`)).toBe(true);
          else expect(label).toBe(`#${m.rawIndex}`);
        });
      }),
    );
  });
});

describe('sourceLines: a log message names its file lines as lines', () => {
  it('names one line, a run and separate runs', () => {
    expect(sourceLines([4])).toBe('line 4');
    expect(sourceLines([4, 5])).toBe('lines 4–5');
    expect(sourceLines([2, 5])).toBe('lines 2, 5');
    expect(sourceLines([4, 5, 6, 9, 11, 12])).toBe('lines 4–6, 9, 11–12');
  });
});

describe('requestIndexOf / requestIndexNote: the provider counts its own request', () => {
  it('reads the index of every provider path shape, and none from a path without one', () => {
    expect(requestIndexOf('messages.9969')).toBe(9969);
    expect(requestIndexOf('messages.3.content.0.tool_use_id')).toBe(3);
    expect(requestIndexOf('messages.[2].role')).toBe(2);
    expect(requestIndexOf('contents[4].parts')).toBe(4);
    expect(requestIndexOf('input[7]')).toBe(7);
    expect(requestIndexOf('messages')).toBeNull();
    expect(requestIndexOf('toolConfig')).toBeNull();
    expect(requestIndexOf(null)).toBeNull();
  });

  it('maps the request index to the row, or says nothing without a row or an index', () => {
    expect(requestIndexNote('messages.9969.content.0', '#17755')).toBe(
      'request message 9969 = row #17755',
    );
    expect(requestIndexNote('messages', '#3')).toBeNull();
    expect(requestIndexNote('messages.3', null)).toBeNull();
  });

  it('on a Claude Code log: rows count the messages read, the provider its merged request', () => {
    // Line 1 a prompt, lines 2–3 one reply (two calls), lines 4 and 5 one result each (two user
    // records the request merges into one message), line 6 a prompt with no answer before it.
    const line = (o: object) => JSON.stringify({ sessionId: 's', ...o });
    const use = (id: string) => ({ type: 'tool_use', id, name: 'x', input: {} });
    const result = (id: string) => [{ type: 'tool_result', tool_use_id: id, content: 'ok' }];
    const text = [
      line({
        type: 'user',
        uuid: 'u1',
        parentUuid: null,
        message: { role: 'user', content: 'go' },
      }),
      line({
        type: 'assistant',
        uuid: 'a1',
        parentUuid: 'u1',
        message: { id: 'm1', role: 'assistant', content: [use('t1')] },
      }),
      line({
        type: 'assistant',
        uuid: 'a2',
        parentUuid: 'a1',
        message: { id: 'm1', role: 'assistant', content: [use('t2')] },
      }),
      line({
        type: 'user',
        uuid: 'r1',
        parentUuid: 'a2',
        message: { role: 'user', content: result('t1') },
      }),
      line({
        type: 'user',
        uuid: 'r2',
        parentUuid: 'r1',
        message: { role: 'user', content: result('t2') },
      }),
      line({
        type: 'assistant',
        uuid: 'a3',
        parentUuid: 'r2',
        message: { id: 'm2', role: 'assistant', content: [use('t3')] },
      }),
      line({
        type: 'user',
        uuid: 'u2',
        parentUuid: 'a3',
        message: { role: 'user', content: 'next' },
      }),
    ].join('\n');
    const p = parseTranscript(text);
    if (!p.ok) throw new Error(p.error.message);
    const t = p.value.transcript;
    expect(t.format).toBe('claude-code-jsonl');
    expect(t.messages.map((m) => m.path)).toEqual([
      'line 1',
      'lines 2–3',
      'line 4',
      'line 5',
      'line 6',
      'line 7',
    ]);
    const labels = messageLabels(t.messages);
    expect(t.messages.map((_, i) => labels.of(i))).toEqual(['#0', '#1', '#2', '#3', '#4', '#5']);
    const v = analyze(t).validation.violations.find((x) => x.severity === 'error');
    // The unanswered t3 (row #4, line 6): the request merged lines 4 and 5, so it is message 3.
    expect(v?.index).toBe(4);
    expect(v?.providerPath).toMatch(/^messages\.3\b/);
    expect(requestIndexNote(v?.providerPath ?? null, causeLabel(labels, v!))).toBe(
      'request message 3 = row #4',
    );
    expect(rowNumberTitle(t.messages[1]!, '#1')).toBe(
      'Row #1: message 1 of the log, counting from 0 (a reply written over several lines is one message); in the file: lines 2–3',
    );
  });
});

describe('rowNumberTitle / causeLabel', () => {
  it('says what a list row number is, and that a sub-position shares its source message', () => {
    const ms = withRaw([0, 1, 1]);
    const m = { ...(ms[2] as Message), path: 'messages.1' };
    expect(rowNumberTitle(m, '#1.2')).toBe(
      'Row #1.2: message 1 of the source, counting from 0, one of several rows made from it; in the source: messages.1',
    );
  });

  it('names a cause by its row, else its raw index, else the summary', () => {
    const labels = messageLabels(withRaw([0, 1, 1]));
    expect(causeLabel(labels, { index: 2, messageIndex: 1 })).toBe('#1.2');
    expect(causeLabel(labels, { index: -1, messageIndex: 5 })).toBe('#5');
    expect(causeLabel(labels, { index: -1, messageIndex: -1 })).toBe('the summary');
  });
});
