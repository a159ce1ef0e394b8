import { isPinned } from './exchanges.ts';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { INVOICE_ANTHROPIC, INVOICE_OPENAI, load } from './faults.fixtures.ts';
import { applyFault, faultTargets, type FaultSpec } from './faults.ts';
import { parseTranscript } from './parse/index.ts';
import { pairToolCalls } from './pairing.ts';
import { repairTranscript, UNREPAIRABLE_NOTES, type RepairResult } from './repair.ts';
import {
  arbTranscript,
  arbValidTranscript,
  assistant,
  call,
  result,
  transcript,
  user,
} from './testing.ts';
import type { Message, ProviderId, Transcript } from './types.ts';
import { validateTranscript } from './validate/index.ts';
import { writeTranscript } from './write.ts';

function fault(t: Transcript, spec: FaultSpec): Transcript {
  const r = applyFault(t, spec);
  if (!r.ok) throw new Error(r.error);
  return r.value.transcript;
}

function keyOf(t: Transcript, id: string): string {
  const p = pairToolCalls(t.messages).find((q) => q.id === id && q.call !== null);
  if (!p) throw new Error(`no pair ${id}`);
  return p.key;
}

/**
 * The repair contract: the result validates, every output message is either an input message
 * (same object) or a new one (raw undefined), and every input message the changes do not name
 * is still there, as the same object.
 */
function expectRepaired(input: Transcript, r: RepairResult, provider: ProviderId): void {
  if (validateTranscript(input, provider).violations.some((v) => v.rule === 'empty_request')) {
    // A fault that truncated every message leaves an empty request (A14, O8, G8): nothing to
    // repair without inventing a message, and the repair says so.
    expect(r.unrepaired.map((u) => u.rule)).toEqual(['empty_request']);
    expect(r.unrepaired[0]?.note).toMatch(/does not invent/);
    expect(r.transcript.messages).toEqual(input.messages);
    return;
  }
  expect(r.unrepaired).toEqual([]);
  expect(validateTranscript(r.transcript, provider).valid).toBe(true);
  const inputs = new Set(input.messages);
  for (const m of r.transcript.messages) if (!inputs.has(m)) expect(m.raw).toBeUndefined();
  const touched = new Set(r.changes.flatMap((c) => c.replaced));
  const out = new Set(r.transcript.messages);
  input.messages.forEach((m, i) => {
    if (!touched.has(i))
      expect(out.has(m), `message ${i} untouched by the repair must stay`).toBe(true);
  });
}

/** Write the repaired transcript back in its format, parse it again, and validate. */
function expectRoundTrip(r: RepairResult, provider: ProviderId): void {
  const text = writeTranscript(r.transcript);
  const back = parseTranscript(text, { format: r.transcript.format });
  expect(back.ok).toBe(true);
  if (back.ok) expect(validateTranscript(back.value.transcript, provider).valid).toBe(true);
}

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

