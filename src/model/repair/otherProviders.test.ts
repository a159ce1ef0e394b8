import { describe, expect, it } from 'vitest';
import { load } from '../testing/faults.fixtures.ts';
import { repairTranscript, UNREPAIRABLE_NOTES } from '../repair.ts';
import { assistant, call, result, transcript, user } from '../testing/index.ts';
import type { ProviderId, Transcript } from '../types.ts';
import { validateTranscript } from '../validate/index.ts';
import { writeTranscript } from '../write.ts';
import { expectRepaired, expectRoundTrip } from '../testing/repair.ts';

/** A deepseek-reasoner call turn sent back without reasoning_content, then `more` messages. */
function deepseekCallTurn(...more: object[]) {
  return {
    model: 'deepseek-reasoner',
    messages: [
      { role: 'user', content: 'Where am I?' },
      {
        role: 'assistant',
        content: '',
        tool_calls: [{ id: 'c1', type: 'function', function: { name: 'pwd', arguments: '{}' } }],
      },
      { role: 'tool', tool_call_id: 'c1', content: '/home' },
      ...more,
    ],
  };
}

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

  it('Bedrock: a blank assistant turn removed leaves B4, which the repair says it made (newcomer finding)', () => {
    const t = load({
      modelId: 'anthropic.claude-3-5-sonnet',
      messages: [
        { role: 'user', content: [{ text: 'hi' }] },
        { role: 'assistant', content: [{ text: '\n\n' }] },
        { role: 'user', content: [{ text: 'again' }] },
      ],
    });
    expect(validateTranscript(t, 'bedrock').violations.map((v) => v.code)).not.toContain('B4');
    const r = repairTranscript(t, 'bedrock');
    expect(r.unrepaired).toHaveLength(1);
    const [b4] = r.unrepaired;
    expect(b4).toMatchObject({ code: 'B4', madeByRepair: true, messageIndex: 2 });
    expect(b4?.note).toMatch(
      /^This repair made it \(the input had no B4 error\): it removed message #1 /,
    );
  });

  it('an error the input had already is not said to be made by the repair', () => {
    const t = load({
      modelId: 'anthropic.claude-3-5-sonnet',
      messages: [
        { role: 'user', content: [{ text: 'hi' }] },
        { role: 'user', content: [{ text: 'again' }] },
      ],
    });
    const r = repairTranscript(t, 'bedrock');
    expect(r.unrepaired.map((u) => u.code)).toEqual(['B4']);
    expect(r.unrepaired[0]?.madeByRepair).toBeUndefined();
    expect(r.unrepaired[0]?.note).not.toMatch(/This repair made it/);
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

  it('Bedrock B12: blank text blocks are removed, in any message, the final assistant one too', () => {
    const t = load({
      modelId: 'amazon.nova-pro-v1:0',
      messages: [
        { role: 'user', content: [{ text: 'Go.' }] },
        { role: 'assistant', content: [{ text: 'Done.' }, { text: '\n\n' }] },
        { role: 'user', content: [{ text: 'What?' }, { text: ' ' }] },
        { role: 'assistant', content: [{ text: '  ' }] },
      ],
    });
    expect(validateTranscript(t, 'bedrock').violations.map((v) => v.code)).toEqual([
      'B12',
      'B12',
      'B12',
    ]);
    const r = repairTranscript(t, 'bedrock');
    expectRepaired(t, r, 'bedrock');
    expect(
      r.transcript.messages.map((m) => m.blocks.map((b) => b.type === 'text' && b.text)),
    ).toEqual([['Go.'], ['Done.'], ['What?']]);
  });

  it('a whitespace-only string as a final assistant message (B12) is emptied, not left refused', () => {
    const t = load({
      messages: [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: '  ' },
      ],
    });
    expect(validateTranscript(t, 'bedrock').violations.map((v) => v.code)).toEqual(['B12']);
    expectRepaired(t, repairTranscript(t, 'bedrock'), 'bedrock');
  });

  it('O11 / D3: an assistant message with null content and no calls is removed, a final one too', () => {
    for (const provider of ['openai-chat', 'deepseek'] as const) {
      const t = load({
        messages: [
          { role: 'user', content: 'q' },
          { role: 'assistant', content: null },
          { role: 'user', content: 'again' },
          { role: 'assistant', content: null },
        ],
      });
      const r = repairTranscript(t, provider);
      expectRepaired(t, r, provider);
      expect(r.transcript.messages.map((m) => m.role)).toEqual(['user', 'user']);
      expect(r.changes.map((c) => c.kind)).toEqual(['empty_removed', 'empty_removed']);
    }
  });

  it('O15: an empty tool_calls list is left out; with null content the message then goes (O11)', () => {
    const t = load({
      messages: [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: 'Sure.', tool_calls: [] },
        { role: 'user', content: 'again' },
        { role: 'assistant', content: null, tool_calls: [] },
        { role: 'user', content: 'and?' },
      ],
    });
    const r = repairTranscript(t, 'openai-chat');
    expectRepaired(t, r, 'openai-chat');
    expect(r.transcript.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'user', 'user']);
    expect(r.changes.map((c) => c.kind)).toEqual([
      'empty_calls_dropped',
      'empty_calls_dropped',
      'empty_removed',
    ]);
  });

  it('O16: a tool or user message sent with null content is sent with an empty string', () => {
    const t = load({
      messages: [
        { role: 'user', content: 'q' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: null },
        { role: 'user', content: null },
      ],
    });
    expect(validateTranscript(t, 'openai-chat').violations.map((v) => v.code)).toEqual([
      'O16',
      'O16',
    ]);
    const r = repairTranscript(t, 'openai-chat');
    expectRepaired(t, r, 'openai-chat');
    expect(r.transcript.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'user']);
    expect(r.changes.map((c) => c.kind)).toEqual(['null_content_emptied', 'null_content_emptied']);
  });

  it('DeepSeek D4: a call turn that lost its reasoning_content gets an empty one, said so', () => {
    const t = load(deepseekCallTurn());
    expect(validateTranscript(t, 'deepseek').violations.map((v) => v.code)).toEqual(['D4']);
    const r = repairTranscript(t, 'deepseek');
    expectRepaired(t, r, 'deepseek');
    expect(r.changes.map((c) => c.kind)).toEqual(['reasoning_emptied']);
    // Written back as DeepSeek reads it: the message carries reasoning_content "".
    expect(JSON.parse(writeTranscript(r.transcript)).messages[1]).toMatchObject({
      reasoning_content: '',
      tool_calls: [{ id: 'c1' }],
    });
  });

  it('DeepSeek D4 on a turn that ends in text: written back with content "" (not null) and valid', () => {
    const t = load(
      deepseekCallTurn({ role: 'assistant', content: '' }, { role: 'user', content: 'ok' }),
    );
    expect(validateTranscript(t, 'deepseek').violations.map((v) => v.code)).toEqual(['D4', 'D4']);
    const r = repairTranscript(t, 'deepseek');
    expectRepaired(t, r, 'deepseek');
    const written = writeTranscript(r.transcript);
    expect(JSON.parse(written).messages[3]).toEqual({
      role: 'assistant',
      content: '',
      reasoning_content: '',
    });
    const back = load(JSON.parse(written));
    expect(validateTranscript(back, 'deepseek').violations).toEqual([]);
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

  it('A19 and G11: a system message inside the list is explained, not repaired', () => {
    const anthropic = repairTranscript(
      load({
        model: 'claude-sonnet-4-5',
        max_tokens: 10,
        messages: [
          { role: 'system', content: 'be nice' },
          { role: 'user', content: 'hi' },
        ],
      }),
      'anthropic',
    );
    expect(anthropic.unrepaired).toMatchObject([
      { rule: 'system_role_in_list', code: 'A19', note: UNREPAIRABLE_NOTES.system_role_in_list },
    ]);
    expect(anthropic.changes).toEqual([]);
    const gemini = repairTranscript(
      load({
        contents: [
          { role: 'system', parts: [{ text: 'be nice' }] },
          { role: 'user', parts: [{ text: 'hi' }] },
        ],
      }),
      'gemini',
    );
    expect(gemini.unrepaired).toMatchObject([
      { rule: 'system_role_in_list', code: 'G11', note: UNREPAIRABLE_NOTES.system_role_in_list },
    ]);
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

describe('repair where raw indices repeat', () => {
  it("Mistral tool → user: the leading exchange stays when the cause is a later message sharing a group member's raw index", () => {
    // A history cut mid-exchange: call, result, then the user's next question. The result and the
    // question share raw index 1 (as two of ours split from one source item do). Mistral refuses
    // `user` after `tool` at the question, which is not in the leading group.
    // Ids of nine letters and digits, as Mistral takes them (M4). The system prompt is sent first,
    // so the call is not the request's first message, which Mistral leaves out of its count (M3).
    const distinct = transcript(
      'anthropic-messages',
      [
        assistant(call('callAAAA1')),
        user(result('callAAAA1')),
        user('Next question.'),
        assistant('Answer.'),
        user('More.'),
      ],
      { system: [{ text: 'You answer questions.', path: 'system' }] },
    );
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

describe('one orphan shape, every provider: the result alone is removed, the words stay', () => {
  // The user turn after a reply that calls nothing holds a result, then a question.
  const cases: [string, ProviderId, object][] = [
    [
      'Anthropic tool_result',
      'anthropic',
      {
        model: 'claude-sonnet-4-5',
        max_tokens: 256,
        messages: [
          { role: 'user', content: 'Weather?' },
          { role: 'assistant', content: 'Which city?' },
          {
            role: 'user',
            content: [
              { type: 'tool_result', tool_use_id: 'toolu_gone', content: '20 °C' },
              { type: 'text', text: 'Paris.' },
            ],
          },
        ],
      },
    ],
    [
      'Bedrock toolResult',
      'bedrock',
      {
        modelId: 'anthropic.claude-3-5-sonnet',
        toolConfig: { tools: [{ toolSpec: { name: 'get_weather', inputSchema: { json: {} } } }] },
        messages: [
          { role: 'user', content: [{ text: 'Weather?' }] },
          { role: 'assistant', content: [{ text: 'Which city?' }] },
          {
            role: 'user',
            content: [
              { toolResult: { toolUseId: 'tooluse_gone', content: [{ text: '20 °C' }] } },
              { text: 'Paris.' },
            ],
          },
        ],
      },
    ],
    ...[undefined, 'fc_gone'].map((id): [string, ProviderId, object] => [
      `Gemini functionResponse ${id ? 'with' : 'without'} an id`,
      'gemini',
      {
        contents: [
          { role: 'user', parts: [{ text: 'Weather?' }] },
          { role: 'model', parts: [{ text: 'Which city?' }] },
          {
            role: 'user',
            parts: [
              {
                functionResponse: {
                  ...(id ? { id } : {}),
                  name: 'get_weather',
                  response: { output: '20 °C' },
                },
              },
              { text: 'Paris.' },
            ],
          },
        ],
      },
    ]),
    ...[{ tool_call_id: 'call_gone' }, {}].map((id): [string, ProviderId, object] => [
      `Chat tool message ${'tool_call_id' in id ? 'with' : 'without'} a tool_call_id`,
      'openai-chat',
      {
        model: 'gpt-4.1',
        messages: [
          { role: 'user', content: 'Weather?' },
          { role: 'assistant', content: 'Which city?' },
          { role: 'tool', ...id, content: '20 °C' },
          { role: 'user', content: 'Paris.' },
        ],
      },
    ]),
  ];
  for (const [name, provider, raw] of cases)
    it(name, () => {
      const t = load(raw);
      expect(validateTranscript(t, provider).violations.map((v) => v.rule)).toContain(
        'orphan_tool_result',
      );
      const r = repairTranscript(t, provider);
      expectRepaired(t, r, provider);
      expectRoundTrip(r, provider);
      expect(r.changes.map((c) => c.kind)).toEqual(['orphan_removed']);
      const words = (x: Transcript) =>
        x.messages.flatMap((m) => m.blocks.flatMap((b) => (b.type === 'text' ? [b.text] : [])));
      expect(words(r.transcript)).toEqual(['Weather?', 'Which city?', 'Paris.']);
      expect(r.transcript.messages.flatMap((m) => m.blocks).map((b) => b.type)).not.toContain(
        'tool_result',
      );
    });
});
