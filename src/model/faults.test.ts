import { describe, expect, it } from 'vitest';
import {
  applyFault,
  applyFaults,
  DEFAULT_CANCEL_TEXT,
  faultTargets,
  reindexForView,
  type FaultSpec,
} from './faults.ts';
import { pairToolCalls } from './pairing.ts';
import { INVOICE_ANTHROPIC, INVOICE_OPENAI, load } from './testing/faults.fixtures.ts';
import type { Message, Transcript } from './types.ts';
import { validateTranscript } from './validate/index.ts';

function apply(t: Transcript, spec: FaultSpec) {
  const r = applyFault(t, spec);
  if (!r.ok) throw new Error(r.error);
  return r.value;
}

function keyOf(t: Transcript, id: string): string {
  const p = pairToolCalls(t.messages).find((q) => q.id === id && q.call !== null);
  if (!p) throw new Error(`no pair ${id}`);
  return p.key;
}

/** Input messages that appear (same object) in the output. */
function kept(before: Transcript, after: Transcript): Message[] {
  const s = new Set(after.messages);
  return before.messages.filter((m) => s.has(m));
}

describe('faults on an Anthropic transcript', () => {
  const t = load(INVOICE_ANTHROPIC);

  it('starts valid', () => {
    expect(validateTranscript(t, 'anthropic').valid).toBe(true);
  });

  it('tool raised: drops one result, the call is left unanswered (A2, partial)', () => {
    const f = apply(t, { kind: 'tool_raised', pairKey: keyOf(t, 'toolu_inv1') });
    expect(f.description).toContain('search_invoices');
    expect(f.transcript.messages).toHaveLength(8);
    const changed = f.transcript.messages[2] as Message;
    expect(changed.raw).toBeUndefined();
    expect(changed.blocks.map((b) => (b.type === 'tool_result' ? b.toolUseId : b.type))).toEqual([
      'toolu_cus1',
    ]);
    expect(kept(t, f.transcript)).toHaveLength(7);
    const v = validateTranscript(f.transcript, 'anthropic');
    expect(v.valid).toBe(false);
    expect(v.violations[0]).toMatchObject({
      rule: 'partial_answer',
      code: 'A2',
      ids: ['toolu_inv1'],
    });
    expect(v.violations[0]?.message).toBe(
      'messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_inv1. Each `tool_use` block must have a corresponding `tool_result` block in the next message.',
    );
  });

  it('tool raised on the only result of a turn removes the whole result message', () => {
    const f = apply(t, { kind: 'tool_raised', pairKey: keyOf(t, 'toolu_rem1') });
    expect(f.transcript.messages).toHaveLength(7);
    expect(kept(t, f.transcript)).toHaveLength(7);
    // The call turn and the final text merge into one assistant message that ends the request.
    const v = validateTranscript(f.transcript, 'anthropic');
    expect(v.violations[0]).toMatchObject({ rule: 'trailing_tool_use', ids: ['toolu_rem1'] });
  });

  it('timeout of one parallel call keeps the sibling result', () => {
    const f = apply(t, { kind: 'timeout', pairKey: keyOf(t, 'toolu_cus1') });
    expect(f.description).toMatch(
      /timed out; only the results of its 1 parallel sibling were appended/,
    );
    const v = validateTranscript(f.transcript, 'anthropic');
    expect(v.violations[0]).toMatchObject({ rule: 'partial_answer', ids: ['toolu_cus1'] });
  });

  it('timeout needs siblings', () => {
    const r = applyFault(t, { kind: 'timeout', pairKey: keyOf(t, 'toolu_rem1') });
    expect(r.ok).toBe(false);
  });

  it("cancel mid-turn: the turn stays, its results and the rest of the exchange go, the user's next message follows", () => {
    const f = apply(t, { kind: 'cancel', messageIndex: 1 });
    expect(f.transcript.messages.map((m) => m.role)).toEqual([
      'user',
      'assistant',
      'user',
      'assistant',
      'user',
      'assistant',
    ]);
    expect(f.transcript.messages[2]).toBe(t.messages[4]);
    expect(kept(t, f.transcript)).toHaveLength(6);
    const v = validateTranscript(f.transcript, 'anthropic');
    expect(v.violations[0]).toMatchObject({
      rule: 'unanswered_tool_use',
      code: 'A2',
      ids: ['toolu_inv1', 'toolu_cus1'],
    });
  });

  it('cancel in the last exchange appends a new user message', () => {
    const f = apply(t, { kind: 'cancel', messageIndex: 5 });
    const last = f.transcript.messages[f.transcript.messages.length - 1] as Message;
    expect(last.role).toBe('user');
    expect(last.raw).toBeUndefined();
    expect(last.index).toBe(6);
    expect(last.blocks).toEqual([{ type: 'text', text: DEFAULT_CANCEL_TEXT }]);
    expect(validateTranscript(f.transcript, 'anthropic').violations[0]).toMatchObject({
      rule: 'unanswered_tool_use',
      ids: ['toolu_rem1'],
    });
  });

  it('retry stores the assistant message twice: duplicate tool_use ids (A6)', () => {
    const f = apply(t, { kind: 'retry', messageIndex: 1 });
    expect(f.transcript.messages).toHaveLength(9);
    expect(f.transcript.messages[1]).toBe(t.messages[1]);
    expect(f.transcript.messages[2]?.raw).toBeUndefined();
    expect(f.transcript.messages[2]?.blocks).toEqual(t.messages[1]?.blocks);
    const v = validateTranscript(f.transcript, 'anthropic');
    expect(v.valid).toBe(false);
    expect(v.violations[0]).toMatchObject({
      rule: 'duplicate_tool_use_id',
      code: 'A6',
      ids: ['toolu_inv1'],
    });
    expect(v.violations[0]?.message).toBe('messages.1.content.4: `tool_use` ids must be unique');
  });

  it('trailing truncation drops the last N messages', () => {
    const f = apply(t, { kind: 'truncate', count: 2 });
    expect(f.transcript.messages).toEqual(t.messages.slice(0, 6));
    expect(validateTranscript(f.transcript, 'anthropic').violations[0]).toMatchObject({
      rule: 'trailing_tool_use',
      ids: ['toolu_rem1'],
    });
  });

  it('drop removes one message, as a naive trim does: the results of its calls are orphaned (A1)', () => {
    const f = apply(t, { kind: 'drop', messageIndex: 1 });
    expect(f.transcript.messages).toEqual([t.messages[0], ...t.messages.slice(2)]);
    const v = validateTranscript(f.transcript, 'anthropic');
    expect(v.violations[0]).toMatchObject({
      rule: 'orphan_tool_result',
      code: 'A1',
      ids: ['toolu_inv1'],
      providerPath: 'messages.0.content.1',
    });
    expect(applyFault(t, { kind: 'drop', messageIndex: 8 }).ok).toBe(false);
  });

  it('reindexForView numbers rows by position without touching the model transcript', () => {
    const f = apply(t, { kind: 'drop', messageIndex: 1 });
    expect(f.transcript.messages[1]?.index).toBe(2); // identity kept: the source's index
    const v = reindexForView(f.transcript);
    expect(v.messages.map((m) => m.index)).toEqual([0, 1, 2, 3, 4, 5, 6]);
    expect(v.messages[0]).toBe(f.transcript.messages[0]);
    expect(v.messages[1]?.raw).toBe(f.transcript.messages[1]?.raw);
    expect(reindexForView(t)).toBe(t);
  });

  it('rejects targets that do not fit', () => {
    expect(applyFault(t, { kind: 'tool_raised', pairKey: 'p99' }).ok).toBe(false);
    expect(applyFault(t, { kind: 'cancel', messageIndex: 0 }).ok).toBe(false);
    expect(applyFault(t, { kind: 'retry', messageIndex: 2 }).ok).toBe(false);
    expect(applyFault(t, { kind: 'truncate', count: 0 }).ok).toBe(false);
    expect(applyFault(t, { kind: 'truncate', count: 99 }).ok).toBe(false);
  });

  it('does not change its input', () => {
    const before = JSON.stringify(t.messages);
    for (const s of faultTargets(t)) applyFault(t, s);
    expect(JSON.stringify(t.messages)).toBe(before);
  });

  it('lists the faults that fit', () => {
    const kinds = faultTargets(t).map((s) => s.kind);
    expect(kinds.filter((k) => k === 'tool_raised')).toHaveLength(3);
    expect(kinds.filter((k) => k === 'timeout')).toHaveLength(2);
    expect(kinds.filter((k) => k === 'cancel')).toHaveLength(2);
    expect(kinds.filter((k) => k === 'retry')).toHaveLength(2);
    expect(kinds.filter((k) => k === 'truncate')).toHaveLength(3);
  });

  it('applies a stack of faults in order and stops at the first that does not fit', () => {
    const r = applyFaults(t, [
      { kind: 'truncate', count: 1 },
      { kind: 'tool_raised', pairKey: keyOf(t, 'toolu_inv1') },
    ]);
    expect(r.error).toBeNull();
    expect(r.descriptions).toHaveLength(2);
    expect(r.transcript.messages).toHaveLength(7);
    const bad = applyFaults(t, [
      { kind: 'truncate', count: 1 },
      { kind: 'cancel', messageIndex: 0 },
      { kind: 'truncate', count: 1 },
    ]);
    expect(bad.error).toMatch(/not an assistant turn/);
    expect(bad.descriptions).toHaveLength(1);
  });
});

