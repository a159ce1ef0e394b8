/**
 * Fault descriptions and lost-meaning notes name messages the way the timeline rows do: the row
 * label (`#rawIndex`, `#3.2` where several messages share a raw index), taken from the rows shown
 * after the faults — never our index.
 */
import { describe, expect, it } from 'vitest';
import { applyFault, applyFaults, reindexForView } from './faults.ts';
import { INVOICE_ANTHROPIC, load } from './testing/faults.fixtures.ts';
import { findLostMeaning } from './lostMeaning.ts';
import { messageLabel } from './messageLabels.ts';
import { parseTranscript } from './parse/index.ts';
import { assistant, call, result, transcript, user } from './testing/index.ts';
import type { Message, Transcript } from './types.ts';

/** The row label the timeline shows for message `m` of a (faulted) transcript. */
function rowLabelOf(t: Transcript, m: Message): string {
  const shown = reindexForView(t);
  const i = t.messages.indexOf(m);
  expect(i).toBeGreaterThanOrEqual(0);
  return messageLabel(shown.messages, i);
}

/** Our own Gemini CLI session: one turn with a call and its stored result (two of ours, raw 1). */
const GEMINI_CLI = {
  sessionId: 's-3',
  projectHash: 'p',
  messages: [
    { id: 'u1', type: 'user', content: 'Read NOTES.md.' },
    {
      id: 'g1',
      type: 'gemini',
      content: 'Reading.',
      toolCalls: [
        {
          id: 'rd-1',
          name: 'read_file',
          args: { path: 'NOTES.md' },
          status: 'success',
          result: [
            { functionResponse: { id: 'rd-1', name: 'read_file', response: { output: 'hi' } } },
          ],
        },
      ],
    },
    { id: 'g2', type: 'gemini', content: 'It says hi.' },
    { id: 'u2', type: 'user', content: 'Now write a reply.' },
  ],
};

describe('fault descriptions use the row labels', () => {
  const t = load(INVOICE_ANTHROPIC);

  it('retry: the original and its copy by the labels their rows show (#5.1, #5.2)', () => {
    const r = applyFault(t, { kind: 'retry', messageIndex: 5 });
    if (!r.ok) throw new Error(r.error);
    const out = r.value.transcript;
    const original = t.messages[5] as Message;
    const copy = out.messages[6] as Message;
    expect(rowLabelOf(out, original)).toBe('#5.1');
    expect(rowLabelOf(out, copy)).toBe('#5.2');
    expect(r.value.description).toContain(
      `stored assistant message ${rowLabelOf(out, original)} twice (the copy is ${rowLabelOf(out, copy)})`,
    );
  });

  it('stacked faults: each description is worded with the final rows (a second retry adds #5.3)', () => {
    const r = applyFaults(t, [
      { kind: 'retry', messageIndex: 5 },
      { kind: 'retry', messageIndex: 6 },
      { kind: 'truncate', count: 1 },
    ]);
    expect(r.error).toBeNull();
    const ms = r.transcript.messages;
    expect([5, 6, 7].map((i) => rowLabelOf(r.transcript, ms[i] as Message))).toEqual([
      '#5.1',
      '#5.2',
      '#5.3',
    ]);
    expect(r.descriptions[0]).toContain('message #5.1 twice (the copy is #5.2)');
    expect(r.descriptions[1]).toContain('message #5.2 twice (the copy is #5.3)');
  });

  it('cancel on a Gemini CLI turn: the turn is named as its row shows it after the fault', () => {
    const r0 = parseTranscript(JSON.stringify(GEMINI_CLI));
    if (!r0.ok) throw new Error(r0.error.message);
    const g = r0.value.transcript;
    // Before: the turn and its stored results share raw index 1 (rows #1.1 and #1.2).
    expect(messageLabel(g.messages, 1)).toBe('#1.1');
    expect(messageLabel(g.messages, 2)).toBe('#1.2');
    const r = applyFault(g, { kind: 'cancel', messageIndex: 1 });
    if (!r.ok) throw new Error(r.error);
    // The results never happened: the turn is alone with raw index 1, its row shows #1.
    const label = rowLabelOf(r.value.transcript, g.messages[1] as Message);
    expect(label).toBe('#1');
    expect(r.value.description).toContain(`the assistant turn (message ${label}) was stored`);
  });

  it('drop: the removed message by the label its row showed', () => {
    const r = applyFault(t, { kind: 'drop', messageIndex: 3 });
    if (!r.ok) throw new Error(r.error);
    expect(r.value.description).toMatch(/^Message #3 \(assistant\) was dropped/);
  });

  it('errors name the message by its row label (a split Gemini CLI message)', () => {
    const r0 = parseTranscript(JSON.stringify(GEMINI_CLI));
    if (!r0.ok) throw new Error(r0.error.message);
    const r = applyFault(r0.value.transcript, { kind: 'retry', messageIndex: 2 });
    expect(r).toEqual({ ok: false, error: 'Message #1.2 is not an assistant message.' });
    expect(applyFault(t, { kind: 'drop', messageIndex: 99 })).toEqual({
      ok: false,
      error: 'There is no message at position 99.',
    });
  });
});

describe('lost-meaning notes use the row labels', () => {
  it('a repeated call after an eviction, where raw indices repeat (#0.2, #1.2)', () => {
    // Two of ours per source message (as a split log gives): raw 0,0,1,1,2,2.
    const base = transcript('anthropic-messages', [
      user('Read src/a.ts.'),
      assistant(call('t1', 'read_file', { path: 'src/a.ts' })),
      user(result('t1', 'export const a = 1;')),
      assistant('Read it.'),
      user('Again please.'),
      assistant(call('t2', 'read_file', { path: 'src/a.ts' })),
    ]);
    const t: Transcript = {
      ...base,
      messages: base.messages.map((m, i) => ({ ...m, rawIndex: Math.floor(i / 2) })),
    };
    const lm = findLostMeaning(t, [3, 4, 5], [0, 1, 2]);
    const rep = lm.marks.find((m) => m.kind === 'repeated_call');
    if (!rep || rep.kind !== 'repeated_call') throw new Error('no repeated call');
    expect(rep.label).toBe(messageLabel(t.messages, rep.messageIndex));
    expect(rep.label).toBe('#2.2');
    const callRow = messageLabel(t.messages, rep.earlier.messageIndex);
    const resultRow = messageLabel(t.messages, rep.evictedResultIndex);
    expect([callRow, resultRow]).toEqual(['#0.2', '#1.1']);
    expect(rep.note).toContain(
      `the call in message ${callRow}, whose result (message ${resultRow}) was evicted`,
    );
  });
});
