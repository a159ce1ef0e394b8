/**
 * The checked fetch against hostile and ordinary traffic (issue 36): stream bodies pass at once
 * and unread, requests that are not provider calls are not touched whatever their body, bodies
 * over the cap pass unread, holes and `null` messages are named, and every skip is reported.
 */
import { describe, expect, it } from 'vitest';
import {
  check,
  createCheckedFetch,
  MalformedTranscriptError,
  repair,
  UnreadableTranscriptError,
  type FetchLike,
  type SkipReason,
} from './index.ts';
import { endpointOf } from './endpoints.ts';

const ANTHROPIC = 'https://api.anthropic.com/v1/messages';

/** An Anthropic body with an orphan tool_result: the provider answers 400 (A1). */
const ORPHAN = {
  model: 'claude-sonnet-4-5',
  max_tokens: 100,
  messages: [
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_9', content: 'x' }] },
  ],
};

function harness(mode: 'throw' | 'respond' | 'warn' | 'repair' = 'throw', maxBodyBytes?: number) {
  const calls: { input: unknown; init: RequestInit | undefined; args: number }[] = [];
  const skips: { reason: SkipReason; endpoint: string | null }[] = [];
  const fetch: FetchLike = (...args: Parameters<FetchLike>) => {
    calls.push({ input: args[0], init: args[1], args: args.length });
    return Promise.resolve(new Response('{}', { status: 200 }));
  };
  const f = createCheckedFetch({
    fetch,
    mode,
    ...(maxBodyBytes !== undefined ? { maxBodyBytes } : {}),
    onSkip: (reason, info) => skips.push({ reason, endpoint: info.endpoint }),
  });
  return { f, calls, skips };
}

/** A stream that yields one chunk and then never ends (a slow or two-way upload). */
function endless(): ReadableStream<Uint8Array> {
  let pulled = 0;
  return new ReadableStream<Uint8Array>({
    pull(c) {
      if (pulled++ === 0) c.enqueue(new TextEncoder().encode(JSON.stringify(ORPHAN)));
      return new Promise(() => undefined); // never resolves: the stream never ends
    },
  });
}

/** A body whose every read throws. */
class Exploding extends Blob {
  override text(): Promise<string> {
    throw new Error('read');
  }
  override arrayBuffer(): Promise<ArrayBuffer> {
    throw new Error('read');
  }
  override stream(): ReadableStream<Uint8Array<ArrayBuffer>> {
    throw new Error('read');
  }
  override get size(): number {
    throw new Error('size');
  }
}

describe('stream bodies pass at once, unread', () => {
  it('a never-ending stream in init: the inner fetch is called before the call returns', () => {
    const h = harness();
    const body = endless();
    const init = { method: 'POST', body, duplex: 'half' } as RequestInit;
    void h.f(ANTHROPIC, init);
    // No await: the inner fetch was called synchronously, with the same arguments.
    expect(h.calls).toHaveLength(1);
    expect(h.calls[0]?.init).toBe(init);
    expect(body.locked).toBe(false);
    expect(h.skips).toEqual([{ reason: 'stream-body', endpoint: 'anthropic' }]);
  });

  it('a never-ending stream inside a Request: called at once with the same Request, not teed', () => {
    const h = harness();
    const req = new Request(ANTHROPIC, {
      method: 'POST',
      body: endless(),
      duplex: 'half',
    } as RequestInit);
    void h.f(req);
    expect(h.calls).toHaveLength(1);
    expect(h.calls[0]?.input).toBe(req);
    expect(h.calls[0]?.args).toBe(1);
    expect(req.bodyUsed).toBe(false);
    expect(req.body?.locked).toBe(false);
    expect(h.skips[0]?.reason).toBe('stream-body');
  });

  it('an async iterable body passes too', () => {
    const h = harness();
    const body = (async function* () {
      yield new Uint8Array([123]);
      await new Promise(() => undefined);
    })();
    void h.f(ANTHROPIC, { method: 'POST', body } as unknown as RequestInit);
    expect(h.calls).toHaveLength(1);
    expect(h.skips[0]?.reason).toBe('stream-body');
  });
});

