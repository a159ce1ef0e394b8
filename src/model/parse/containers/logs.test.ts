/**
 * HAR files, LiteLLM logs and batch files, with small fixtures written by hand from the shapes
 * in docs/formats.md#containers. The broken request has the shape of the reported case 08
 * (anthropics/claude-code#1956; expected: invalid, unanswered tool_use).
 */
import { describe, expect, it } from 'vitest';
import { validateTranscript } from '../../validate/index.ts';
import { parseTranscript } from '../index.ts';
import { answerCalls } from './answer.ts';
import { fromBase64, readHar } from './har.ts';
import { readLiteLlm } from './litellm.ts';
import { readBatch } from './batch.ts';

const brokenAnthropic = {
  model: 'claude-sonnet-4-5',
  max_tokens: 1024,
  messages: [
    { role: 'user', content: 'Run the tests.' },
    {
      role: 'assistant',
      content: [
        { type: 'tool_use', id: 'toolu_01ESA', name: 'bash', input: { command: 'pytest' } },
      ],
    },
    { role: 'user', content: 'Stop.' },
  ],
};
const okAnthropic = { ...brokenAnthropic, messages: brokenAnthropic.messages.slice(0, 1) };

const entry = (url: string, body: unknown, status: number, response?: unknown) => ({
  startedDateTime: '2026-11-20T10:00:00.000Z',
  time: 812,
  request: {
    method: 'POST',
    url,
    headers: [{ name: 'x-api-key', value: 'sk-ant-SECRET' }],
    ...(body !== undefined
      ? { postData: { mimeType: 'application/json', text: JSON.stringify(body) } }
      : {}),
  },
  response: {
    status,
    headers: [],
    content: {
      size: 0,
      mimeType: 'application/json',
      ...(response !== undefined ? { text: JSON.stringify(response) } : {}),
    },
  },
  timings: { send: 0, wait: 800, receive: 12 },
});

const har = {
  log: {
    version: '1.2',
    creator: { name: 'WebInspector', version: '537.36' },
    entries: [
      {
        ...entry('https://app.example/index.html', undefined, 200),
        request: { method: 'GET', url: 'https://app.example/index.html', headers: [] },
      },
      entry('https://api.anthropic.com/v1/messages', okAnthropic, 200, {
        type: 'message',
        role: 'assistant',
        content: [{ type: 'text', text: 'ok' }],
      }),
      entry('https://api.anthropic.com/v1/messages?beta=true', brokenAnthropic, 400, {
        type: 'error',
        error: {
          type: 'invalid_request_error',
          message:
            'messages.2: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_01ESA.',
        },
      }),
    ],
  },
};