describe('repair of broken transcripts rebuilt from the reported cases', () => {
  it('orphan result after a trim (cases 01, 06): the leading partial exchange is dropped as a unit', () => {
    const t = load({
      messages: [
        { role: 'tool', tool_call_id: 'call_w1', content: '{"temp_c": 18}' },
        { role: 'assistant', content: 'It is 18 °C.' },
        { role: 'user', content: 'Should I take an umbrella?' },
        { role: 'assistant', content: 'Probably not.' },
        { role: 'user', content: 'And tomorrow?' },
      ],
    });
    const r = repairTranscript(t, 'openai-chat');
    expectRepaired(t, r, 'openai-chat');
    expect(r.changes).toMatchObject([
      {
        kind: 'exchange_removed',
        messageIndex: 0,
        outputIndex: null,
        replaced: [0, 1],
        ids: ['call_w1'],
      },
    ]);
    expect(r.transcript.messages).toEqual(t.messages.slice(2));
  });

  it('orphan result with a system message kept first (case 03): the system message stays', () => {
    const t = load({
      messages: [
        { role: 'system', content: 'You can calculate.' },
        { role: 'tool', tool_call_id: 'call_c1', content: '21' },
        { role: 'assistant', content: '3 times 7 is 21.' },
        { role: 'user', content: 'Divide by 3.' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_c2', type: 'function', function: { name: 'calc', arguments: '{}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_c2', content: '7' },
      ],
    });
    const r = repairTranscript(t, 'openai-chat');
    expectRepaired(t, r, 'openai-chat');
    expect(r.transcript.messages.map((m) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
    ]);
  });

  it('an orphan in the only exchange is removed on its own', () => {
    const t = load({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_x', content: 'ok' },
            { type: 'text', text: 'Go on.' },
          ],
        },
      ],
    });
    const r = repairTranscript(t, 'anthropic');
    expectRepaired(t, r, 'anthropic');
    expect(r.changes).toMatchObject([{ kind: 'orphan_removed', ids: ['toolu_x'] }]);
    expect(r.transcript.messages[0]?.blocks).toEqual([{ type: 'text', text: 'Go on.' }]);
  });

  it('a dropped error output (case 10): an error result next to the sibling result', () => {
    const t = load({
      messages: [
        { role: 'user', content: 'Fetch the page and read CHANGELOG.md.' },
        {
          role: 'assistant',
          content: [
            {
              type: 'tool_use',
              id: 'toolu_a',
              name: 'fetch_url',
              input: { url: 'https://example.test' },
            },
            { type: 'text', text: 'And the changelog.' },
            { type: 'tool_use', id: 'toolu_b', name: 'read_file', input: { path: 'CHANGELOG.md' } },
          ],
        },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'toolu_b', content: '## 2.4.0' }],
        },
      ],
    });
    const r = repairTranscript(t, 'anthropic');
    expectRepaired(t, r, 'anthropic');
    // The interleaved text after toolu_a is moved in front of the calls too (A5).
    expect(r.changes).toMatchObject([
      { kind: 'error_result_added', ids: ['toolu_a'], messageIndex: 1, outputIndex: 2 },
      { kind: 'text_moved', ids: ['toolu_a'], messageIndex: 1, outputIndex: 1 },
    ]);
    const out = r.transcript.messages[1]?.blocks.map((b) => b.type);
    expect(out).toEqual(['text', 'tool_use', 'tool_use']);
  });

  it('text before the tool results (A3): the text is moved after them', () => {
    const t = load({
      messages: [
        { role: 'user', content: 'Read a.ts.' },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'toolu_r', name: 'read', input: { path: 'a.ts' } }],
        },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Here you go:' },
            { type: 'tool_result', tool_use_id: 'toolu_r', content: 'export {}' },
          ],
        },
      ],
    });
    expect(validateTranscript(t, 'anthropic').violations[0]?.rule).toBe('tool_result_not_first');
    const r = repairTranscript(t, 'anthropic');
    expectRepaired(t, r, 'anthropic');
    expect(r.changes.map((c) => c.kind)).toEqual(['text_moved']);
    expect(r.transcript.messages[2]?.blocks.map((b) => b.type)).toEqual(['tool_result', 'text']);
  });

  it('split parallel results with an image between (merged into [A, image, B]): B is merged into the first message', () => {
    const t = load({
      messages: [
        { role: 'user', content: 'Screenshot and read.' },
        {
          role: 'assistant',
          content: [
            { type: 'tool_use', id: 'toolu_s', name: 'screenshot', input: {} },
            { type: 'tool_use', id: 'toolu_r', name: 'read', input: {} },
          ],
        },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_s', content: 'taken' },
            { type: 'image', source: { type: 'base64', media_type: 'image/png', data: 'AAAA' } },
          ],
        },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'toolu_r', content: 'text' }],
        },
      ],
    });
    const before = validateTranscript(t, 'anthropic');
    expect(before.valid).toBe(false);
    const r = repairTranscript(t, 'anthropic');
    expectRepaired(t, r, 'anthropic');
    expect(r.changes.map((c) => c.kind)).toEqual(['results_merged']);
    expect(r.changes[0]?.replaced).toEqual([2, 3]);
    expect(r.transcript.messages).toHaveLength(3);
    expect(r.transcript.messages[2]?.blocks.map((b) => b.type)).toEqual([
      'tool_result',
      'tool_result',
      'image',
    ]);
  });

  it('a result placed after a later turn is re-attached to its call', () => {
    const t = load({
      messages: [
        { role: 'user', content: 'List files.' },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'toolu_l', name: 'ls', input: {} }],
        },
        { role: 'user', content: 'Hurry up.' },
        { role: 'assistant', content: 'Working on it.' },
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_l', content: 'a.ts b.ts' },
            { type: 'text', text: 'Done?' },
          ],
        },
      ],
    });
    const r = repairTranscript(t, 'anthropic');
    expectRepaired(t, r, 'anthropic');
    expect(r.changes.map((c) => c.kind)).toEqual(['result_reattached']);
    expect(r.transcript.messages[2]?.blocks.map((b) => b.type)).toEqual(['tool_result', 'text']);
    expect(r.transcript.messages[4]?.blocks).toEqual([{ type: 'text', text: 'Done?' }]);
  });

  it('duplicate results are collapsed to one', () => {
    const t = load({
      messages: [
        { role: 'user', content: 'Go.' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_d', type: 'function', function: { name: 'f', arguments: '{}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_d', content: 'first' },
        { role: 'tool', tool_call_id: 'call_d', content: 'again' },
      ],
    });
    expect(validateTranscript(t, 'openai-chat').violations.map((v) => v.rule)).toEqual([
      'duplicate_tool_result',
    ]);
    const r = repairTranscript(t, 'openai-chat');
    expectRepaired(t, r, 'openai-chat');
    expect(r.changes.map((c) => c.kind)).toEqual(['duplicate_result_removed']);
    expect(r.transcript.messages).toEqual(t.messages.slice(0, 3));
    expect(validateTranscript(r.transcript, 'openai-chat').violations).toEqual([]);
  });

  it('a repeated call id in a different turn: only the repeated call is removed', () => {
    const t = load({
      messages: [
        { role: 'user', content: 'Go.' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_d', name: 'f', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_d', content: 'ok' }] },
        {
          role: 'assistant',
          content: [
            { type: 'text', text: 'Again.' },
            { type: 'tool_use', id: 'toolu_d', name: 'f', input: { x: 1 } },
          ],
        },
        { role: 'user', content: 'Stop.' },
      ],
    });
    const r = repairTranscript(t, 'anthropic');
    expectRepaired(t, r, 'anthropic');
    expect(r.changes.map((c) => c.kind)).toEqual(['duplicate_call_removed']);
    expect(r.transcript.messages[3]?.blocks).toEqual([{ type: 'text', text: 'Again.' }]);
  });

  it('empty messages and whitespace-only text blocks are removed', () => {
    const t = load({
      messages: [
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Hi' },
            { type: 'text', text: '  ' },
          ],
        },
        { role: 'assistant', content: [] },
        { role: 'user', content: 'Still there?' },
        { role: 'assistant', content: 'Yes.' },
      ],
    });
    const r = repairTranscript(t, 'anthropic');
    expectRepaired(t, r, 'anthropic');
    expect(r.changes.map((c) => c.kind).sort()).toEqual(['empty_removed', 'empty_removed']);
  });

  it('a tool message with stray text around its result (OpenAI): the text goes into the result', () => {
    const t = load({
      messages: [
        { role: 'user', content: 'Go.' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_s', type: 'function', function: { name: 'f', arguments: '{}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_s', content: 'done' },
      ],
    });
    const m = t.messages[2] as Message;
    const broken: Transcript = {
      ...t,
      messages: [
        t.messages[0] as Message,
        t.messages[1] as Message,
        { ...m, raw: undefined, blocks: [{ type: 'text', text: 'Note:' }, ...m.blocks] },
      ],
    };
    expect(validateTranscript(broken, 'openai-chat').valid).toBe(false);
    const r = repairTranscript(broken, 'openai-chat');
    expectRepaired(broken, r, 'openai-chat');
    expect(r.transcript.messages[2]?.blocks).toEqual([
      {
        type: 'tool_result',
        toolUseId: 'call_s',
        isError: false,
        content: [
          { type: 'text', text: 'done' },
          { type: 'text', text: 'Note:' },
        ],
      },
    ]);
  });

  it('a stripped thinking block (case 15) is explained, not faked', () => {
    const t = load({
      model: 'claude-sonnet-4-5',
      max_tokens: 2048,
      thinking: { type: 'enabled', budget_tokens: 1024 },
      tools: [{ name: 'get_weather', input_schema: { type: 'object' } }],
      messages: [
        { role: 'user', content: 'Weather in Oslo?' },
        {
          role: 'assistant',
          content: [
            { type: 'tool_use', id: 'toolu_w', name: 'get_weather', input: { city: 'Oslo' } },
          ],
        },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'toolu_w', content: '4 °C' }],
        },
      ],
    });
    const r = repairTranscript(t, 'anthropic');
    expect(r.validation.valid).toBe(false);
    expect(r.changes).toEqual([]);
    expect(r.unrepaired).toHaveLength(1);
    expect(r.unrepaired[0]).toMatchObject({
      rule: 'thinking_missing',
      code: 'T1',
      note: UNREPAIRABLE_NOTES.thinking_missing,
    });
    expect(r.unrepaired[0]?.message).toContain('preceeding the lastmost set');
    r.transcript.messages.forEach((m, i) => expect(m).toBe(t.messages[i]));
  });

  it('a lost reasoning item (case 14): the item is replayed without its server id, and the loss is said', () => {
    const t = load({
      model: 'o3',
      store: true,
      input: [
        { type: 'message', role: 'user', content: 'Status of order 1042?' },
        {
          type: 'function_call',
          id: 'fc_1',
          call_id: 'call_o1',
          name: 'get_order',
          arguments: '{"id":"1042"}',
        },
        { type: 'function_call_output', call_id: 'call_o1', output: '{"status":"shipped"}' },
        {
          type: 'message',
          role: 'assistant',
          id: 'msg_1',
          content: [{ type: 'output_text', text: 'It shipped.' }],
        },
      ],
    });
    expect(t.format).toBe('openai-responses');
    const r = repairTranscript(t, 'openai-responses');
    expectRepaired(t, r, 'openai-responses');
    expect(r.changes.map((c) => [c.kind, c.ids[0]])).toEqual([
      ['item_id_dropped', 'fc_1'],
      ['item_id_dropped', 'msg_1'],
    ]);
    expect(r.changes[0]?.note).toMatch(/cannot be rebuilt/);
    expect(writeTranscript(r.transcript)).not.toContain('fc_1');
  });
});

