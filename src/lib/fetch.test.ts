/** The checked fetch with a stub inner fetch (no network): each API, each mode, pass-through. */
import { describe, expect, it, vi } from 'vitest';
import {
  check,
  createCheckedFetch,
  findMalformed,
  MalformedTranscriptError,
  recogniseEndpoint,
  type FetchLike,
} from './index.ts';

function stub() {
  const calls: { input: unknown; init: RequestInit | undefined; args: number }[] = [];
  const fetch: FetchLike = (...args: Parameters<FetchLike>) => {
    calls.push({ input: args[0], init: args[1], args: args.length });
    return Promise.resolve(new Response('{"ok":true}', { status: 200 }));
  };
  return { fetch, calls };
}

const post = (body: unknown): RequestInit => ({
  method: 'POST',
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify(body),
});

/** One malformed and one valid body per API, with the URL a client sends it to. */
const APIS = [
  {
    api: 'Anthropic Messages',
    url: 'https://api.anthropic.com/v1/messages?beta=true',
    provider: 'anthropic',
    bad: {
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
      // A complete request defines its tools (without them A7 would come first).
      tools: [{ name: 'f', input_schema: { type: 'object' } }],
      messages: [
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_9', content: 'x' }] },
      ],
    },
    good: {
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
      messages: [{ role: 'user', content: 'hi' }],
    },
  },
  {
    api: 'OpenAI Chat Completions',
    url: 'https://api.openai.com/v1/chat/completions',
    provider: 'openai-chat',
    bad: {
      model: 'gpt-4.1',
      messages: [
        { role: 'user', content: 'weather?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'w', arguments: '{}' } },
          ],
        },
        { role: 'user', content: 'well?' },
      ],
    },
    good: { model: 'gpt-4.1', messages: [{ role: 'user', content: 'hi' }] },
  },
  {
    api: 'OpenAI Responses',
    url: 'https://api.openai.com/v1/responses',
    provider: 'openai-responses',
    bad: {
      model: 'gpt-5',
      input: [
        { role: 'user', content: 'hi' },
        { type: 'function_call_output', call_id: 'call_7', output: 'ok' },
      ],
    },
    good: { model: 'gpt-5', input: [{ role: 'user', content: 'hi' }] },
  },
  {
    api: 'Gemini generateContent',
    url: 'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-pro:generateContent',
    provider: 'gemini',
    bad: {
      contents: [
        { role: 'user', parts: [{ text: 'weather?' }] },
        { role: 'model', parts: [{ functionCall: { name: 'w', args: {} } }] },
        { role: 'user', parts: [{ text: 'well?' }] },
      ],
    },
    good: { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] },
  },
  {
    api: 'Bedrock Converse',
    url: 'https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-3-5-sonnet-20240620-v1%3A0/converse',
    provider: 'bedrock',
    bad: {
      messages: [
        {
          role: 'user',
          content: [{ toolResult: { toolUseId: 'tu_1', content: [{ text: 'ok' }] } }],
        },
      ],
    },
    good: { messages: [{ role: 'user', content: [{ text: 'hi' }] }] },
  },
] as const;

