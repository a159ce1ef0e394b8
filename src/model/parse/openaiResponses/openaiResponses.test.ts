import { describe, expect, it } from 'vitest';
import { pairCounts, pairToolCalls } from '../../pairing.ts';
import { countableText } from '../../tokens.ts';
import type { Transcript } from '../../types.ts';
import { parsed } from '../../testing/index.ts';
import { validateTranscript } from '../../validate/index.ts';
import { parseDocument, parseTranscript } from '../index.ts';
import { openaiResponsesParser } from './openaiResponses.ts';

function parse(value: unknown): Transcript {
  const t = parsed(value).transcript;
  expect(t.format).toBe('openai-responses');
  return t;
}

const BODY = {
  model: 'gpt-5',
  instructions: 'You triage alerts.',
  tool_choice: 'required',
  tools: [
    {
      type: 'function',
      name: 'search_logs',
      description: 'Search logs.',
      parameters: { type: 'object' },
    },
    { type: 'custom', name: 'apply_patch' },
  ],
  input: [
    { role: 'user', content: 'Queue lag on billing?' },
    {
      type: 'reasoning',
      id: 'rs_1',
      summary: [{ type: 'summary_text', text: 'Look at lag first.' }],
      encrypted_content: 'gAAAAABopaque-opaque-opaque',
    },
    {
      type: 'function_call',
      id: 'fc_1',
      call_id: 'call_1',
      name: 'search_logs',
      arguments: '{"q":"lag"}',
    },
    {
      type: 'function_call',
      id: 'fc_2',
      call_id: 'call_2',
      name: 'search_logs',
      arguments: 'not json',
    },
    { type: 'function_call_output', call_id: 'call_1', output: 'lag 40s' },
    {
      type: 'function_call_output',
      call_id: 'call_2',
      output: [{ type: 'input_text', text: 'no rows' }],
    },
    { type: 'custom_tool_call', call_id: 'call_3', name: 'apply_patch', input: '*** Begin Patch' },
    { type: 'custom_tool_call_output', call_id: 'call_3', output: 'Done!' },
    {
      type: 'message',
      id: 'msg_1',
      role: 'assistant',
      status: 'completed',
      content: [{ type: 'output_text', text: 'Lag is 40s.', annotations: [] }],
    },
    { type: 'web_search_call', id: 'ws_1', status: 'completed' },
    {
      type: 'message',
      role: 'developer',
      content: [
        { type: 'input_text', text: 'Be brief.' },
        { type: 'input_image', image_url: 'data:image/png;base64,AAAABBBB' },
      ],
    },
  ],
};

