import { describe, expect, it } from 'vitest';
import { parseTranscript } from '../index.ts';
import { looksLikeSse, readSse, splitSse } from './sse.ts';

/** Write SSE events the way the providers stream them: `event:` + `data:`, blank line between. */
const sse = (events: [string | null, unknown][]) =>
  events
    .map(
      ([e, d]) =>
        `${e ? `event: ${e}\n` : ''}data: ${typeof d === 'string' ? d : JSON.stringify(d)}\n`,
    )
    .join('\n');

// Hand-written from the Anthropic streaming event shapes (docs/formats.md#sse): text, then a
// tool_use whose input arrives as three partial_json pieces.
const anthropicDump = sse([
  [
    'message_start',
    {
      type: 'message_start',
      message: {
        id: 'msg_01Stream',
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [],
        stop_reason: null,
        usage: { input_tokens: 812, output_tokens: 1 },
      },
    },
  ],
  [
    'content_block_start',
    { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } },
  ],
  ['ping', { type: 'ping' }],
  [
    'content_block_delta',
    { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'Checking ' } },
  ],
  [
    'content_block_delta',
    { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'the logs.' } },
  ],
  ['content_block_stop', { type: 'content_block_stop', index: 0 }],
  [
    'content_block_start',
    {
      type: 'content_block_start',
      index: 1,
      content_block: { type: 'tool_use', id: 'toolu_01Logs', name: 'search_logs', input: {} },
    },
  ],
  ...['{"service": "chec', 'kout-api", "level"', ': "error"}'].map(
    (p) =>
      [
        'content_block_delta',
        {
          type: 'content_block_delta',
          index: 1,
          delta: { type: 'input_json_delta', partial_json: p },
        },
      ] as [string, unknown],
  ),
  ['content_block_stop', { type: 'content_block_stop', index: 1 }],
  [
    'message_delta',
    {
      type: 'message_delta',
      delta: { stop_reason: 'tool_use', stop_sequence: null },
      usage: { output_tokens: 61 },
    },
  ],
  ['message_stop', { type: 'message_stop' }],
]);

/** One OpenAI Chat stream chunk of choice 0. */
const chatChunk = (delta: unknown, finish: string | null = null, extra = {}) => ({
  id: 'chatcmpl-1',
  object: 'chat.completion.chunk',
  created: 1764400000,
  model: 'gpt-4.1',
  choices: [{ index: 0, delta, finish_reason: finish }],
  ...extra,
});

// Hand-written from the OpenAI Chat chunk shapes: two parallel tool calls whose arguments arrive
// in pieces (call_A's interleaved with call_B's), then a usage-only chunk and [DONE].
const openaiChatDump = sse([
  [null, chatChunk({ role: 'assistant', content: null })],
  [
    null,
    chatChunk({
      tool_calls: [
        {
          index: 0,
          id: 'call_A',
          type: 'function',
          function: { name: 'search_logs', arguments: '' },
        },
      ],
    }),
  ],
  [null, chatChunk({ tool_calls: [{ index: 0, function: { arguments: '{"service":' } }] })],
  [
    null,
    chatChunk({
      tool_calls: [
        {
          index: 1,
          id: 'call_B',
          type: 'function',
          function: { name: 'get_deploys', arguments: '{}' },
        },
      ],
    }),
  ],
  [null, chatChunk({ tool_calls: [{ index: 0, function: { arguments: '"checkout-api"}' } }] })],
  [null, chatChunk({}, 'tool_calls')],
  [
    null,
    {
      ...chatChunk({}),
      choices: [],
      usage: { prompt_tokens: 90, completion_tokens: 30, total_tokens: 120 },
    },
  ],
  [null, '[DONE]'],
]);

