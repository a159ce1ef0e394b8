import { describe, expect, it } from 'vitest';
import { parseDocument } from '../parse/index.ts';
import { assistant, call, result, transcript, user } from '../testing/index.ts';
import type { Transcript } from '../types.ts';
import { validateTranscript } from './index.ts';

function parsed(body: unknown): Transcript {
  const r = parseDocument({ kind: 'json', value: body }, { format: 'openai-responses' });
  if (!r.ok) throw new Error(r.error.message);
  return r.value.transcript;
}
const envelope = (message: string) => ({
  error: { message, type: 'invalid_request_error', param: 'input', code: null },
});
const errors = (t: Transcript, opts?: Parameters<typeof validateTranscript>[2]) =>
  validateTranscript(t, 'openai-responses', opts).violations.filter((v) => v.severity === 'error');

const userItem = (text: string) => ({ type: 'message', role: 'user', content: text });
const fc = (callId: string, id?: string) => ({
  type: 'function_call',
  call_id: callId,
  name: 'search_logs',
  arguments: '{"q":"502"}',
  ...(id ? { id } : {}),
});
const out = (callId: string) => ({ type: 'function_call_output', call_id: callId, output: 'ok' });

describe('openai-responses validator: one test per rule, exact text and envelope (R1–R7)', () => {
  it('R1: an output whose call_id has no function_call anywhere', () => {
    const [v] = errors(parsed({ input: [userItem('Check the logs.'), out('call_gone')] }));
    expect(v).toMatchObject({
      rule: 'orphan_tool_result',
      code: 'R1',
      messageIndex: 1,
      blockIndex: 0,
      ids: ['call_gone'],
      providerPath: 'input',
      status: 400,
    });
    expect(v?.error).toEqual(
      envelope('No tool call found for function call output with call_id call_gone.'),
    );
  });

  it('R2: a function_call with no output (unanswered, partial, trailing)', () => {
    const unanswered = errors(
      parsed({ input: [userItem('a'), fc('call_a'), userItem('never mind')] }),
    );
    expect(unanswered).toHaveLength(1);
    expect(unanswered[0]).toMatchObject({
      rule: 'unanswered_tool_use',
      code: 'R2',
      messageIndex: 1,
      ids: ['call_a'],
    });
    expect(unanswered[0]?.error).toEqual(
      envelope('No tool output found for function call call_a.'),
    );
    const partial = errors(
      parsed({
        input: [userItem('a'), fc('call_a'), fc('call_b'), out('call_a'), userItem('next')],
      }),
    );
    expect(partial.map((v) => [v.rule, v.messageIndex, v.ids])).toEqual([
      ['partial_answer', 2, ['call_b']],
    ]);
    const trailing = errors(parsed({ input: [userItem('a'), fc('call_a')] }));
    expect(trailing.map((v) => [v.rule, v.messageIndex, v.ids])).toEqual([
      ['trailing_tool_use', 1, ['call_a']],
    ]);
  });

  it('pairs by call_id, not adjacency: an output after unrelated items is accepted', () => {
    const t = parsed({
      input: [
        userItem('a'),
        fc('call_a'),
        {
          type: 'message',
          role: 'assistant',
          content: [{ type: 'output_text', text: 'Working on it.' }],
        },
        userItem('ok'),
        out('call_a'),
      ],
    });
    expect(errors(t)).toEqual([]);
    expect(validateTranscript(t, 'openai-responses').valid).toBe(true);
  });

  it('R3/R4: items with server ids replayed without their reasoning item', () => {
    const t = parsed({
      model: 'o3',
      reasoning: { effort: 'medium' },
      input: [
        userItem('a'),
        fc('call_a', 'fc_9'),
        out('call_a'),
        {
          type: 'message',
          role: 'assistant',
          id: 'msg_9',
          content: [{ type: 'output_text', text: 'Done.' }],
        },
      ],
    });
    const vs = errors(t);
    expect(vs.map((v) => [v.rule, v.code, v.messageIndex, v.ids])).toEqual([
      ['reasoning_missing', 'R3', 1, ['fc_9']],
      ['reasoning_missing', 'R4', 3, ['msg_9']],
    ]);
    expect(vs[0]?.error).toEqual(
      envelope(
        "Item 'fc_9' of type 'function_call' was provided without its required 'reasoning' item: 'rs_…'.",
      ),
    );
    expect(vs[1]?.message).toBe(
      "Item 'msg_9' of type 'message' was provided without its required 'reasoning' item: 'rs_…'.",
    );
  });

  it('R3/R4 do not apply to items without ids, nor when nothing shows a reasoning model', () => {
    expect(
      errors(
        parsed({
          model: 'o3',
          reasoning: { effort: 'high' },
          input: [userItem('a'), fc('call_a'), out('call_a')],
        }),
      ),
    ).toEqual([]);
    const plain = validateTranscript(
      parsed({ model: 'gpt-4.1', input: [userItem('a'), fc('call_a', 'fc_1'), out('call_a')] }),
      'openai-responses',
    );
    expect(plain.valid).toBe(true);
    expect(plain.notes.join(' ')).toMatch(/R3\/R4/);
  });

  it('R3: parallel calls share the reasoning item that precedes the first of them', () => {
    const t = parsed({
      input: [
        userItem('a'),
        { type: 'reasoning', id: 'rs_1', summary: [] },
        fc('call_a', 'fc_1'),
        fc('call_b', 'fc_2'),
        out('call_a'),
        out('call_b'),
      ],
    });
    expect(errors(t)).toEqual([]);
  });

  it('R5: a reasoning item with an id and nothing after it', () => {
    const vs = errors(
      parsed({
        input: [
          userItem('a'),
          { type: 'reasoning', id: 'rs_7', summary: [], encrypted_content: 'gAAA' },
        ],
      }),
    );
    expect(vs.map((v) => [v.rule, v.code, v.messageIndex, v.ids])).toEqual([
      ['reasoning_without_following', 'R5', 1, ['rs_7']],
    ]);
    expect(vs[0]?.error).toEqual(
      envelope("Item 'rs_7' of type 'reasoning' was provided without its required following item."),
    );
    // The same cut before a user message.
    expect(
      errors(
        parsed({
          input: [userItem('a'), { type: 'reasoning', id: 'rs_7', summary: [] }, userItem('b')],
        }),
      ).map((v) => v.rule),
    ).toEqual(['reasoning_without_following']);
  });

  it('R6: the same item id twice', () => {
    const vs = errors(
      parsed({
        input: [
          userItem('a'),
          { type: 'reasoning', id: 'rs_1', summary: [] },
          fc('call_a', 'fc_1'),
          out('call_a'),
          { type: 'reasoning', id: 'rs_1', summary: [] },
          { ...fc('call_b', 'fc_1') },
          out('call_b'),
        ],
      }),
    );
    expect(vs.map((v) => [v.rule, v.code, v.messageIndex, v.ids])).toEqual([
      ['duplicate_item', 'R6', 4, ['rs_1']],
      ['duplicate_item', 'R6', 5, ['fc_1']],
    ]);
    // The text as captured since 2026 (github/app#540; openai/openai-agents-python#1789).
    expect(vs[0]?.error).toEqual(
      envelope(
        'Duplicate item found with id rs_1. Remove duplicate items from your input and try again.',
      ),
    );
  });

  it('works on a transcript from another format (rendered into items) and on message subsets', () => {
    const t = transcript('anthropic-messages', [
      user('q'),
      assistant('Let me look.', call('toolu_1'), call('toolu_2')),
      user(result('toolu_1'), result('toolu_2')),
      assistant('done'),
    ]);
    expect(validateTranscript(t, 'openai-responses').valid).toBe(true);
    // Eviction keeps messages 0 and 2: the results lose their calls. messageIndex stays the raw index.
    const kept = [t.messages[0], t.messages[2]].filter((m) => m !== undefined);
    const vs = errors(t, { messages: kept });
    expect(vs.map((v) => [v.rule, v.messageIndex, v.blockIndex, v.ids])).toEqual([
      ['orphan_tool_result', 2, 0, ['toolu_1']],
      ['orphan_tool_result', 2, 1, ['toolu_2']],
    ]);
  });
});