describe('HAR', () => {
  it('lists the LLM requests, labelled with entry number, method and URL (no query)', () => {
    const r = readHar(har);
    expect(r?.ok).toBe(true);
    if (!r?.ok) return;
    expect(r.value.map((e) => e.label)).toEqual([
      'HAR entry 2 of 3: POST https://api.anthropic.com/v1/messages',
      'HAR entry 3 of 3: POST https://api.anthropic.com/v1/messages',
    ]);
    expect(r.value[1]?.note.formatHint).toBe('anthropic-messages');
    expect(r.value[1]?.note.notes?.[0]).toMatch(
      /^The provider answered 400: messages\.2: `tool_use` ids/,
    );
    expect(JSON.stringify(r.value)).not.toContain('SECRET');
  });

  it('parseTranscript shows the last request with the picker, and its verdict', () => {
    const p = parseTranscript(JSON.stringify(har));
    expect(p.ok).toBe(true);
    if (!p.ok) return;
    expect(p.value.requests).toHaveLength(2);
    expect(p.value.requestIndex).toBe(1);
    expect(p.value.container?.kind).toBe('har');
    expect(p.value.transcript.warnings[0]).toBe(
      'Unwrapped from the HAR entry 3 of 3: POST https://api.anthropic.com/v1/messages.',
    );
    expect(validateTranscript(p.value.transcript).valid).toBe(false);
    const first = parseTranscript(JSON.stringify(har), { requestIndex: 0 });
    expect(first.ok && validateTranscript(first.value.transcript).valid).toBe(true);
  });

  it('opens the latest request by startedDateTime, not the last entry (HAR entries are not in time order)', () => {
    const at = (time: string | undefined, body: unknown) => {
      const e = entry('https://api.anthropic.com/v1/messages', body, 200);
      return time === undefined
        ? { ...e, startedDateTime: undefined }
        : { ...e, startedDateTime: time };
    };
    const opened = (...entries: unknown[]) => {
      const p = parseTranscript(JSON.stringify({ log: { entries } }));
      if (!p.ok) throw new Error(p.error.message);
      return p.value.requestIndex;
    };
    // The later call was saved first (an exporter that sorts by URL, a merged capture): the
    // refused one, 10:05, opens with its verdict.
    const p = parseTranscript(
      JSON.stringify({
        log: {
          entries: [
            at('2026-11-20T10:05:00.000Z', brokenAnthropic),
            at('2026-11-20T10:00:00.000Z', okAnthropic),
          ],
        },
      }),
    );
    expect(p.ok && p.value.requestIndex).toBe(0);
    expect(p.ok && validateTranscript(p.value.transcript).valid).toBe(false);
    // Offsets are times, not text: 11:04+01:00 is 10:04Z, before 10:05Z.
    expect(
      opened(
        at('2026-11-20T10:05:00.000Z', okAnthropic),
        at('2026-11-20T11:04:00.000+01:00', okAnthropic),
        at('2026-11-20T09:00:00.000Z', okAnthropic),
      ),
    ).toBe(0);
    // A tie goes to the later entry; an entry without a time never wins over one with a time.
    expect(
      opened(at('2026-11-20T10:00:00Z', okAnthropic), at('2026-11-20T10:00:00Z', okAnthropic)),
    ).toBe(1);
    expect(opened(at('2026-11-20T10:00:00Z', okAnthropic), at(undefined, okAnthropic))).toBe(0);
    // No time at all: the last entry, as before.
    expect(opened(at(undefined, okAnthropic), at('not a date', okAnthropic))).toBe(1);
  });

  it('a HAR without LLM requests, or without bodies, says why', () => {
    const none = readHar({ log: { entries: [har.log.entries[0]] } });
    expect(none?.ok === false && none.error.message).toMatch(/none of them an LLM API request/);
    const noBody = readHar({
      log: { entries: [entry('https://api.openai.com/v1/chat/completions', undefined, 200)] },
    });
    expect(noBody?.ok === false && noBody.error.message).toMatch(/with content/);
  });

  it('base64 response bodies are decoded for the provider error', () => {
    const text = JSON.stringify({ error: { message: 'bad tool_call_id' } });
    const b64 = btoa(text);
    expect(new TextDecoder().decode(fromBase64(b64) ?? new Uint8Array())).toBe(text);
    const e = entry(
      'https://api.openai.com/v1/chat/completions',
      { messages: [{ role: 'user', content: 'x' }] },
      400,
    );
    e.response.content = {
      size: 0,
      mimeType: 'application/json',
      text: b64,
      encoding: 'base64',
    } as typeof e.response.content;
    const r = readHar({ log: { entries: [e] } });
    expect(r?.ok && r.value[0]?.note.notes).toEqual([
      'The provider answered 400: bad tool_call_id',
    ]);
  });
});

