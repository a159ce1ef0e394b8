/**
 * The checked fetch and the AI SDK middleware inside the real SDKs (dev dependencies), with a stub
 * inner fetch (no network): a malformed request is stopped before the network with the provider's
 * text; a valid one reaches the inner fetch exactly as the SDK built it.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { generateText, jsonSchema, tool, wrapLanguageModel, type ModelMessage } from 'ai';
import { createAnthropic } from '@ai-sdk/anthropic';
import { createOpenAI } from '@ai-sdk/openai';
import { describe, expect, it } from 'vitest';
import { parsedText } from '../model/testing/index.ts';
import { validateTranscript } from '../model/validate/index.ts';
import {
  check,
  createCheckedFetch,
  findMalformed,
  MalformedTranscriptError,
  transcriptCheckMiddleware,
  type CheckMode,
  type FetchLike,
  type ViolationReport,
} from './index.ts';
import { REPLIES } from './testing/replies.ts';

const MODEL = 'claude-opus-4-6';

/**
 * A client fetch made of three parts: `outer` records what the SDK passes, the checked fetch
 * checks it, `inner` (the stub network) records what would be sent.
 */
function harness(mode: CheckMode, onViolation?: (r: ViolationReport) => void) {
  const outerCalls: [unknown, RequestInit | undefined][] = [];
  const sent: [unknown, RequestInit | undefined][] = [];
  const inner: FetchLike = (input, init) => {
    sent.push([input, init]);
    const url = new URL(
      typeof input === 'string' ? input : 'url' in input ? input.url : input.href,
    );
    return Promise.resolve(
      new Response(JSON.stringify(REPLIES.get(url.pathname) ?? {}), {
        status: 200,
        headers: { 'content-type': 'application/json' },
      }),
    );
  };
  const checked = createCheckedFetch({
    fetch: inner,
    mode,
    ...(onViolation ? { onViolation } : {}),
  });
  const fetch: FetchLike = (input, init) => {
    outerCalls.push([input, init]);
    return checked(input, init);
  };
  /** Every request reached the network exactly as the SDK built it (same objects, same bytes). */
  const passedUnchanged = () => {
    expect(sent.length).toBeGreaterThan(0);
    expect(sent).toHaveLength(outerCalls.length);
    sent.forEach(([input, init], i) => {
      expect(input).toBe(outerCalls[i]?.[0]);
      expect(init).toBe(outerCalls[i]?.[1]);
      expect(init?.body).toBe(outerCalls[i]?.[1]?.body);
    });
  };
  return { fetch, sent, passedUnchanged };
}

const orphanAnthropic: Anthropic.MessageParam[] = [
  { role: 'user', content: 'What is the weather in Paris?' },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: '18 °C' }] },
];
const A1_TEXT =
  'messages.0.content.1: unexpected `tool_use_id` found in `tool_result` blocks: toolu_01. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.';

const unansweredChat: OpenAI.ChatCompletionMessageParam[] = [
  { role: 'user', content: 'What is the weather in Paris?' },
  {
    role: 'assistant',
    content: null,
    tool_calls: [
      { id: 'call_01', type: 'function', function: { name: 'weather', arguments: '{}' } },
    ],
  },
  { role: 'user', content: 'Well?' },
];
const O2_TEXT =
  "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: call_01";

/** The tool the Anthropic requests define (a complete request without tools is A7). */
const TOOLS = [{ name: 'weather', input_schema: { type: 'object' as const } }];