/**
 * Our fixtures of reported cases 04, 09 and 14 (the corpus suite checks the cases themselves; content rewritten; structure and
 * verdict kept). The expected verdict is the case's.
 */
const FIXTURES: {
  name: string;
  body: unknown;
  expected: { rule: string; messageIndex: number; ids: string[]; message: string }[];
}[] = [
  {
    name: 'case 04: summarisation kept the outputs of a parallel fan-out but not the calls',
    body: {
      instructions: 'You audit firewall rules.',
      input: [
        {
          type: 'message',
          role: 'user',
          content: 'Summary so far: the assistant started reading three rule files.',
        },
        { type: 'function_call_output', call_id: 'call_fw2', output: 'allow 443 from 10.0.0.0/8' },
        { type: 'function_call_output', call_id: 'call_fw3', output: 'deny all from 0.0.0.0/0' },
      ],
    },
    expected: [
      {
        rule: 'orphan_tool_result',
        messageIndex: 1,
        ids: ['call_fw2'],
        message: 'No tool call found for function call output with call_id call_fw2.',
      },
      {
        rule: 'orphan_tool_result',
        messageIndex: 2,
        ids: ['call_fw3'],
        message: 'No tool call found for function call output with call_id call_fw3.',
      },
    ],
  },
  {
    name: 'case 09: the user interrupted a pending shell call and typed a new message',
    body: {
      model: 'o4-mini',
      input: [
        { type: 'message', role: 'user', content: 'Show the failing migrations.' },
        {
          type: 'function_call',
          call_id: 'call_mig1',
          name: 'shell',
          arguments: '{"command":["make","migrate-status"]}',
        },
        { type: 'message', role: 'user', content: 'Stop, run it against staging instead.' },
      ],
    },
    expected: [
      {
        rule: 'unanswered_tool_use',
        messageIndex: 1,
        ids: ['call_mig1'],
        message: 'No tool output found for function call call_mig1.',
      },
    ],
  },
  {
    name: 'case 14: memory replayed fc_/msg_ items without the reasoning items before them',
    body: {
      model: 'o3',
      reasoning: { effort: 'low' },
      store: true,
      input: [
        { type: 'message', role: 'user', content: 'Is invoice 77 paid?' },
        {
          type: 'function_call',
          id: 'fc_inv1',
          call_id: 'call_inv1',
          name: 'get_invoice',
          arguments: '{"id":77}',
        },
        { type: 'function_call_output', call_id: 'call_inv1', output: '{"paid":true}' },
        {
          type: 'message',
          role: 'assistant',
          id: 'msg_inv1',
          content: [{ type: 'output_text', text: 'Invoice 77 is paid.' }],
        },
        { type: 'message', role: 'user', content: 'When?' },
      ],
    },
    expected: [
      {
        rule: 'reasoning_missing',
        messageIndex: 1,
        ids: ['fc_inv1'],
        message:
          "Item 'fc_inv1' of type 'function_call' was provided without its required 'reasoning' item: 'rs_…'.",
      },
      {
        rule: 'reasoning_missing',
        messageIndex: 3,
        ids: ['msg_inv1'],
        message:
          "Item 'msg_inv1' of type 'message' was provided without its required 'reasoning' item: 'rs_…'.",
      },
    ],
  },
];