describe('faults on an OpenAI Chat transcript', () => {
  const t = load(INVOICE_OPENAI);

  it('starts valid', () => {
    expect(validateTranscript(t, 'openai-chat').valid).toBe(true);
  });

  it('tool raised removes the tool message: O2 lists the missing id', () => {
    const f = apply(t, { kind: 'tool_raised', pairKey: keyOf(t, 'call_inv1') });
    expect(f.transcript.messages).toHaveLength(9);
    expect(kept(t, f.transcript)).toHaveLength(9);
    const v = validateTranscript(f.transcript, 'openai-chat');
    expect(v.violations[0]).toMatchObject({
      rule: 'partial_answer',
      code: 'O2',
      ids: ['call_inv1'],
    });
    expect(v.violations[0]?.message).toBe(
      "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: call_inv1",
    );
  });

  it('cancel: the next user message follows the tool_calls message', () => {
    const f = apply(t, { kind: 'cancel', messageIndex: 2 });
    expect(f.transcript.messages.map((m) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'user',
      'assistant',
      'tool',
      'assistant',
    ]);
    const v = validateTranscript(f.transcript, 'openai-chat');
    expect(v.violations[0]).toMatchObject({
      rule: 'unanswered_tool_use',
      ids: ['call_inv1', 'call_cus1'],
      providerPath: 'messages.[3].role',
    });
  });

  it('retry: the first copy is unanswered (O2), the ids repeat (warning)', () => {
    const f = apply(t, { kind: 'retry', messageIndex: 2 });
    const v = validateTranscript(f.transcript, 'openai-chat');
    expect(v.violations.map((x) => x.rule)).toEqual([
      'unanswered_tool_use',
      'duplicate_tool_use_id',
      'duplicate_tool_use_id',
    ]);
  });

  it('truncation that cuts inside a tool run leaves a partial answer', () => {
    const f = apply(t, { kind: 'truncate', count: 6 });
    expect(validateTranscript(f.transcript, 'openai-chat').violations[0]).toMatchObject({
      rule: 'partial_answer',
      ids: ['call_cus1'],
      providerPath: 'messages',
    });
  });
});