describe('@anthropic-ai/sdk with the checked fetch', () => {
  it('respond mode: an orphan tool_result is Anthropic.BadRequestError with the exact body; nothing sent', async () => {
    const h = harness('respond');
    const client = new Anthropic({ apiKey: 'test', fetch: h.fetch });
    const err: unknown = await client.messages
      .create({ model: MODEL, max_tokens: 100, tools: TOOLS, messages: orphanAnthropic })
      .catch((e: unknown) => e);
    expect(h.sent).toHaveLength(0);
    expect(err).toBeInstanceOf(Anthropic.BadRequestError);
    const e = err as InstanceType<typeof Anthropic.BadRequestError>;
    expect(e.status).toBe(400);
    expect(e.error).toEqual({
      type: 'error',
      error: { type: 'invalid_request_error', message: A1_TEXT },
    });
  });

  it('throw mode: the SDK rejects with MalformedTranscriptError as its cause; nothing sent', async () => {
    const h = harness('throw');
    const client = new Anthropic({ apiKey: 'test', fetch: h.fetch, maxRetries: 0 });
    const err: unknown = await client.messages
      .create({ model: MODEL, max_tokens: 100, tools: TOOLS, messages: orphanAnthropic })
      .catch((e: unknown) => e);
    expect(h.sent).toHaveLength(0);
    const m = findMalformed(err);
    expect(m).toBeInstanceOf(MalformedTranscriptError);
    expect(m?.message).toContain(A1_TEXT);
    expect(m?.providerError).toEqual({
      type: 'error',
      error: { type: 'invalid_request_error', message: A1_TEXT },
    });
  });

  it('a valid request is sent exactly as the SDK built it, and its reply returned', async () => {
    const h = harness('throw');
    const client = new Anthropic({ apiKey: 'test', fetch: h.fetch });
    const reply = await client.messages.create({
      model: MODEL,
      max_tokens: 100,
      tools: TOOLS,
      messages: [
        { role: 'user', content: 'What is the weather in Paris?' },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'toolu_01', name: 'weather', input: {} }],
        },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: '18' }],
        },
      ],
    });
    expect(reply.content).toEqual([{ type: 'text', text: 'Hello.' }]);
    h.passedUnchanged();
    expect(check(JSON.parse(String(h.sent[0]?.[1]?.body))).valid).toBe(true);
  });
});

describe('openai with the checked fetch', () => {
  it('respond mode: unanswered tool_calls is OpenAI.BadRequestError with the exact body; nothing sent', async () => {
    const h = harness('respond');
    const client = new OpenAI({ apiKey: 'test', fetch: h.fetch });
    const err: unknown = await client.chat.completions
      .create({ model: 'gpt-4.1', messages: unansweredChat })
      .catch((e: unknown) => e);
    expect(h.sent).toHaveLength(0);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    const e = err as InstanceType<typeof OpenAI.BadRequestError>;
    expect(e.status).toBe(400);
    expect(e.message).toContain(O2_TEXT);
    expect(e.error).toMatchObject({ message: O2_TEXT, param: 'messages.[2].role' });
  });

  it('throw mode: MalformedTranscriptError as the cause; nothing sent', async () => {
    const h = harness('throw');
    const client = new OpenAI({ apiKey: 'test', fetch: h.fetch, maxRetries: 0 });
    const err: unknown = await client.chat.completions
      .create({ model: 'gpt-4.1', messages: unansweredChat })
      .catch((e: unknown) => e);
    expect(h.sent).toHaveLength(0);
    expect(findMalformed(err)?.message).toContain(O2_TEXT);
  });

  it('Responses: an orphan function_call_output is stopped with the Responses text', async () => {
    const h = harness('respond');
    const client = new OpenAI({ apiKey: 'test', fetch: h.fetch });
    const input: OpenAI.Responses.ResponseInput = [
      { role: 'user', content: 'Weather?' },
      { type: 'function_call_output', call_id: 'call_07', output: '18' },
    ];
    const err: unknown = await client.responses
      .create({ model: 'gpt-5', input })
      .catch((e: unknown) => e);
    expect(h.sent).toHaveLength(0);
    expect(err).toBeInstanceOf(OpenAI.BadRequestError);
    expect((err as InstanceType<typeof OpenAI.BadRequestError>).error).toEqual(
      (check({ model: 'gpt-5', input }).firstError as { error: unknown }).error,
    );
  });

  it('valid Chat Completions and Responses requests are sent exactly as built', async () => {
    const h = harness('throw');
    const client = new OpenAI({ apiKey: 'test', fetch: h.fetch });
    const chat = await client.chat.completions.create({
      model: 'gpt-4.1',
      messages: [
        ...unansweredChat.slice(0, 2),
        { role: 'tool', tool_call_id: 'call_01', content: '18' },
      ],
    });
    expect(chat.choices[0]?.message.content).toBe('Hello.');
    const resp = await client.responses.create({ model: 'gpt-5', input: 'Hello' });
    expect(resp.output_text).toBe('Hello.');
    h.passedUnchanged();
    expect(h.sent).toHaveLength(2);
  });
});

const orphanModelMessages: ModelMessage[] = [
  { role: 'user', content: 'What is the weather in Paris?' },
  {
    role: 'tool',
    content: [
      {
        type: 'tool-result',
        toolCallId: 'toolu_01',
        toolName: 'weather',
        output: { type: 'text', value: '18 °C' },
      },
    ],
  },
];

