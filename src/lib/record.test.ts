/**
 * The checked fetch's `record`: a program using @anthropic-ai/sdk and openai over a stub network
 * writes a record file (one JSON line per provider call, auth never written) that the CLI opens as
 * a multi-request file: `check --request N` reads every call with its verdict and error.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { cli } from '../cli/testing/index.ts';
import {
  createCheckedFetch,
  RECORD_SCHEMA,
  type CheckMode,
  type FetchLike,
  type RecordLine,
} from './index.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'ti-record-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

const CONTEXT_ERROR = {
  type: 'error',
  error: {
    type: 'invalid_request_error',
    message: 'prompt is too long: 210000 tokens > 200000 maximum',
  },
};

/** The stub network: what each API answers (a 400 for a prompt marked too long). */
const network: FetchLike = (input, init) => {
  const url = new URL(typeof input === 'string' ? input : 'url' in input ? input.url : input.href);
  const body = String(init?.body ?? '');
  const json = (v: unknown, status = 200) =>
    Promise.resolve(
      new Response(JSON.stringify(v), { status, headers: { 'content-type': 'application/json' } }),
    );
  if (body.includes('TOO LONG')) return json(CONTEXT_ERROR, 400);
  if (url.pathname === '/v1/messages')
    return json({
      id: 'msg_1',
      type: 'message',
      role: 'assistant',
      model: 'claude-sonnet-4-5',
      content: [{ type: 'text', text: 'Hello.' }],
      stop_reason: 'end_turn',
      stop_sequence: null,
      usage: { input_tokens: 5, output_tokens: 2 },
    });
  if (url.pathname === '/v1/chat/completions' && body.includes('"stream":true')) {
    const chunk = {
      id: 'c1',
      object: 'chat.completion.chunk',
      created: 0,
      model: 'gpt-4.1',
      choices: [{ index: 0, delta: { role: 'assistant', content: 'Hi' }, finish_reason: 'stop' }],
    };
    return Promise.resolve(
      new Response(`data: ${JSON.stringify(chunk)}\n\ndata: [DONE]\n\n`, {
        headers: { 'content-type': 'text/event-stream' },
      }),
    );
  }
  return json({
    id: 'chatcmpl-1',
    object: 'chat.completion',
    created: 0,
    model: 'gpt-4.1',
    choices: [{ index: 0, message: { role: 'assistant', content: 'Hi.' }, finish_reason: 'stop' }],
    usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
  });
};