describe('LiteLLM', () => {
  const chatMessages = [
    { role: 'user', content: 'What failed?' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        { id: 'call_1', type: 'function', function: { name: 'search_logs', arguments: '{}' } },
      ],
    },
    { role: 'tool', tool_call_id: 'call_1', content: '3 errors' },
  ];
  const payload = {
    id: 'chatcmpl-9',
    trace_id: 't1',
    call_type: 'acompletion',
    stream: false,
    status: 'success',
    model: 'gpt-4.1',
    messages: chatMessages,
    response: {
      id: 'chatcmpl-9',
      object: 'chat.completion',
      choices: [
        {
          index: 0,
          message: { role: 'assistant', content: 'Three errors.' },
          finish_reason: 'stop',
        },
      ],
    },
    response_cost: 0.0012,
    model_parameters: {
      tools: [{ type: 'function', function: { name: 'search_logs', parameters: {} } }],
    },
  };

  it('a StandardLoggingPayload (also under standard_logging_object): the messages as sent, the response in a note', () => {
    for (const v of [payload, { standard_logging_object: payload }]) {
      const r = readLiteLlm(v);
      expect(r?.ok).toBe(true);
      if (!r?.ok) return;
      const body = r.value[0]?.value as { messages: unknown[]; tools: unknown[] };
      expect(body.messages).toEqual(chatMessages);
      expect(body.tools).toEqual(payload.model_parameters.tools);
      expect(r.value[0]?.note.notes).toEqual([
        'The logged response is what this request returned; it is not appended, so the request is judged as it was sent.',
      ]);
    }
    const p = parseTranscript(JSON.stringify(payload));
    expect(p.ok && p.value.transcript.format).toBe('openai-chat');
    expect(p.ok && validateTranscript(p.value.transcript).valid).toBe(true);
  });

  it('a request is judged as it was sent: a final answer is not a prefill, a tool call is not left unanswered', () => {
    // Anthropic pass-through (/v1/messages) to a model that rejects prefill: the request ended on
    // a tool result and got an answer. Appended, the answer was judged A12.
    const anthropicPayload = {
      ...payload,
      model: 'claude-opus-4-6',
      messages: {
        model: 'claude-opus-4-6',
        max_tokens: 1024,
        tools: [{ name: 'search_logs', input_schema: { type: 'object' } }],
        messages: [
          { role: 'user', content: 'What failed?' },
          {
            role: 'assistant',
            content: [{ type: 'tool_use', id: 'toolu_1', name: 'search_logs', input: {} }],
          },
          {
            role: 'user',
            content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: '3 errors' }],
          },
        ],
      },
      response: {
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        content: [{ type: 'text', text: 'Three errors.' }],
        stop_reason: 'end_turn',
      },
    };
    const a = parseTranscript(JSON.stringify(anthropicPayload));
    expect(a.ok && a.value.transcript.format).toBe('anthropic-messages');
    if (!a.ok) return;
    expect(a.value.transcript.messages).toHaveLength(3);
    expect(validateTranscript(a.value.transcript).violations.map((v) => v.code)).toEqual([]);
    // Chat Completions: the answer calls a tool. Appended, that call had no result (a 400).
    const calling = {
      ...payload,
      response: {
        ...payload.response,
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: null,
              tool_calls: [
                {
                  id: 'call_2',
                  type: 'function',
                  function: { name: 'search_logs', arguments: '{}' },
                },
              ],
            },
            finish_reason: 'tool_calls',
          },
        ],
      },
    };
    const c = parseTranscript(JSON.stringify(calling));
    expect(c.ok).toBe(true);
    if (!c.ok) return;
    expect(c.value.transcript.messages).toHaveLength(3);
    expect(validateTranscript(c.value.transcript).valid).toBe(true);
    expect(c.value.transcript.warnings.join(' ')).toContain(
      'The logged response calls call_2 (search_logs); it is not appended, so the request is judged as it was sent.',
    );
  });

  it('a failed call: no response appended, the error is a note', () => {
    const r = readLiteLlm({
      ...payload,
      status: 'failure',
      response: {},
      error_str: 'BadRequestError: tool_call_id missing',
    });
    expect(r?.ok && (r.value[0]?.value as { messages: unknown[] }).messages).toHaveLength(3);
    expect(r?.ok && r.value[0]?.note.notes).toEqual([
      'LiteLLM logged an error for this call: BadRequestError: tool_call_id missing',
    ]);
  });

  it('spend-log rows go to the picker; rows without stored messages are left out', () => {
    const row = (id: string, messages: unknown) => ({
      request_id: id,
      call_type: 'acompletion',
      spend: 0.001,
      total_tokens: 10,
      model: 'gpt-4.1',
      messages,
      response: {},
    });
    const r = readLiteLlm([
      row('r1', chatMessages),
      row('r2', {}),
      row('r3', JSON.stringify(chatMessages.slice(0, 1))),
    ]);
    expect(r?.ok && r.value.map((e) => e.label)).toEqual([
      'LiteLLM spend log row 1 of 3 · gpt-4.1 · r1',
      'LiteLLM spend log row 3 of 3 · gpt-4.1 · r3',
    ]);
    const empty = readLiteLlm([row('r2', {})]);
    expect(empty?.ok === false && empty.error.message).toMatch(/store_prompts_in_spend_logs/);
  });
});