describe('repair properties', () => {
  for (const format of ['anthropic-messages', 'openai-chat'] as const) {
    const provider: ProviderId = format === 'anthropic-messages' ? 'anthropic' : 'openai-chat';

    it(`any fault injected into a valid ${format} transcript repairs to a valid one`, () => {
      fc.assert(
        fc.property(arbValidTranscript(format), fc.nat(), (t, pick) => {
          const targets = faultTargets(t);
          fc.pre(targets.length > 0);
          const spec = targets[pick % targets.length] as FaultSpec;
          const f = applyFault(t, spec);
          if (!f.ok) throw new Error(`faultTargets offered a fault that does not fit: ${f.error}`);
          const r = repairTranscript(f.value.transcript, provider);
          expectRepaired(f.value.transcript, r, provider);
        }),
        { numRuns: 200 },
      );
    }, 30_000);

    it(`two stacked faults on a valid ${format} transcript still repair to a valid one`, () => {
      fc.assert(
        fc.property(arbValidTranscript(format), fc.nat(), fc.nat(), (t, a, b) => {
          const t1 = faultTargets(t);
          fc.pre(t1.length > 0);
          const f1 = applyFault(t, t1[a % t1.length] as FaultSpec);
          if (!f1.ok) throw new Error(f1.error);
          const t2 = faultTargets(f1.value.transcript);
          fc.pre(t2.length > 0);
          const f2 = applyFault(f1.value.transcript, t2[b % t2.length] as FaultSpec);
          if (!f2.ok) throw new Error(f2.error);
          const r = repairTranscript(f2.value.transcript, provider);
          expectRepaired(f2.value.transcript, r, provider);
        }),
        { numRuns: 150 },
      );
    }, 30_000);

    it(`repairing an arbitrarily broken ${format} transcript (no thinking, no prefill rules in play) gives a valid one`, () => {
      fc.assert(
        fc.property(arbTranscript(format), (t) => {
          const r = repairTranscript(t, provider);
          if (t.messages.every(isPinned)) {
            // Nothing sent at all: only the empty request is left, explained (A14, O8).
            expect(r.unrepaired.map((u) => u.rule)).toEqual(
              t.messages.length === 0 || provider === 'anthropic' ? ['empty_request'] : [],
            );
            return;
          }
          if (r.transcript.messages.every(isPinned)) {
            // Nothing valid was left to keep (only orphan results, say): the empty request is
            // the one thing left, explained, not a request passed off as valid (A14, O8).
            expect(r.unrepaired.map((u) => u.rule)).toEqual(
              r.transcript.messages.length === 0 || provider === 'anthropic'
                ? ['empty_request']
                : [],
            );
            return;
          }
          expect(r.unrepaired).toEqual([]);
          expect(r.validation.valid).toBe(true);
          const inputs = new Set(t.messages);
          for (const m of r.transcript.messages) if (!inputs.has(m)) expect(m.raw).toBeUndefined();
          // Repairing again changes nothing.
          const again = repairTranscript(r.transcript, provider);
          expect(again.changes).toEqual([]);
        }),
        { numRuns: 200 },
      );
    }, 30_000);
  }
});

