import { describe, expect, it } from 'vitest';
import { INVOICE_ANTHROPIC, INVOICE_OPENAI, load } from '../testing/faults.fixtures.ts';
import { repairTranscript } from '../repair.ts';
import type { Message } from '../types.ts';
import { writeTranscript } from '../write.ts';
import { expectRepaired, expectRoundTrip, fault, keyOf } from '../testing/repair.ts';

describe('repair after each fault (Anthropic)', () => {
  const t = load(INVOICE_ANTHROPIC);

  it('tool raised: an error result for the call, at the start of the next user message', () => {
    const f = fault(t, { kind: 'tool_raised', pairKey: keyOf(t, 'toolu_inv1') });
    const r = repairTranscript(f, 'anthropic');
    expectRepaired(f, r, 'anthropic');
    expect(r.changes).toHaveLength(1);
    expect(r.changes[0]).toMatchObject({
      kind: 'error_result_added',
      messageIndex: 1,
      outputIndex: 2,
      replaced: [2],
      ids: ['toolu_inv1'],
    });
    const answer = r.transcript.messages[2] as Message;
    expect(
      answer.blocks.map((b) => (b.type === 'tool_result' ? [b.toolUseId, b.isError] : b.type)),
    ).toEqual([
      ['toolu_cus1', false],
      ['toolu_inv1', true],
    ]);
    expect(r.transcript.messages).toHaveLength(8);
    expectRoundTrip(r, 'anthropic');
    expect(writeTranscript(r.transcript)).toContain('"is_error": true');
  });

  it('timeout of one parallel call: the same repair, naming the cause', () => {
    const f = fault(t, { kind: 'timeout', pairKey: keyOf(t, 'toolu_cus1') });
    const r = repairTranscript(f, 'anthropic');
    expectRepaired(f, r, 'anthropic');
    expect(r.changes[0]?.note).toMatch(/parallel siblings returned/);
  });

  it("cancel: error results for every call, before the user's next message text (case 08)", () => {
    const f = fault(t, { kind: 'cancel', messageIndex: 1 });
    const r = repairTranscript(f, 'anthropic');
    expectRepaired(f, r, 'anthropic');
    const next = r.transcript.messages[2] as Message;
    expect(next.blocks.map((b) => b.type)).toEqual(['tool_result', 'tool_result', 'text']);
    expect(r.changes.map((c) => c.kind)).toEqual(['error_result_added', 'error_result_added']);
    expect(r.changes[0]?.note).toMatch(/interrupted/);
    expectRoundTrip(r, 'anthropic');
  });

  it('retry: the replayed copy is removed, the original object stays', () => {
    const f = fault(t, { kind: 'retry', messageIndex: 1 });
    const r = repairTranscript(f, 'anthropic');
    expectRepaired(f, r, 'anthropic');
    expect(r.changes.map((c) => c.kind)).toEqual(['replayed_turn_removed']);
    expect(r.transcript.messages).toEqual(t.messages);
    r.transcript.messages.forEach((m, i) => expect(m).toBe(t.messages[i]));
  });

  it('trailing truncation: the trailing call gets an error result in a new user message', () => {
    const f = fault(t, { kind: 'truncate', count: 2 });
    const r = repairTranscript(f, 'anthropic');
    expectRepaired(f, r, 'anthropic');
    const last = r.transcript.messages[r.transcript.messages.length - 1] as Message;
    expect(last).toMatchObject({ role: 'user', raw: undefined, index: 6 });
    expect(r.changes[0]).toMatchObject({
      kind: 'error_result_added',
      messageIndex: 5,
      outputIndex: 6,
    });
    expectRoundTrip(r, 'anthropic');
  });

  it("a dropped call turn (the lesson's step two): its orphaned results are removed", () => {
    const f = fault(t, { kind: 'drop', messageIndex: 1 });
    const r = repairTranscript(f, 'anthropic');
    expectRepaired(f, r, 'anthropic');
    expect(r.changes.map((c) => c.kind)).toEqual(['orphan_removed', 'orphan_removed']);
    expect(r.transcript.messages).toEqual([t.messages[0], ...t.messages.slice(3)]);
  });

  it('leaves a valid transcript alone', () => {
    const r = repairTranscript(t, 'anthropic');
    expect(r.changes).toEqual([]);
    expect(r.transcript.messages).toEqual(t.messages);
    r.transcript.messages.forEach((m, i) => expect(m).toBe(t.messages[i]));
  });
});

describe('repair after each fault (OpenAI Chat)', () => {
  const t = load(INVOICE_OPENAI);

  it('tool raised: a tool message with the error, inside the tool run', () => {
    const f = fault(t, { kind: 'tool_raised', pairKey: keyOf(t, 'call_inv1') });
    const r = repairTranscript(f, 'openai-chat');
    expectRepaired(f, r, 'openai-chat');
    expect(r.transcript.messages.map((m) => m.role).slice(2, 6)).toEqual([
      'assistant',
      'tool',
      'tool',
      'assistant',
    ]);
    const text = writeTranscript(r.transcript);
    expect(text).toContain('"tool_call_id": "call_inv1"');
    expectRoundTrip(r, 'openai-chat');
  });

  it('cancel: tool messages before the next user message', () => {
    const f = fault(t, { kind: 'cancel', messageIndex: 2 });
    const r = repairTranscript(f, 'openai-chat');
    expectRepaired(f, r, 'openai-chat');
    expect(r.transcript.messages.map((m) => m.role).slice(2, 6)).toEqual([
      'assistant',
      'tool',
      'tool',
      'user',
    ]);
    expectRoundTrip(r, 'openai-chat');
  });

  it('retry: the copy is removed (duplicate ids are fixed first, not papered over with error results)', () => {
    const f = fault(t, { kind: 'retry', messageIndex: 2 });
    const r = repairTranscript(f, 'openai-chat');
    expectRepaired(f, r, 'openai-chat');
    expect(r.changes.map((c) => c.kind)).toEqual(['replayed_turn_removed']);
    expect(r.transcript.messages).toHaveLength(t.messages.length);
  });

  it('truncation inside a tool run: the missing sibling gets an error result', () => {
    const f = fault(t, { kind: 'truncate', count: 6 });
    const r = repairTranscript(f, 'openai-chat');
    expectRepaired(f, r, 'openai-chat');
    expect(r.changes).toMatchObject([{ kind: 'error_result_added', ids: ['call_cus1'] }]);
  });
});