describe('createCheckedFetch, throw mode', () => {
  for (const a of APIS) {
    it(`${a.api}: a malformed request rejects before the inner fetch, with the provider's body`, async () => {
      const s = stub();
      const f = createCheckedFetch({ fetch: s.fetch, mode: 'throw' });
      const err = await f(a.url, post(a.bad)).then(
        () => null,
        (e: unknown) => e,
      );
      expect(s.calls).toHaveLength(0);
      expect(err).toBeInstanceOf(MalformedTranscriptError);
      const m = err as MalformedTranscriptError;
      const expected = check(a.bad, { provider: a.provider });
      expect(expected.valid).toBe(false);
      expect(m.provider).toBe(a.provider);
      expect(m.providerError).toEqual(expected.firstError);
      expect(m.status).toBe(400);
      expect(m.message).toContain(expected.firstViolation?.message);
      expect(m.violations).toEqual(expected.violations);
    });

    it(`${a.api}: a valid request reaches the inner fetch with the very same arguments`, async () => {
      const s = stub();
      const f = createCheckedFetch({ fetch: s.fetch, mode: 'throw' });
      const init = post(a.good);
      const res = await f(a.url, init);
      expect(res.status).toBe(200);
      expect(s.calls).toEqual([{ input: a.url, init, args: 2 }]);
      expect(s.calls[0]?.init).toBe(init);
    });
  }

  it('OpenAI Chat: an assistant message with tool_calls: [] is refused with O15 (openai-python#2061)', async () => {
    const s = stub();
    const f = createCheckedFetch({ fetch: s.fetch, mode: 'throw' });
    const body = {
      model: 'gpt-4o',
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'Sure.', tool_calls: [] },
        { role: 'user', content: 'thanks' },
      ],
    };
    const err = await f('https://api.openai.com/v1/chat/completions', post(body)).then(
      () => null,
      (e: unknown) => e,
    );
    expect(s.calls).toHaveLength(0);
    expect(err).toBeInstanceOf(MalformedTranscriptError);
    expect((err as MalformedTranscriptError).providerError).toEqual({
      error: {
        message:
          "Invalid 'messages[1].tool_calls': empty array. Expected an array with minimum length 1, but got an empty array instead.",
        type: 'invalid_request_error',
        param: 'messages[1].tool_calls',
        code: 'empty_array',
      },
    });
  });

  it('the model in a Gemini or Bedrock URL is the model checked (Gemini 3 thought signatures)', () => {
    const body = {
      contents: [
        { role: 'user', parts: [{ text: 'weather?' }] },
        { role: 'model', parts: [{ functionCall: { name: 'w', args: {} } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'w', response: { t: 1 } } }] },
      ],
    };
    const base = 'https://generativelanguage.googleapis.com/v1beta/models';
    expect(recogniseEndpoint(`${base}/gemini-3-pro-preview:generateContent`, body)).toEqual({
      id: 'gemini',
      format: 'gemini',
      provider: 'gemini',
      model: 'gemini-3-pro-preview',
    });
    expect(check(body, { model: 'gemini-3-pro-preview' }).notes.join(' ')).not.toMatch(
      /checked only for Gemini 3/,
    );
    expect(
      recogniseEndpoint(
        'https://bedrock-runtime.us-east-1.amazonaws.com/model/us.anthropic.claude-sonnet-4-5%3A0/converse-stream',
        { messages: [{ role: 'user', content: [{ text: 'hi' }] }] },
      ),
    ).toMatchObject({ provider: 'bedrock', model: 'us.anthropic.claude-sonnet-4-5:0' });
  });

  it('OpenAI-compatible hosts get their own rules; `provider` overrides the URL', () => {
    const body = APIS[1].good;
    expect(recogniseEndpoint('https://api.deepseek.com/chat/completions', body)?.provider).toBe(
      'deepseek',
    );
    expect(recogniseEndpoint('https://api.mistral.ai/v1/chat/completions', body)?.provider).toBe(
      'mistral',
    );
  });

  it('Claude through Bedrock InvokeModel is read as an Anthropic body', async () => {
    const s = stub();
    const f = createCheckedFetch({ fetch: s.fetch, mode: 'throw' });
    const url =
      'https://bedrock-runtime.us-east-1.amazonaws.com/model/anthropic.claude-3-5-sonnet-20240620-v1:0/invoke';
    const body = {
      anthropic_version: 'bedrock-2023-05-31',
      max_tokens: APIS[0].bad.max_tokens,
      tools: APIS[0].bad.tools,
      messages: APIS[0].bad.messages,
    };
    await expect(f(url, post(body))).rejects.toThrow(/unexpected `tool_use_id`/);
    expect(s.calls).toHaveLength(0);
  });

  it('a base URL named in `endpoints` is read: its path names the API, else a sure body', async () => {
    const s = stub();
    const f = createCheckedFetch({
      fetch: s.fetch,
      mode: 'throw',
      endpoints: ['https://gateway.example/proxy', 'http://localhost:4000'],
    });
    await expect(f('https://gateway.example/proxy/llm', post(APIS[0].bad))).rejects.toThrow(
      MalformedTranscriptError,
    );
    await expect(f('http://localhost:4000/v1/chat/completions', post(APIS[1].bad))).rejects.toThrow(
      MalformedTranscriptError,
    );
    // Not under the base (another path, another origin): not read.
    await f('https://gateway.example/proxyless/llm', post(APIS[0].bad));
    await f('https://example.com/api/notes', post(APIS[0].bad));
    // Under the base, but no request of a known API.
    await f('https://gateway.example/proxy/notes', post({ messages: ['a', 'b'] }));
    expect(s.calls).toHaveLength(3);
  });
});

