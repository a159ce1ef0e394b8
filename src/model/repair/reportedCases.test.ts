import { describe, expect, it } from 'vitest';
import { load } from '../testing/faults.fixtures.ts';
import { repairTranscript, UNREPAIRABLE_NOTES } from '../repair.ts';
import type { Message, Transcript } from '../types.ts';
import { validateTranscript } from '../validate/index.ts';
import { writeTranscript } from '../write.ts';
import { expectRepaired } from '../testing/repair.ts';

describe('repair of broken transcripts rebuilt from the reported cases', () => {
  it('orphan result after a trim (cases 01, 06): the result alone is removed, the reply after it stays', () => {
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
        kind: 'orphan_removed',
        messageIndex: 0,
        outputIndex: null,
        replaced: [0],
        ids: ['call_w1'],
      },
    ]);
    // The reply "It is 18 °C." is not part of the violation: it stays.
    expect(r.transcript.messages).toEqual(t.messages.slice(1));
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
      'assistant',
      'user',
      'assistant',
      'tool',
    ]);
    expect(r.changes).toMatchObject([{ kind: 'orphan_removed', ids: ['call_c1'] }]);
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

/** Every text of a transcript, in order. */
function texts(t: Transcript): string[] {
  return t.messages.flatMap((m) => m.blocks.flatMap((b) => (b.type === 'text' ? [b.text] : [])));
}

describe('an orphan result is removed alone: the words around it stay (newcomer)', () => {
  it('Anthropic: the text beside the orphan in its user message stays, the reply after it too', () => {
    const t = load({
      model: 'claude-sonnet-4-5',
      max_tokens: 256,
      tools: [{ name: 'lookup_city', input_schema: { type: 'object' } }],
      messages: [
        {
          role: 'user',
          content: [
            { type: 'tool_result', tool_use_id: 'toolu_lost', content: 'sunny' },
            { type: 'text', text: 'And what about Oslo?' },
          ],
        },
        { role: 'assistant', content: 'Lisbon is sunny; Oslo needs another lookup.' },
        { role: 'user', content: 'go ahead' },
      ],
    });
    const r = repairTranscript(t, 'anthropic');
    expectRepaired(t, r, 'anthropic');
    expect(texts(r.transcript)).toEqual(texts(t));
    expect(r.changes).toMatchObject([
      { kind: 'orphan_removed', ids: ['toolu_lost'], messageIndex: 0, outputIndex: 0 },
    ]);
    expect(r.transcript.messages[0]?.blocks).toEqual([
      { type: 'text', text: 'And what about Oslo?' },
    ]);
  });

  it('Chat: the orphan tool message goes, the assistant reply after it stays', () => {
    const t = load({
      model: 'gpt-4.1',
      messages: [
        { role: 'system', content: 'You watch the cluster.' },
        { role: 'tool', tool_call_id: 'call_gone7', content: '{"nodes":5}' },
        { role: 'assistant', content: 'Five nodes are up.' },
        { role: 'user', content: 'Any of them degraded?' },
      ],
    });
    const r = repairTranscript(t, 'openai-chat');
    expectRepaired(t, r, 'openai-chat');
    expect(texts(r.transcript)).toEqual(texts(t));
    expect(r.changes).toMatchObject([
      { kind: 'orphan_removed', ids: ['call_gone7'], replaced: [1] },
    ]);
    expect(r.transcript.messages).toEqual([t.messages[0], ...t.messages.slice(2)]);
  });

  it('Responses agrees: the orphan output goes, the reply stays', () => {
    const t = load({
      model: 'gpt-5',
      input: [
        { role: 'user', content: 'Restart the queue worker' },
        { type: 'function_call_output', call_id: 'call_gone8', output: 'restarted' },
        { role: 'assistant', content: 'The worker restarted.' },
        { role: 'user', content: 'and the backlog?' },
      ],
    });
    expect(t.format).toBe('openai-responses');
    const r = repairTranscript(t, 'openai-responses');
    expectRepaired(t, r, 'openai-responses');
    expect(texts(r.transcript)).toEqual(texts(t));
    expect(r.changes).toMatchObject([{ kind: 'orphan_removed', ids: ['call_gone8'] }]);
  });

  it('a change that must drop more says so: the model turn left first for Gemini is named in its change', () => {
    const t = load({
      contents: [
        {
          role: 'user',
          parts: [{ functionResponse: { id: 'gc_gone', name: 'f', response: { output: 'x' } } }],
        },
        { role: 'model', parts: [{ text: 'Got x.' }] },
        { role: 'user', parts: [{ text: 'Next?' }] },
      ],
    });
    expect(t.format).toBe('gemini');
    const r = repairTranscript(t, 'gemini');
    expectRepaired(t, r, 'gemini');
    // Every input message missing from the output is in some change's `replaced`.
    const kept = new Set(r.transcript.messages.map((m) => m.rawIndex));
    const noted = new Set(r.changes.flatMap((c) => c.replaced));
    for (const m of t.messages) if (!kept.has(m.rawIndex)) expect(noted).toContain(m.rawIndex);
  });
});