describe('splitSse / looksLikeSse', () => {
  it('recognises dumps by their first field, not JSON or prose', () => {
    expect(looksLikeSse(anthropicDump)).toBe(true);
    expect(looksLikeSse(': keep-alive\n\ndata: {"a":1}\n')).toBe(true);
    expect(looksLikeSse('{"data": 1}')).toBe(false);
    expect(looksLikeSse('event: only names\n')).toBe(false);
  });

  it('joins multi-line data, takes whole JSON lines without blank lines, skips [DONE]', () => {
    const text =
      'data: {"a":\ndata: 1}\n\ndata: {"b":2}\ndata: {"c":3}\ndata: [DONE]\ndata: nope\n';
    const { events, badLines } = splitSse(text);
    expect(events.map((e) => e.data)).toEqual([{ a: 1 }, { b: 2 }, { c: 3 }]);
    expect(badLines).toEqual([7]);
  });
});

describe('readSse rebuilds each provider’s response', () => {
  it('Anthropic: text deltas joined, partial tool JSON accumulated, usage merged', () => {
    const r = readSse(anthropicDump);
    expect(r?.ok).toBe(true);
    if (!r?.ok) return;
    expect(r.value).toHaveLength(1);
    expect(r.value[0]?.value).toEqual({
      id: 'msg_01Stream',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [
        { type: 'text', text: 'Checking the logs.' },
        {
          type: 'tool_use',
          id: 'toolu_01Logs',
          name: 'search_logs',
          input: { service: 'checkout-api', level: 'error' },
        },
      ],
      stop_reason: 'tool_use',
      stop_sequence: null,
      usage: { input_tokens: 812, output_tokens: 61 },
    });
    expect(r.value[0]?.note.notes).toEqual([]);
  });

  it('Anthropic: a stream cut off mid-arguments keeps the text and says so', () => {
    const cut = anthropicDump.slice(0, anthropicDump.indexOf('kout-api'));
    const lastBlank = cut.lastIndexOf('\n\n');
    const r = readSse(cut.slice(0, lastBlank));
    expect(r?.ok).toBe(true);
    if (!r?.ok) return;
    const notes = r.value[0]?.note.notes ?? [];
    expect(notes.some((n) => /not complete JSON/.test(n))).toBe(true);
    expect(notes.some((n) => /no `message_stop`/.test(n))).toBe(true);
  });

  it('OpenAI Chat: content and tool_calls arguments accumulated per index', () => {
    const text = openaiChatDump;
    const r = readSse(text);
    expect(r?.ok).toBe(true);
    if (!r?.ok) return;
    expect(r.value[0]?.note.formatHint).toBe('openai-chat');
    expect(r.value[0]?.value).toEqual({
      id: 'chatcmpl-1',
      object: 'chat.completion',
      created: 1764400000,
      model: 'gpt-4.1',
      choices: [
        {
          index: 0,
          message: {
            role: 'assistant',
            content: null,
            tool_calls: [
              {
                id: 'call_A',
                type: 'function',
                function: { name: 'search_logs', arguments: '{"service":"checkout-api"}' },
              },
              {
                id: 'call_B',
                type: 'function',
                function: { name: 'get_deploys', arguments: '{}' },
              },
            ],
          },
          finish_reason: 'tool_calls',
        },
      ],
      usage: { prompt_tokens: 90, completion_tokens: 30, total_tokens: 120 },
    });
    const p = parseTranscript(text);
    expect(p.ok && p.value.transcript.format).toBe('openai-chat');
    if (!p.ok) return;
    const calls = p.value.transcript.messages
      .flatMap((m) => m.blocks)
      .filter((b) => b.type === 'tool_use');
    expect(calls.map((c) => c.type === 'tool_use' && [c.id, c.input])).toEqual([
      ['call_A', { service: 'checkout-api' }],
      ['call_B', {}],
    ]);
  });

  it('Responses: response.completed is taken whole; without it the items are rebuilt from deltas', () => {
    const call = {
      type: 'function_call',
      id: 'fc_1',
      call_id: 'call_R1',
      name: 'search_logs',
      arguments: '',
    };
    const events: [string, unknown][] = [
      [
        'response.created',
        {
          type: 'response.created',
          response: { id: 'resp_1', object: 'response', model: 'gpt-5', output: [] },
        },
      ],
      [
        'response.output_item.added',
        { type: 'response.output_item.added', output_index: 0, item: call },
      ],
      [
        'response.function_call_arguments.delta',
        { type: 'response.function_call_arguments.delta', output_index: 0, delta: '{"level":' },
      ],
      [
        'response.function_call_arguments.delta',
        { type: 'response.function_call_arguments.delta', output_index: 0, delta: '"error"}' },
      ],
    ];
    const partial = readSse(sse(events));
    expect(partial?.ok).toBe(true);
    if (!partial?.ok) return;
    expect(partial.value[0]?.value).toMatchObject({
      object: 'response',
      id: 'resp_1',
      output: [{ ...call, arguments: '{"level":"error"}' }],
    });
    expect(partial.value[0]?.note.notes?.[0]).toMatch(/no `response.completed`/);

    const done = { ...call, arguments: '{"level":"error"}', status: 'completed' };
    const whole = readSse(
      sse([
        ...events,
        [
          'response.completed',
          {
            type: 'response.completed',
            response: { id: 'resp_1', object: 'response', model: 'gpt-5', output: [done] },
          },
        ],
      ]),
    );
    expect(whole?.ok && whole.value[0]?.value).toEqual({
      id: 'resp_1',
      object: 'response',
      model: 'gpt-5',
      output: [done],
    });
    expect(whole?.ok).toBe(true);
    expect(whole?.ok && whole.value[0]?.note.notes).toEqual([]);
  });

  it('Gemini: text parts joined, function calls kept, last usage wins', () => {
    const text = sse([
      [
        null,
        {
          candidates: [{ content: { role: 'model', parts: [{ text: 'Looking ' }] } }],
          modelVersion: 'gemini-2.5-pro',
        },
      ],
      [null, { candidates: [{ content: { role: 'model', parts: [{ text: 'now.' }] } }] }],
      [
        null,
        {
          candidates: [
            {
              content: {
                role: 'model',
                parts: [{ functionCall: { name: 'search_logs', args: { level: 'error' } } }],
              },
              finishReason: 'STOP',
            },
          ],
          usageMetadata: { promptTokenCount: 40, candidatesTokenCount: 12 },
        },
      ],
    ]);
    const r = readSse(text);
    expect(r?.ok && r.value[0]?.value).toEqual({
      candidates: [
        {
          content: {
            role: 'model',
            parts: [
              { text: 'Looking now.' },
              { functionCall: { name: 'search_logs', args: { level: 'error' } } },
            ],
          },
          finishReason: 'STOP',
        },
      ],
      usageMetadata: { promptTokenCount: 40, candidatesTokenCount: 12 },
      modelVersion: 'gemini-2.5-pro',
    });
    const p = parseTranscript(text);
    expect(p.ok && p.value.transcript.format).toBe('gemini');
  });

  it('two Anthropic streams in one dump go to the request picker', () => {
    const second = anthropicDump.replace('msg_01Stream', 'msg_02Stream');
    const p = parseTranscript(`${anthropicDump}\n${second}`);
    expect(p.ok).toBe(true);
    if (!p.ok) return;
    expect(p.value.requests?.map((r) => r.label)).toEqual([
      'SSE stream 1 of 2 (Anthropic Messages)',
      'SSE stream 2 of 2 (Anthropic Messages)',
    ]);
    expect(p.value.requestIndex).toBe(1);
    expect(p.value.transcript.format).toBe('anthropic-messages');
  });

  it('an SSE dump of something else is an error, not a guess', () => {
    const r = readSse('data: {"hello": "world"}\n\n');
    expect(r?.ok).toBe(false);
    expect(r?.ok === false && r.error.message).toMatch(/no event is part of a known LLM/);
  });
});