const orphan: Anthropic.MessageParam[] = [
  { role: 'user', content: 'Weather in Paris?' },
  { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01', content: '18 °C' }] },
];
const unanswered: OpenAI.ChatCompletionMessageParam[] = [
  { role: 'user', content: 'Weather in Paris?' },
  {
    role: 'assistant',
    content: null,
    tool_calls: [{ id: 'call_01', type: 'function', function: { name: 'w', arguments: '{}' } }],
  },
  { role: 'user', content: 'Well?' },
];

/** The program: six calls through both SDKs, each mode's checked fetch recording to one file. */
async function program(file: string): Promise<void> {
  const fetchFor = (mode: CheckMode) =>
    createCheckedFetch({ fetch: network, mode, record: file, onRepair: () => undefined });
  const checked = {
    respond: fetchFor('respond'),
    warn: fetchFor('warn'),
    repair: fetchFor('repair'),
  };
  const anthropic = (mode: keyof typeof checked) =>
    new Anthropic({ apiKey: 'sk-ant-SECRET', fetch: checked[mode], maxRetries: 0 });
  const openai = (mode: keyof typeof checked) =>
    new OpenAI({ apiKey: 'sk-SECRET', fetch: checked[mode], maxRetries: 0 });
  const model = 'claude-opus-4-6';
  // 1. valid, sent, 200
  await anthropic('respond').messages.create({
    model,
    max_tokens: 50,
    messages: [{ role: 'user', content: 'hi' }],
  });
  // 2. orphan result: answered with Anthropic's 400, not sent
  await anthropic('respond')
    .messages.create({ model, max_tokens: 50, messages: orphan })
    .catch(() => null);
  // 3. valid but the provider answers 400 (its error body recorded)
  await anthropic('warn')
    .messages.create({ model, max_tokens: 50, messages: [{ role: 'user', content: 'TOO LONG' }] })
    .catch(() => null);
  // 4. unanswered tool_calls, warn: sent anyway, 200
  await openai('warn').chat.completions.create({ model: 'gpt-4.1', messages: unanswered });
  // 5. the same, repair: sent repaired
  await openai('repair').chat.completions.create({ model: 'gpt-4.1', messages: unanswered });
  // 6. streamed answer: its status only
  const stream = await openai('respond').chat.completions.create({
    model: 'gpt-4.1',
    messages: [{ role: 'user', content: 'hi' }],
    stream: true,
  });
  for await (const _ of stream) void _;
  await Promise.all(Object.values(checked).map((f) => f.flush()));
}

describe('record: a file of every provider call', () => {
  const file = path.join(dir, 'calls.jsonl');

  it('the SDKs write one line per call, auth never, with verdict, repair and answer', async () => {
    await program(file);
    const text = readFileSync(file, 'utf8');
    expect(text).not.toMatch(/SECRET/);
    const lines = text
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as RecordLine);
    expect(lines).toHaveLength(6);
    for (const l of lines) {
      expect(l.schema).toBe(RECORD_SCHEMA);
      expect(l.v).toBe(1);
      expect(Object.keys(l.request.headers)).not.toContain('x-api-key');
      expect(Object.keys(l.request.headers)).not.toContain('authorization');
    }
    expect(
      lines.map((l) => [
        l.endpoint,
        l.outcome,
        l.verdict?.valid,
        l.response && 'status' in l.response ? l.response.status : null,
      ]),
    ).toEqual([
      ['anthropic', 'sent', true, 200],
      ['anthropic', 'answered-400', false, 400],
      ['anthropic', 'sent', true, 400],
      ['openai-chat', 'sent-anyway', false, 200],
      ['openai-chat', 'sent-repaired', false, 200],
      ['openai-chat', 'sent', true, 200],
    ]);
    expect(lines[2]?.response).toEqual({ status: 400, streamed: false, error: CONTEXT_ERROR });
    expect(lines[5]?.response).toEqual({ status: 200, streamed: true });
    expect(lines[4]?.repair?.changes.map((c) => [c.rule, c.label, c.ids])).toEqual([
      ['unanswered_tool_use', 'inserted', ['call_01']],
    ]);
  });

  it('check --request N opens every call of it with its verdict and error', async () => {
    const files = { 'calls.jsonl': readFileSync(file, 'utf8') };
    const runs = await Promise.all(
      [1, 2, 3, 4, 5, 6].map((n) =>
        cli(['check', 'calls.jsonl', '--request', String(n), '--json'], { ...files }),
      ),
    );
    expect(
      runs.map((r) => {
        const j = JSON.parse(r.out) as { format: string; valid: boolean };
        return [r.code, j.format, j.valid];
      }),
    ).toEqual([
      [0, 'anthropic-messages', true],
      [1, 'anthropic-messages', false],
      [0, 'anthropic-messages', true],
      [1, 'openai-chat', false],
      [0, 'openai-chat', true], // the repaired request, as sent
      [0, 'openai-chat', true],
    ]);
    const second = await cli(['check', 'calls.jsonl', '--request', '2'], { ...files });
    expect(second.out).toContain("answered with the provider's 400 without sending (respond mode)");
    expect(second.out).toContain('unexpected `tool_use_id`');
    const third = await cli(['check', 'calls.jsonl', '--request', '3'], { ...files });
    expect(third.out).toContain('The provider answered HTTP 400');
    expect(third.out).toContain('prompt is too long');
    const fifth = await cli(['check', 'calls.jsonl', '--request', '5'], { ...files });
    expect(fifth.out).toContain(
      'Repaired before sending (1 change): inserted (tool call not answered: call_01)',
    );
    const newest = await cli(['check', 'calls.jsonl'], { ...files });
    expect(newest.err).toContain('holds 6 requests; read #6');
  });

  it('check --requests lists every call of it with its verdict and the status it got', async () => {
    const files = { 'calls.jsonl': readFileSync(file, 'utf8') };
    const r = await cli(['check', 'calls.jsonl', '--requests', '--json'], { ...files });
    expect(r.code).toBe(1); // one request or more is invalid
    const list = JSON.parse(r.out) as {
      request: number;
      label: string;
      valid: boolean;
      firstRule: { code: string } | null;
    }[];
    // The verdicts the library recorded, each call's first error; the repaired call (#5) is
    // listed as sent, valid.
    const recorded = files['calls.jsonl']
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as RecordLine)
      .map((l, i) =>
        l.outcome === 'sent-repaired'
          ? [i + 1, true, null]
          : [
              i + 1,
              l.verdict?.valid ?? null,
              l.verdict?.violations.find((v) => v.severity === 'error')?.code ?? null,
            ],
      );
    expect(recorded.map((r) => r[1])).toEqual([true, false, true, false, true, true]);
    expect(list.map((c) => [c.request, c.valid, c.firstRule?.code ?? null])).toEqual(recorded);
    const text = await cli(['check', 'calls.jsonl', '--requests'], { ...files });
    expect(text.out).toMatch(/^#2 {2}\d\d:\d\d:\d\d UTC · anthropic · /m); // numbered once
    // Each label ends with the answer's status (a 400 the library answered in respond mode too).
    expect(list.map((c) => c.label.split(' · ').at(-1))).toEqual([
      '200',
      '400',
      '400',
      '200',
      '200',
      '200',
    ]);
  });
});

describe('record to a callback', () => {
  it('strips auth headers and secret query parameters; records no call that is not a provider call', async () => {
    const lines: RecordLine[] = [];
    const f = createCheckedFetch({
      fetch: () => Promise.resolve(new Response('{}')),
      mode: 'throw',
      record: (l) => void lines.push(l),
    });
    await f(
      'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-pro:generateContent?key=AIzaSECRET&alt=sse',
      {
        method: 'POST',
        headers: {
          'x-goog-api-key': 'SECRET',
          Authorization: 'Bearer SECRET',
          'api-key': 'SECRET',
          Cookie: 'a=SECRET',
          'content-type': 'application/json',
        },
        body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }),
      },
    );
    await f('https://app.example/api/save', { method: 'POST', body: '{}' });
    await f.flush();
    expect(lines).toHaveLength(1);
    expect(JSON.stringify(lines)).not.toContain('SECRET');
    expect(lines[0]?.request.headers).toEqual({ 'content-type': 'application/json' });
    expect(lines[0]?.url).toContain('alt=sse');
  });

  it('a call whose body is not read is recorded without it, with the reason', async () => {
    const lines: RecordLine[] = [];
    const f = createCheckedFetch({
      fetch: () => Promise.resolve(new Response('{}')),
      mode: 'throw',
      record: (l) => void lines.push(l),
    });
    await f('https://api.anthropic.com/v1/messages', {
      method: 'POST',
      body: new Blob(['x']).stream(),
      duplex: 'half',
    } as RequestInit);
    await f.flush();
    expect(lines[0]).toMatchObject({
      outcome: 'sent-unchecked',
      skipped: 'stream-body',
      verdict: null,
    });
    expect(lines[0]?.request.body).toBeUndefined();
  });
});