describe('openai-responses parser (docs/formats.md#openai-responses)', () => {
  it('one message per item, ids kept, call_id as the tool id', () => {
    const t = parse(BODY);
    expect(t.listKey).toBe('input');
    expect(t.system).toEqual([{ text: 'You triage alerts.', path: 'instructions' }]);
    expect(t.settings).toEqual({ model: 'gpt-5', toolChoiceForced: true });
    expect(t.tools?.map((x) => x.name)).toEqual(['search_logs', 'apply_patch']);
    expect(t.messages.map((m) => [m.rawIndex, m.path, m.role])).toEqual(
      BODY.input.map((_, i) => [
        i,
        `input.${i}`,
        [
          'user',
          'assistant',
          'assistant',
          'assistant',
          'tool',
          'tool',
          'assistant',
          'tool',
          'assistant',
          'assistant',
          'developer',
        ][i],
      ]),
    );
    expect(t.messages[0]).toMatchObject({
      stringContent: true,
      blocks: [{ type: 'text', text: 'Queue lag on billing?' }],
    });
    expect(t.messages[1]?.blocks).toEqual([
      { type: 'thinking', thinking: 'Look at lag first.' },
      { type: 'redacted_thinking', bytes: 'gAAAAABopaque-opaque-opaque'.length, itemId: 'rs_1' },
    ]);
    expect(t.messages[2]?.blocks).toEqual([
      { type: 'tool_use', id: 'call_1', name: 'search_logs', input: { q: 'lag' }, itemId: 'fc_1' },
    ]);
    expect(t.messages[3]?.blocks[0]).toMatchObject({ input: 'not json' });
    expect(t.messages[4]?.blocks).toEqual([
      {
        type: 'tool_result',
        toolUseId: 'call_1',
        isError: false,
        content: [{ type: 'text', text: 'lag 40s' }],
      },
    ]);
    expect(t.messages[5]?.blocks[0]).toMatchObject({
      content: [{ type: 'text', text: 'no rows' }],
    });
    expect(t.messages[6]?.blocks).toEqual([
      { type: 'tool_use', id: 'call_3', name: 'apply_patch', input: '*** Begin Patch' },
    ]);
    expect(t.messages[8]).toMatchObject({
      meta: { sourceId: 'msg_1' },
      blocks: [{ type: 'text', text: 'Lag is 40s.' }],
    });
    expect(t.messages[9]?.blocks).toEqual([
      { type: 'other', label: 'web_search_call', raw: BODY.input[9] },
    ]);
    expect(t.messages[10]?.blocks.map((b) => b.type)).toEqual(['text', 'image']);
  });

  it('encrypted reasoning is never tokenised', () => {
    const t = parse(BODY);
    const red = t.messages[1]?.blocks[1];
    expect(red && countableText(red)).toEqual({ text: '', cls: 'other', fixed: 0 });
  });

  it('parallel function_call items share one answer run (pairing)', () => {
    const pairs = pairToolCalls(parse(BODY).messages);
    expect(pairCounts(pairs)).toMatchObject({ answered: 3, unanswered: 0, orphan: 0 });
  });

  it('a bare input array, a string input and a response object', () => {
    const bare = parse(BODY.input);
    expect(bare.messages).toHaveLength(BODY.input.length);
    expect(bare.tools).toBeNull();
    const str = parse({ model: 'gpt-5', input: 'Hello' });
    expect(str.messages).toMatchObject([
      { role: 'user', path: 'input', blocks: [{ type: 'text', text: 'Hello' }] },
    ]);
    const resp = parse({
      id: 'resp_1',
      object: 'response',
      model: 'gpt-5',
      output: [BODY.input[1], BODY.input[2]],
      usage: {
        input_tokens: 120,
        output_tokens: 30,
        input_tokens_details: { cached_tokens: 64 },
        output_tokens_details: { reasoning_tokens: 12 },
      },
    });
    expect(resp.listKey).toBe('output');
    expect(resp.messages.map((m) => m.path)).toEqual(['output.0', 'output.1']);
    expect(resp.usage).toEqual([
      {
        messageIndex: 1,
        inputTokens: 120,
        outputTokens: 30,
        cacheReadTokens: 64,
        reasoningTokens: 12,
      },
    ]);
  });

  it('warns when history is held server-side, and never throws on junk items', () => {
    const t = parse({
      previous_response_id: 'resp_0',
      input: [
        { type: 'function_call_output', call_id: 'c', output: 'x' },
        { type: 'item_reference', id: 'msg_0' },
      ],
    });
    expect(t.warnings.join(' ')).toMatch(/previous_response_id/);
    expect(t.warnings.join(' ')).toMatch(/item_reference/);
    const junk = openaiResponsesParser.parse({
      kind: 'json',
      value: { input: [null, 3, { type: 'mystery' }] },
    });
    expect(junk.ok && junk.value.messages.map((m) => m.blocks[0]?.type)).toEqual([
      'other',
      'other',
      'other',
    ]);
  });

  it('write: untouched items come back unchanged; a changed message is rendered from blocks', () => {
    const t = parse(BODY);
    const again = JSON.parse(openaiResponsesParser.write?.(t) ?? 'null');
    expect(again).toEqual(BODY);
    // Evict the reasoning item and replace the final message with an edited one.
    const edited: Transcript = {
      ...t,
      messages: t.messages
        .filter((m) => m.rawIndex !== 1)
        .map((m) =>
          m.rawIndex === 8
            ? { ...m, raw: undefined, blocks: [{ type: 'text', text: 'Lag: 40s.' }] }
            : m,
        ),
    };
    const out = JSON.parse(openaiResponsesParser.write?.(edited) ?? 'null');
    expect(out.model).toBe('gpt-5');
    expect(out.input).toHaveLength(BODY.input.length - 1);
    // The edited message keeps its item id: R3 reads which items carry one.
    expect(out.input[7]).toEqual({
      type: 'message',
      id: 'msg_1',
      role: 'assistant',
      content: [{ type: 'output_text', text: 'Lag: 40s.', annotations: [] }],
    });
    const back = parseTranscript(JSON.stringify(out));
    expect(
      back.ok && back.value.transcript.messages.map((m) => m.blocks.map((b) => b.type)),
    ).toEqual(edited.messages.map((m) => m.blocks.map((b) => b.type)));
  });

  it('write from another format: calls and results become items, system text becomes instructions', () => {
    const r = parseDocument({
      kind: 'json',
      value: {
        messages: [
          { role: 'system', content: 'Sys.' },
          { role: 'user', content: 'q' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: 'call_a', type: 'function', function: { name: 'f', arguments: '{"x":1}' } },
            ],
          },
          { role: 'tool', tool_call_id: 'call_a', content: 'r' },
        ],
      },
    });
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const out = JSON.parse(openaiResponsesParser.write?.(r.value.transcript) ?? 'null');
    expect(out).toEqual({
      instructions: 'Sys.',
      input: [
        { role: 'user', content: 'q' },
        { type: 'function_call', call_id: 'call_a', name: 'f', arguments: '{"x":1}' },
        { type: 'function_call_output', call_id: 'call_a', output: 'r' },
      ],
    });
  });

  it('write from another format: a system message after others stays an input item (the verdict with it)', () => {
    // Found by the writers' property: hoisted into instructions, it left the call trailing.
    const chat = parsed([
      {
        role: 'assistant',
        content: null,
        tool_calls: [{ id: 'call_0', type: 'function', function: { name: 'f', arguments: '{}' } }],
      },
      { role: 'system', content: 'You are a helpful agent.' },
    ]).transcript;
    const text = openaiResponsesParser.write?.(chat) ?? 'null';
    const out = JSON.parse(text) as { instructions?: string; input: unknown[] };
    expect(out.instructions).toBeUndefined();
    expect(out.input.at(-1)).toEqual({ role: 'system', content: 'You are a helpful agent.' });
    const back = parseTranscript(text, { format: 'openai-responses' });
    if (!back.ok) throw new Error('does not parse');
    const rules = (t: Transcript) =>
      validateTranscript(t, 'openai-responses').violations.map((v) => v.rule);
    expect(rules(back.value.transcript)).toEqual(rules(chat));
    expect(rules(chat)).toContain('unanswered_tool_use');
  });
});