describe('repair for the other providers rules', () => {
  it('Gemini G2: a history that starts with the model call (case 12) drops that leading exchange', () => {
    const t = load({
      contents: [
        {
          role: 'model',
          parts: [
            {
              functionCall: {
                id: 'gc_2',
                name: 'run_shell_command',
                args: { command: 'npm run build' },
              },
            },
          ],
        },
        {
          role: 'user',
          parts: [
            {
              functionResponse: {
                id: 'gc_2',
                name: 'run_shell_command',
                response: { output: 'ok' },
              },
            },
          ],
        },
        { role: 'model', parts: [{ text: 'The build passes.' }] },
        { role: 'user', parts: [{ text: 'Is the assistant stuck in a loop?' }] },
      ],
    });
    expect(t.format).toBe('gemini');
    expect(validateTranscript(t, 'gemini').violations[0]).toMatchObject({
      rule: 'role_order',
      code: 'G2',
    });
    const r = repairTranscript(t, 'gemini');
    expectRepaired(t, r, 'gemini');
    expect(r.changes).toMatchObject([{ kind: 'exchange_removed', replaced: [0, 1, 2] }]);
    expect(r.transcript.messages).toEqual([t.messages[3]]);
  });

  it('Bedrock B2: parallel results split over two user messages are merged into one', () => {
    const t = load({
      modelId: 'anthropic.claude-3-5-sonnet',
      toolConfig: { tools: [{ toolSpec: { name: 'f', inputSchema: { json: {} } } }] },
      messages: [
        { role: 'user', content: [{ text: 'Check both.' }] },
        {
          role: 'assistant',
          content: [
            { toolUse: { toolUseId: 'tooluse_a', name: 'f', input: {} } },
            { toolUse: { toolUseId: 'tooluse_b', name: 'f', input: {} } },
          ],
        },
        {
          role: 'user',
          content: [{ toolResult: { toolUseId: 'tooluse_a', content: [{ text: 'A' }] } }],
        },
        {
          role: 'user',
          content: [{ toolResult: { toolUseId: 'tooluse_b', content: [{ text: 'B' }] } }],
        },
      ],
    });
    expect(t.format).toBe('bedrock-converse');
    expect(validateTranscript(t, 'bedrock').valid).toBe(false);
    const r = repairTranscript(t, 'bedrock');
    expectRepaired(t, r, 'bedrock');
    expect(r.changes.map((c) => c.kind)).toEqual(['results_merged']);
    expect(r.transcript.messages).toHaveLength(3);
    expectRoundTrip(r, 'bedrock');
  });

  it('Bedrock B6: an error result with no content gets a short message', () => {
    const t = load({
      modelId: 'anthropic.claude-3-5-sonnet',
      toolConfig: { tools: [{ toolSpec: { name: 'f', inputSchema: { json: {} } } }] },
      messages: [
        { role: 'user', content: [{ text: 'Go.' }] },
        {
          role: 'assistant',
          content: [{ toolUse: { toolUseId: 'tooluse_e', name: 'f', input: {} } }],
        },
        {
          role: 'user',
          content: [{ toolResult: { toolUseId: 'tooluse_e', content: [], status: 'error' } }],
        },
      ],
    });
    expect(validateTranscript(t, 'bedrock').violations[0]?.rule).toBe('error_result_empty');
    const r = repairTranscript(t, 'bedrock');
    expectRepaired(t, r, 'bedrock');
    expect(r.changes.map((c) => c.kind)).toEqual(['error_result_filled']);
  });

  it('A12: a prefill that ends in whitespace is trimmed (older models accept the prefill itself)', () => {
    const t = load({
      model: 'claude-3-5-sonnet-20241022',
      max_tokens: 100,
      messages: [
        { role: 'user', content: 'Name a colour.' },
        { role: 'assistant', content: 'The colour is ' },
      ],
    });
    expect(validateTranscript(t, 'anthropic').violations[0]?.message).toBe(
      'messages: final assistant content cannot end with trailing whitespace',
    );
    const r = repairTranscript(t, 'anthropic');
    expectRepaired(t, r, 'anthropic');
    expect(r.changes.map((c) => c.kind)).toEqual(['whitespace_trimmed']);
    expect(r.transcript.messages[1]?.blocks).toEqual([{ type: 'text', text: 'The colour is' }]);
  });

  it('A12 on a model that refuses any prefill is explained, not repaired', () => {
    const t = load({
      model: 'claude-opus-4-6',
      max_tokens: 100,
      messages: [
        { role: 'user', content: 'Name a colour.' },
        { role: 'assistant', content: 'The colour is' },
      ],
    });
    const r = repairTranscript(t, 'anthropic');
    expect(r.unrepaired).toMatchObject([
      { rule: 'trailing_assistant', code: 'A12', note: UNREPAIRABLE_NOTES.trailing_assistant },
    ]);
    expect(r.changes).toEqual([]);
  });

  it('R5: a reasoning item whose output item is gone is removed', () => {
    const t = load({
      model: 'o3',
      input: [
        { type: 'message', role: 'user', content: 'Status of order 1042?' },
        { type: 'reasoning', id: 'rs_1', summary: [], encrypted_content: 'gAAAA' },
      ],
    });
    expect(validateTranscript(t, 'openai-responses').violations.map((v) => v.rule)).toContain(
      'reasoning_without_following',
    );
    const r = repairTranscript(t, 'openai-responses');
    expectRepaired(t, r, 'openai-responses');
    expect(r.changes.map((c) => c.kind)).toEqual(['reasoning_removed']);
  });

  it('R6: an item sent twice loses its second copy', () => {
    const t = load({
      model: 'o3',
      input: [
        { type: 'message', role: 'user', content: 'Status of order 1042?' },
        {
          type: 'function_call',
          id: 'fc_1',
          call_id: 'call_1',
          name: 'get_order',
          arguments: '{}',
        },
        {
          type: 'function_call',
          id: 'fc_1',
          call_id: 'call_1',
          name: 'get_order',
          arguments: '{}',
        },
        { type: 'function_call_output', call_id: 'call_1', output: 'shipped' },
      ],
    });
    expect(validateTranscript(t, 'openai-responses').violations.map((v) => v.rule)).toContain(
      'duplicate_item',
    );
    const r = repairTranscript(t, 'openai-responses');
    expectRepaired(t, r, 'openai-responses');
    expect(r.transcript.messages).toHaveLength(3);
  });
});