describe('requests that are not provider calls are not touched', () => {
  const urls = [
    'https://app.example/api/conversations',
    'https://logs.example/ingest',
    'https://storage.example/upload/transcript.json',
    'https://api.anthropic.com/v1/models',
    '/api/conversations',
  ];
  for (const url of urls)
    it(`${url}: a broken transcript is stored as given, even in throw mode`, async () => {
      const h = harness('throw');
      const init = { method: 'POST', body: JSON.stringify(ORPHAN) };
      const p = h.f(url, init);
      expect(h.calls).toHaveLength(1); // called synchronously, nothing read first
      await p;
      expect(h.calls[0]?.input).toBe(url);
      expect(h.calls[0]?.init).toBe(init);
      expect(h.skips[0]?.reason).toBe('not-endpoint');
    });

  it('a body whose every read throws still passes (Blob, Request, object)', async () => {
    const h = harness('throw');
    const blob = new Exploding([JSON.stringify(ORPHAN)]);
    await h.f('https://storage.example/put', { method: 'POST', body: blob });
    const hostile = {
      get body() {
        throw new Error('touched');
      },
      method: 'POST',
    } as unknown as RequestInit;
    await h.f('https://storage.example/put', hostile);
    const req = new Request('https://storage.example/put', { method: 'POST', body: 'x' });
    Object.defineProperty(req, 'clone', {
      value: () => {
        throw new Error('cloned');
      },
    });
    await h.f(req);
    expect(h.calls.map((c) => c.init)).toEqual([
      { method: 'POST', body: blob },
      hostile,
      undefined,
    ]);
    expect(h.skips.map((s) => s.reason)).toEqual(['not-endpoint', 'not-endpoint', 'not-endpoint']);
  });

  it('endpointOf answers from the URL alone', () => {
    expect(endpointOf('https://api.anthropic.com/v1/messages')?.id).toBe('anthropic');
    expect(endpointOf('https://api.openai.com/v1/responses')?.id).toBe('openai-responses');
    expect(endpointOf('https://x.openai.azure.com/openai/deployments/d/chat/completions')?.id).toBe(
      'azure-openai',
    );
    expect(
      endpointOf(
        'https://us-east5-aiplatform.googleapis.com/v1/projects/p/locations/l/publishers/google/models/gemini-2.5-pro:generateContent',
      ),
    ).toMatchObject({ id: 'vertex-gemini', model: 'gemini-2.5-pro' });
    expect(endpointOf('https://api.deepseek.com/anthropic/v1/messages')?.id).toBe(
      'deepseek-anthropic',
    );
    expect(endpointOf('https://evil.example/v1/messages')).toBeNull();
    expect(endpointOf('https://api.anthropic.com.evil.example/v1/messages')).toBeNull();
    expect(endpointOf('not a url at all ::')).toBeNull();
  });
});

describe('the size cap', () => {
  it('a body over the cap passes unread (default 32 MB, settable)', async () => {
    const h = harness('throw', 1000);
    const body = JSON.stringify({ ...ORPHAN, pad: 'x'.repeat(2000) });
    await h.f(ANTHROPIC, { method: 'POST', body });
    await h.f(ANTHROPIC, { method: 'POST', body: new Blob([body]) });
    await h.f(ANTHROPIC, { method: 'POST', body: new TextEncoder().encode(body) });
    expect(h.calls).toHaveLength(3);
    expect(h.skips.map((s) => s.reason)).toEqual(['too-large', 'too-large', 'too-large']);
    const big = harness('throw');
    const huge = JSON.stringify({ ...ORPHAN, pad: 'x'.repeat(33 * 1024 * 1024) });
    await big.f(ANTHROPIC, { method: 'POST', body: huge });
    expect(big.skips[0]?.reason).toBe('too-large');
    // Under the cap, the same request is refused.
    await expect(
      harness('throw', 1000).f(ANTHROPIC, { method: 'POST', body: JSON.stringify(ORPHAN) }),
    ).rejects.toThrow(MalformedTranscriptError);
  });

  it('skips at a provider endpoint say why: GET, no body, form data, not JSON, another shape', async () => {
    const h = harness('throw');
    await h.f(ANTHROPIC);
    await h.f(ANTHROPIC, { method: 'POST' });
    await h.f(ANTHROPIC, { method: 'POST', body: new FormData() });
    await h.f(ANTHROPIC, { method: 'POST', body: '{"messages": [' });
    await h.f(ANTHROPIC, { method: 'POST', body: '{"name": "x"}' });
    expect(h.skips.map((s) => s.reason)).toEqual([
      'not-post',
      'no-body',
      'not-json',
      'not-json',
      'other-body',
    ]);
    expect(h.calls).toHaveLength(5);
  });
});

describe('holes and null messages are named', () => {
  const holed = () => {
    const b = {
      model: 'claude-sonnet-4-5',
      max_tokens: 10,
      messages: [
        { role: 'user', content: 'a' },
        { role: 'assistant', content: 'b' },
        { role: 'user', content: 'c' },
      ] as unknown[],
    };
    delete b.messages[1];
    return b;
  };
  const nulled =
    '{"model":"gpt-4.1","messages":[{"role":"user","content":"a"},null,{"role":"user","content":"c"}]}';

  it('check and repair throw UnreadableTranscriptError naming the entry (not TypeError)', () => {
    for (const f of [() => check(holed()), () => repair(holed())])
      expect(f).toThrow(/messages\.1 is a hole/);
    expect(() => check(holed())).toThrow(UnreadableTranscriptError);
    for (const f of [() => check(nulled), () => repair(nulled), () => check(JSON.parse(nulled))])
      expect(f).toThrow(/messages\.1 is `null`/);
    const contents = { contents: [{ role: 'user', parts: [{ text: 'a' }] }, null] };
    expect(() => check(contents)).toThrow(/contents\.1 is `null`/);
  });

  it('the checked fetch refuses (throw, respond) or reports and sends (warn, repair)', async () => {
    const url = 'https://api.openai.com/v1/chat/completions';
    for (const mode of ['throw', 'respond'] as const) {
      const h = harness(mode);
      await expect(h.f(url, { method: 'POST', body: nulled })).rejects.toThrow(
        UnreadableTranscriptError,
      );
      expect(h.calls).toHaveLength(0);
    }
    for (const mode of ['warn', 'repair'] as const) {
      const h = harness(mode);
      const init = { method: 'POST', body: nulled };
      await h.f(url, init);
      expect(h.calls[0]?.init).toBe(init);
      expect(h.skips[0]?.reason).toBe('unreadable-transcript');
    }
  });
});