describe('createCheckedFetch passes through what it cannot read, unchanged', () => {
  const url = APIS[0].url;
  const cases: [string, () => [string | URL | Request, RequestInit?]][] = [
    ['a GET', () => [url]],
    ['a GET with init', () => [url, { method: 'GET' }]],
    ['a body that is not JSON', () => [url, { method: 'POST', body: '{"messages": [' }]],
    ['a JSON body of another API', () => [url, post({ name: 'x' })]],
    [
      'a stream body',
      () => [
        url,
        {
          method: 'POST',
          body: new Blob([JSON.stringify(APIS[0].bad)]).stream(),
          duplex: 'half',
        } as RequestInit,
      ],
    ],
    ['form data', () => [url, { method: 'POST', body: new FormData() }]],
    ['another endpoint of the API', () => ['https://api.anthropic.com/v1/models', post({})]],
  ];
  for (const [name, make] of cases) {
    it(name, async () => {
      const s = stub();
      const f = createCheckedFetch({ fetch: s.fetch, mode: 'throw' });
      const [input, init] = make();
      await (init === undefined ? f(input) : f(input, init));
      expect(s.calls).toHaveLength(1);
      expect(s.calls[0]?.input).toBe(input);
      expect(s.calls[0]?.init).toBe(init);
      expect(s.calls[0]?.args).toBe(init === undefined ? 1 : 2);
    });
  }

  it('reads bytes and a Blob without consuming them; a Request body is a stream, never read', async () => {
    const s = stub();
    const skips: string[] = [];
    const f = createCheckedFetch({ fetch: s.fetch, mode: 'throw', onSkip: (r) => skips.push(r) });
    const text = JSON.stringify(APIS[0].bad);
    const bodies: BodyInit[] = [new TextEncoder().encode(text), new Blob([text])];
    for (const body of bodies)
      await expect(f(url, { method: 'POST', body })).rejects.toThrow(MalformedTranscriptError);
    const req = new Request(url, { method: 'POST', body: text });
    await f(req);
    expect(skips).toEqual(['stream-body']);
    expect(s.calls[0]?.input).toBe(req);
    expect(req.bodyUsed).toBe(false);
    expect(await req.text()).toBe(text);
  });
});

describe('createCheckedFetch, warn and respond modes', () => {
  it('warn: reports, then sends the request unchanged', async () => {
    const s = stub();
    const reports: unknown[] = [];
    const f = createCheckedFetch({
      fetch: s.fetch,
      mode: 'warn',
      onViolation: (r) => reports.push(r.result.firstError),
    });
    const init = post(APIS[1].bad);
    await f(APIS[1].url, init);
    expect(reports).toEqual([check(APIS[1].bad).firstError]);
    expect(s.calls).toHaveLength(1);
    expect(s.calls[0]?.init).toBe(init);
  });

  it('warn without onViolation: one console.warn line with the provider text', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    try {
      const s = stub();
      await createCheckedFetch({ fetch: s.fetch, mode: 'warn' })(APIS[1].url, post(APIS[1].bad));
      expect(warn).toHaveBeenCalledTimes(1);
      expect(String(warn.mock.calls[0]?.[0])).toContain('did not have response messages: call_1');
      expect(s.calls).toHaveLength(1);
    } finally {
      warn.mockRestore();
    }
  });

  it("respond: the provider's 400, exact body, nothing sent", async () => {
    for (const a of APIS) {
      const s = stub();
      const res = await createCheckedFetch({ fetch: s.fetch, mode: 'respond' })(a.url, post(a.bad));
      expect(s.calls).toHaveLength(0);
      expect(res.status).toBe(400);
      expect(res.headers.get('x-transcript-inspector')).toBe('not-sent');
      expect(await res.json()).toEqual(check(a.bad, { provider: a.provider }).firstError);
    }
  });

  it('respond at Bedrock: x-amzn-errortype for Converse and for Claude through InvokeModel, in Bedrock\u2019s body', async () => {
    const converse = APIS.find((a) => a.provider === 'bedrock');
    if (!converse) throw new Error('no Bedrock case');
    const invoke = {
      url: 'https://bedrock-runtime.us-east-1.amazonaws.com/model/us.anthropic.claude-sonnet-4-5-20250929-v1%3A0/invoke',
      bad: { anthropic_version: 'bedrock-2023-05-31', ...APIS[0].bad, model: undefined },
    };
    for (const a of [converse, invoke]) {
      const s = stub();
      const res = await createCheckedFetch({ fetch: s.fetch, mode: 'respond' })(a.url, post(a.bad));
      expect(s.calls).toHaveLength(0);
      expect(res.status).toBe(400);
      expect(res.headers.get('x-amzn-errortype'), a.url).toBe('ValidationException');
    }
    // Claude on Bedrock answers Anthropic's text after Bedrock's prefix, in its own body.
    const res = await createCheckedFetch({ fetch: stub().fetch, mode: 'respond' })(
      invoke.url,
      post(invoke.bad),
    );
    const body = (await res.json()) as { message?: string };
    expect(body.message).toMatch(/^The model returned the following errors: messages\.\d/);
    // Anthropic's own API has no such header.
    const direct = await createCheckedFetch({ fetch: stub().fetch, mode: 'respond' })(
      APIS[0].url,
      post(APIS[0].bad),
    );
    expect(direct.headers.get('x-amzn-errortype')).toBeNull();
  });

  it('findMalformed follows `cause`; bad options are refused', () => {
    const m = new MalformedTranscriptError('u', check(APIS[0].bad));
    expect(findMalformed(new Error('Connection error.', { cause: m }))).toBe(m);
    expect(findMalformed(new Error('x'))).toBeNull();
    expect(() => createCheckedFetch({ mode: 'raise' as never })).toThrow(RangeError);
    expect(() => createCheckedFetch({ mode: 'throw', provider: 'claude' as never })).toThrow(
      RangeError,
    );
  });
});