describe('repair properties for the other providers', () => {
  const others: ProviderId[] = ['bedrock', 'gemini', 'openai-responses', 'deepseek', 'qwen'];
  for (const provider of others) {
    it(`a fault injected into a transcript ${provider} accepts repairs to one it accepts`, () => {
      fc.assert(
        fc.property(
          fc
            .constantFrom('anthropic-messages' as const, 'openai-chat' as const)
            .chain((f) => arbValidTranscript(f)),
          fc.nat(),
          (t, pick) => {
            fc.pre(validateTranscript(t, provider).valid);
            const targets = faultTargets(t);
            fc.pre(targets.length > 0);
            const f = applyFault(t, targets[pick % targets.length] as FaultSpec);
            if (!f.ok) throw new Error(f.error);
            expectRepaired(
              f.value.transcript,
              repairTranscript(f.value.transcript, provider),
              provider,
            );
          },
        ),
        { numRuns: 100 },
      );
    }, 30_000);
  }

  it('Mistral: what stays broken is only the role order the repair will not invent a message for', () => {
    fc.assert(
      fc.property(arbValidTranscript('openai-chat'), fc.nat(), (t, pick) => {
        fc.pre(validateTranscript(t, 'mistral').valid);
        const targets = faultTargets(t);
        fc.pre(targets.length > 0);
        const f = applyFault(t, targets[pick % targets.length] as FaultSpec);
        if (!f.ok) throw new Error(f.error);
        const r = repairTranscript(f.value.transcript, 'mistral');
        for (const u of r.unrepaired) {
          expect(['role_order', 'trailing_assistant']).toContain(u.rule);
          expect(u.note).toBe(UNREPAIRABLE_NOTES[u.rule]);
        }
      }),
      { numRuns: 100 },
    );
  }, 30_000);
});