describe('AI SDK (ai + @ai-sdk/*)', () => {
  it('createAnthropic({ fetch }): an orphan tool result rejects with the Anthropic text; nothing sent', async () => {
    const h = harness('throw');
    const model = createAnthropic({ apiKey: 'test', fetch: h.fetch })(MODEL);
    const err: unknown = await generateText({
      model,
      // The request defines its tool, as a complete Anthropic request must (A7).
      tools: { weather: tool({ inputSchema: jsonSchema({ type: 'object' }) }) },
      messages: orphanModelMessages,
      maxRetries: 0,
    }).catch((e: unknown) => e);
    expect(h.sent).toHaveLength(0);
    expect(findMalformed(err)?.message).toContain(A1_TEXT);
  });

  it('createOpenAI({ fetch }).chat: an orphan tool message rejects with the OpenAI text', async () => {
    const h = harness('throw');
    const model = createOpenAI({ apiKey: 'test', fetch: h.fetch }).chat('gpt-4.1');
    const err: unknown = await generateText({
      model,
      messages: orphanModelMessages,
      maxRetries: 0,
    }).catch((e: unknown) => e);
    expect(h.sent).toHaveLength(0);
    expect(findMalformed(err)?.providerError).toMatchObject({
      error: { message: expect.stringContaining("messages with role 'tool' must be a response") },
    });
  });

  it('an empty assistant message reaches OpenAI as content "" (never null), as the page judges it', async () => {
    const h = harness('throw');
    const messages: ModelMessage[] = [
      { role: 'user', content: 'q' },
      { role: 'assistant', content: [] },
      { role: 'user', content: 'next' },
    ];
    await generateText({
      model: createOpenAI({ apiKey: 'test', fetch: h.fetch }).chat('gpt-4.1'),
      messages,
      maxRetries: 0,
    });
    h.passedUnchanged();
    const body = JSON.parse(String(h.sent[0]?.[1]?.body)) as { messages: unknown[] };
    expect(body.messages[1]).toEqual({ role: 'assistant', content: '' });
    // The same list opened in the page, judged for Chat Completions as the AI SDK sends it.
    const t = parsedText(JSON.stringify(messages), { format: 'vercel-ai' }).transcript;
    expect(validateTranscript(t, 'openai-chat').violations).toEqual([]);
  });

  it('valid calls through @ai-sdk/anthropic and @ai-sdk/openai are sent exactly as built', async () => {
    const h = harness('throw');
    const a = await generateText({
      model: createAnthropic({ apiKey: 'test', fetch: h.fetch })(MODEL),
      prompt: 'Hello',
    });
    const o = await generateText({
      model: createOpenAI({ apiKey: 'test', fetch: h.fetch }).chat('gpt-4.1'),
      prompt: 'Hello',
    });
    expect([a.text, o.text]).toEqual(['Hello.', 'Hello.']);
    h.passedUnchanged();
  });

  it('wrapLanguageModel with transcriptCheckMiddleware: rejects before the provider is called', async () => {
    const h = harness('warn');
    const model = wrapLanguageModel({
      model: createAnthropic({ apiKey: 'test', fetch: h.fetch })(MODEL),
      middleware: transcriptCheckMiddleware({ mode: 'throw' }),
    });
    const err: unknown = await generateText({
      model,
      messages: orphanModelMessages,
      maxRetries: 0,
    }).catch((e: unknown) => e);
    expect(h.sent).toHaveLength(0);
    expect(err).toBeInstanceOf(MalformedTranscriptError);
    expect((err as MalformedTranscriptError).message).toContain(A1_TEXT);
    const ok = await generateText({ model, prompt: 'Hello' });
    expect(ok.text).toBe('Hello.');
    expect(h.sent).toHaveLength(1);
  });

  it('the middleware in warn mode reports and calls the provider', async () => {
    const fetchSaw: string[] = [];
    const h = harness('warn', (r) => fetchSaw.push(r.result.firstViolation?.code ?? ''));
    const seen: string[] = [];
    const model = wrapLanguageModel({
      model: createOpenAI({ apiKey: 'test', fetch: h.fetch }).chat('gpt-4.1'),
      middleware: transcriptCheckMiddleware({
        mode: 'warn',
        onViolation: (r) => seen.push(r.result.firstViolation?.code ?? ''),
      }),
    });
    await generateText({ model, messages: orphanModelMessages, maxRetries: 0 });
    expect(seen).toEqual(['O1']);
    expect(fetchSaw).toEqual(['O1']); // the same rule on the body the AI SDK built
    expect(h.sent).toHaveLength(1);
  });
});