describe('openai-responses: fixtures derived from the shared cases', () => {
  for (const f of FIXTURES) {
    it(f.name, () => {
      const r = parseDocument({ kind: 'json', value: f.body });
      expect(r.ok && r.value.transcript.format).toBe('openai-responses');
      if (!r.ok) return;
      const vs = errors(r.value.transcript);
      expect(
        vs.map((v) => ({
          rule: v.rule,
          messageIndex: v.messageIndex,
          ids: v.ids,
          message: v.message,
        })),
      ).toEqual(f.expected);
      for (const v of vs) expect(v.error).toEqual(envelope(v.message));
    });
  }
});

describe('openai-responses: a request that continues server-held history', () => {
  it('does not call an output without its call an orphan (R1) when previous_response_id is set', () => {
    const body = {
      model: 'o3',
      previous_response_id: 'resp_1',
      input: [{ type: 'function_call_output', call_id: 'call_1', output: 'ok' }],
    };
    const t = parsed(body);
    const v = validateTranscript(t, 'openai-responses');
    expect(v.violations).toEqual([]);
    expect(v.notes.join(' ')).toMatch(/server-held history/);
    // Without the chain the same output is an orphan.
    const alone = parsed({ model: 'o3', input: body.input });
    expect(validateTranscript(alone, 'openai-responses').violations[0]?.code).toBe('R1');
  });
});