describe('repair where raw indices repeat', () => {
  it("Mistral tool → user: the leading exchange stays when the cause is a later message sharing a group member's raw index", () => {
    // A history cut mid-exchange: call, result, then the user's next question. The result and the
    // question share raw index 1 (as two of ours split from one source item do). Mistral refuses
    // `user` after `tool` at the question, which is not in the leading group.
    const distinct = transcript('anthropic-messages', [
      assistant(call('c1')),
      user(result('c1')),
      user('Next question.'),
      assistant('Answer.'),
      user('More.'),
    ]);
    const repeated: Transcript = {
      ...distinct,
      messages: distinct.messages.map((m, i) => (i === 2 ? { ...m, rawIndex: 1 } : m)),
    };
    const v = validateTranscript(repeated, 'mistral').violations[0];
    expect(v).toMatchObject({ rule: 'role_order', index: 2, messageIndex: 1, ids: [] });
    const r = repairTranscript(repeated, 'mistral');
    expect(r.changes).toEqual([]);
    expect(r.transcript.messages).toEqual(repeated.messages);
    expect(r.unrepaired.map((u) => u.rule)).toEqual(['role_order']);
    // As with distinct raw indices.
    const d = repairTranscript(distinct, 'mistral');
    expect(d.changes).toEqual([]);
    expect(d.unrepaired.map((u) => u.rule)).toEqual(['role_order']);
  });
});