describe('batch files', () => {
  it('Anthropic Message Batches results (JSONL): one entry per succeeded row, failures noted', () => {
    const lines = [
      {
        custom_id: 'req-1',
        result: {
          type: 'succeeded',
          message: {
            id: 'msg_1',
            type: 'message',
            role: 'assistant',
            model: 'claude-sonnet-4-5',
            content: [{ type: 'text', text: 'hi' }],
            stop_reason: 'end_turn',
          },
        },
      },
      {
        custom_id: 'req-2',
        result: {
          type: 'errored',
          error: { type: 'error', error: { type: 'invalid_request_error', message: 'bad' } },
        },
      },
      {
        custom_id: 'req-3',
        result: {
          type: 'succeeded',
          message: {
            id: 'msg_3',
            type: 'message',
            role: 'assistant',
            model: 'claude-sonnet-4-5',
            content: [{ type: 'tool_use', id: 'toolu_9', name: 'x', input: {} }],
            stop_reason: 'tool_use',
          },
        },
      },
    ];
    const text = lines.map((l) => JSON.stringify(l)).join('\n');
    const p = parseTranscript(text);
    expect(p.ok).toBe(true);
    if (!p.ok) return;
    expect(p.value.requests?.map((r) => r.label)).toEqual([
      'Anthropic batch result, row 1 of 3 (line 1): req-1',
      'Anthropic batch result, row 3 of 3 (line 3): req-3',
    ]);
    expect(p.value.transcript.format).toBe('anthropic-messages');
    expect(p.value.transcript.warnings).toContain(
      '1 row(s) of the batch failed and are not listed: req-2 (errored: bad).',
    );
  });

  it('OpenAI Batch output and input lines; the input url gives the format', () => {
    const out = readBatch([
      {
        id: 'batch_req_1',
        custom_id: 'a',
        response: {
          status_code: 200,
          body: {
            object: 'chat.completion',
            choices: [{ index: 0, message: { role: 'assistant', content: 'x' } }],
          },
        },
        error: null,
      },
    ]);
    expect(out?.ok && out.value[0]?.note.formatHint).toBe('openai-chat');
    const input = readBatch([
      {
        custom_id: 'b',
        method: 'POST',
        url: '/v1/responses',
        body: { model: 'gpt-5', input: 'hi' },
      },
    ]);
    expect(input?.ok && input.value[0]?.note.formatHint).toBe('openai-responses');
    expect(input?.ok && input.value[0]?.value).toEqual({ model: 'gpt-5', input: 'hi' });
  });

  it('an Anthropic batch create body: requests[].params', () => {
    const r = readBatch({ requests: [{ custom_id: 'x', params: brokenAnthropic }] });
    expect(r?.ok && r.value[0]?.value).toEqual(brokenAnthropic);
  });
});

describe('answerCalls', () => {
  it('names the tool calls of each provider’s response, none for a final answer', () => {
    expect(
      answerCalls({
        type: 'message',
        content: [
          { type: 'text', text: 'Looking.' },
          { type: 'tool_use', id: 'toolu_1', name: 'bash', input: {} },
        ],
      }),
    ).toEqual(['toolu_1 (bash)']);
    expect(
      answerCalls({
        choices: [{ message: { tool_calls: [{ id: 'call_1', function: { name: 'f' } }] } }],
      }),
    ).toEqual(['call_1 (f)']);
    expect(
      answerCalls({
        object: 'response',
        output: [{ type: 'message' }, { type: 'function_call', call_id: 'fc_1', name: 'g' }],
      }),
    ).toEqual(['fc_1 (g)']);
    expect(
      answerCalls({ candidates: [{ content: { parts: [{ functionCall: { name: 'h' } }] } }] }),
    ).toEqual(['(no id) (h)']);
    expect(answerCalls({ type: 'message', content: [{ type: 'text', text: 'done' }] })).toEqual([]);
    expect(answerCalls('text')).toEqual([]);
  });
});
