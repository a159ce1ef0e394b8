import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parsedText } from '../testing/index.ts';
import { oncallSpans, toOtlp } from '../testing/otel.fixtures.ts';
import { diffRequests, diffText, longestIncreasing, predecessorOf } from './index.ts';
import { diffTranscripts } from './diff.ts';
import {
  listFileRequests,
  outOfRange,
  requestTokens,
  requestVerdict,
  type RequestListing,
} from './requests.ts';
import { countTokens, loadBpeCounter } from '../tokens.ts';
import { defaultProviderOf } from '../validate/index.ts';

function list(text: string, name = 'f.json'): RequestListing {
  const r = listFileRequests(text, { name });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

const jsonl = (lines: object[]) => lines.map((l) => JSON.stringify(l)).join('\n');

/** A Codex rollout: turn 1 (one call with a tool), rolled back, then turn 2 (one call). */
function rollout(): string {
  const item = (payload: object) => ({ timestamp: 't', type: 'response_item', payload });
  const event = (payload: object) => ({ timestamp: 't', type: 'event_msg', payload });
  const msg = (role: string, text: string) =>
    item({
      type: 'message',
      role,
      content: [{ type: role === 'user' ? 'input_text' : 'output_text', text }],
    });
  return jsonl([
    { timestamp: 't', type: 'session_meta', payload: { id: 's' } },
    event({ type: 'task_started' }),
    { timestamp: 't', type: 'turn_context', payload: { model: 'gpt-5' } },
    msg('user', 'first try'),
    item({ type: 'function_call', name: 'sh', arguments: '{}', call_id: 'call_1' }),
    item({ type: 'function_call_output', call_id: 'call_1', output: 'ok' }),
    msg('assistant', 'done once'),
    event({ type: 'turn_aborted', reason: 'interrupted' }),
    event({ type: 'thread_rolled_back', num_turns: 1 }),
    event({ type: 'task_started' }),
    { timestamp: 't', type: 'turn_context', payload: { model: 'gpt-5' } },
    msg('user', 'second try'),
    msg('assistant', 'done again'),
  ]);
}

describe('listFileRequests', () => {
  it('a Codex rollout: one call per run of output items; a rollback takes its turn out of the context', () => {
    const l = list(rollout(), 'r.jsonl');
    expect(l.kind).toBe('session');
    expect(l.requests.map((r) => r.messages)).toEqual([1, 3, 1]);
    expect(l.requests[2]?.compaction).toMatchObject({ kind: 'rollback', removed: [0, 4] });
    const third = l.transcriptOf(2);
    expect(third.messages.map((m) => m.blocks[0]?.type === 'text' && m.blocks[0].text)).toEqual([
      'second try',
    ]);
    expect(third.messages.map((m) => m.index)).toEqual([0]);
    // The rolled-back turn's calls keep their messages (the parse alone drops them).
    expect(l.transcriptOf(1).messages).toHaveLength(3);
    expect(parsedText(rollout(), { name: 'r.jsonl' }).transcript.messages).toHaveLength(2);
  });

  it('notes the lines a JSON Lines file skipped (newcomer: check --requests said nothing of a broken line)', () => {
    const lines = rollout().split('\n');
    lines.splice(4, 0, '{"timestamp": "t", "type": "response_item", "payload": {');
    const session = list(lines.join('\n'), 'r.jsonl');
    expect(session.kind).toBe('session');
    expect(session.notes[0]).toBe('1 line(s) are not valid JSON and were skipped: 5.');
    const bare = list(`[{"role":"user","content":"hi"}]`);
    expect(bare.notes).toEqual([]);
  });

  it('a file of several requests: archive, lineage by shared prefix, not file order', () => {
    const a1 = [{ role: 'user', content: 'Plan the trip.' }];
    const b1 = [{ role: 'user', content: 'Write a poem.' }];
    const a2 = [
      ...a1,
      { role: 'assistant', content: 'Where to?' },
      { role: 'user', content: 'Rome.' },
    ];
    const b2 = [
      ...b1,
      { role: 'assistant', content: 'On what?' },
      { role: 'user', content: 'Rain.' },
    ];
    const body = (messages: object[]) => ({ model: 'claude-sonnet-4-5', max_tokens: 10, messages });
    const l = list(JSON.stringify([a1, b1, a2, b2].map(body)));
    expect(l.kind).toBe('archive');
    expect(l.requests.map((r) => r.messages)).toEqual([1, 1, 3, 3]);
    expect(predecessorOf(l, 2)).toEqual({ request: 0, reason: 'shared prefix of 1 message' });
    expect(predecessorOf(l, 3).request).toBe(1);
    expect(predecessorOf(l, 0).request).toBeNull();
    const d = diffRequests(l, 3);
    expect(d.ok && d.value.summary).toMatch(/^Request 4 added 2 messages/);
    expect(d.ok && d.value.cachePrefix.messages).toBe(1);
    expect(requestVerdict(l, 3)).toEqual({ valid: true, firstRule: null });
  });

  it('one request counts the same by every counter path: the listing, the recount, the diff and the transcript (newcomer: a batch request 618 in check --requests, 871 in diff)', async () => {
    const bpe = await loadBpeCounter();
    const log = 'log output 0 '.repeat(40);
    const body = (n: number) => ({
      custom_id: `req-${n}`,
      params: {
        model: 'claude-sonnet-4-5',
        max_tokens: 1024,
        system: 'You are a deploy assistant.',
        messages: [
          { role: 'user', content: 'Deploy failed, find out why.' },
          { role: 'assistant', content: `Checking ${n}.` },
          { role: 'user', content: log.repeat(n) },
        ],
      },
    });
    const text = jsonl([body(1), body(2)]);
    const counted = listFileRequests(text, { name: 'batch.jsonl', counter: bpe });
    if (!counted.ok) throw new Error(counted.error.message);
    const l = counted.value;
    expect(l.kind).toBe('archive');
    const byTranscript = [0, 1].map(
      (k) => countTokens(l.transcriptOf(k), defaultProviderOf(l.transcriptOf(k)), bpe).total,
    );
    expect(l.requests.map((r) => r.tokens)).toEqual(byTranscript);
    // chars/4 would give another number: the counter was dropped for archives.
    expect(list(text, 'batch.jsonl').requests.map((r) => r.tokens)).not.toEqual(byTranscript);
    // A listing made at chars/4 counted again by the BPE (the page's strip) says the same.
    expect(requestTokens(list(text, 'batch.jsonl'), bpe)).toEqual(byTranscript);
    const d = diffRequests(l, 1, 0, { counter: bpe });
    if (!d.ok) throw new Error(d.error);
    expect([d.value.left.tokens, d.value.right.tokens]).toEqual(byTranscript);
  });

  it('a session log: the recount by the BPE equals the listing made with it, call by call', async () => {
    const bpe = await loadBpeCounter();
    const text = rollout();
    const withBpe = listFileRequests(text, { name: 'r.jsonl', counter: bpe });
    if (!withBpe.ok) throw new Error(withBpe.error.message);
    expect(requestTokens(list(text, 'r.jsonl'), bpe)).toEqual(
      withBpe.value.requests.map((r) => r.tokens),
    );
  });

  it('one request: a single listing; out of range names the range', () => {
    const l = list(JSON.stringify({ messages: [{ role: 'user', content: 'hi' }] }));
    expect(l.kind).toBe('single');
    expect(l.requests).toHaveLength(1);
    expect(() => l.transcriptOf(1)).toThrow(
      'request 2 is out of range: this file holds one request (1)',
    );
    expect(outOfRange(8, 4)).toBe('request 9 is out of range: this file holds requests 1–4');
    const d = diffRequests(l, 0, 3);
    expect(d).toEqual({
      ok: false,
      error: 'request 4 is out of range: this file holds one request (1)',
    });
  });

  it('a Claude Code sub-agent thread is its own conversation for the lineage', () => {
    let n = 0;
    const line = (v: object, parent: string | null, side = false) => ({
      uuid: `u${++n}`,
      parentUuid: parent,
      sessionId: 's',
      isSidechain: side,
      ...v,
    });
    const a = (id: string, text: string) => ({
      type: 'assistant',
      message: {
        id,
        role: 'assistant',
        model: 'claude-opus-4-7',
        content: [{ type: 'text', text }],
      },
    });
    const u = (text: string) => ({ type: 'user', message: { role: 'user', content: text } });
    const lines = [
      line(u('main 1'), null),
      line(a('m1', 'reply 1'), 'u1'),
      line(u('main 2'), 'u2'),
      line(a('m2', 'reply 2'), 'u3'),
      line(u('side task'), null, true),
      line(a('s1', 'side reply'), 'u5', true),
      line(u('side more'), 'u6', true),
      line(a('s2', 'side reply 2'), 'u7', true),
    ];
    const l = list(jsonl(lines), 'c.jsonl');
    expect(l.requests.map((r) => [r.thread, r.messages])).toEqual([
      ['main', 1],
      ['main', 3],
      ['side-1', 1],
      ['side-1', 3],
    ]);
    expect(predecessorOf(l, 3).request).toBe(2);
    expect(predecessorOf(l, 2).request).toBeNull();
    expect(predecessorOf(l, 1).request).toBe(0);
    // Two calls of one log are matched by identity: all kept, the new exchange inserted.
    const d = diffRequests(l, 1);
    expect(d.ok && d.value.rows.map((r) => r.change)).toEqual(['kept', 'inserted', 'inserted']);
  });
});

describe('a provider compaction block seals what it replaced', () => {
  it('labels the span sealed by the right message', () => {
    const body = (messages: object[]) =>
      JSON.stringify({ model: 'claude-sonnet-4-5', max_tokens: 10, messages });
    const before = parsedText(
      body([
        { role: 'user', content: 'one' },
        { role: 'assistant', content: 'two' },
        { role: 'user', content: 'three' },
      ]),
    ).transcript;
    const after = parsedText(
      body([
        { role: 'assistant', content: [{ type: 'compaction', content: 'what happened so far' }] },
        { role: 'user', content: 'three' },
      ]),
    ).transcript;
    const d = diffTranscripts(before, after);
    expect(d.rows.map((r) => [r.change, r.left, r.right])).toEqual([
      ['sealed', 0, 0],
      ['sealed', 1, 0],
      ['kept', 2, 1],
    ]);
    expect(d.summary).toMatch(/sealed messages 0–1 in a compaction/);
  });
});

describe('diffText', () => {
  it('gives hunks that rebuild both texts', () => {
    fc.assert(
      fc.property(fc.string(), fc.string(), (a, b) => {
        const h = diffText(a, b);
        expect(
          h
            .filter((x) => x.op !== 'insert')
            .map((x) => x.text)
            .join(''),
        ).toBe(a);
        expect(
          h
            .filter((x) => x.op !== 'delete')
            .map((x) => x.text)
            .join(''),
        ).toBe(b);
        for (let k = 1; k < h.length; k++) expect(h[k]?.op).not.toBe(h[k - 1]?.op);
      }),
    );
  });

  it('marks a cleared result as one deletion and one insertion around what stayed', () => {
    expect(diffText('result: 42; done', 'result: [x]; done')).toEqual([
      { op: 'equal', text: 'result: ' },
      { op: 'delete', text: '42' },
      { op: 'insert', text: '[x]' },
      { op: 'equal', text: '; done' },
    ]);
  });
});

describe('longestIncreasing', () => {
  it('is increasing and as long as the quadratic reference', () => {
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 0, max: 30 }), { maxLength: 40 }), (js) => {
        const run = longestIncreasing(js);
        for (let k = 1; k < run.length; k++) {
          expect(run[k]!).toBeGreaterThan(run[k - 1]!);
          expect(js[run[k]!]!).toBeGreaterThan(js[run[k - 1]!]!);
        }
        const best = js.map(() => 1);
        for (let i = 0; i < js.length; i++)
          for (let j = 0; j < i; j++)
            if (js[j]! < js[i]!) best[i] = Math.max(best[i]!, best[j]! + 1);
        expect(run.length).toBe(Math.max(0, ...best));
      }),
    );
  });
});

describe('an OpenTelemetry trace of several LLM calls', () => {
  it('lists its calls as an archive; each call continues the one before it in the conversation', () => {
    const l = list(JSON.stringify(toOtlp(oncallSpans())), 'trace.json');
    expect(l.kind).toBe('archive');
    expect(l.requests.length).toBeGreaterThan(1);
    const last = l.requests.length - 1;
    const p = predecessorOf(l, last);
    expect(p.request).not.toBeNull();
    const d = diffRequests(l, last);
    expect(d.ok).toBe(true);
    if (d.ok) expect(d.value.rows.filter((r) => r.change === 'kept').length).toBeGreaterThan(0);
  });
});

describe('a Claude Code API error', () => {
  it('is a call that failed, and the call after it in its thread its retry', () => {
    let n = 0;
    const line = (v: object) => ({
      uuid: `u${++n}`,
      parentUuid: n > 1 ? `u${n - 1}` : null,
      sessionId: 's',
      ...v,
    });
    const a = (id: string, text: string, extra: object = {}, model = 'claude-opus-4-7') => ({
      type: 'assistant',
      message: { id, role: 'assistant', model, content: [{ type: 'text', text }] },
      ...extra,
    });
    const lines = [
      line({ type: 'user', message: { role: 'user', content: 'go' } }),
      line(a('e1', 'API Error: 400 overloaded', { isApiErrorMessage: true }, '<synthetic>')),
      line(a('m1', 'done')),
      line(a('x1', 'No response requested.', {}, '<synthetic>')),
    ];
    const l = list(jsonl(lines), 'c.jsonl');
    expect(l.requests.map((r) => [r.request, r.apiError, r.retryOf])).toEqual([
      [1, 'API Error: 400 overloaded', undefined],
      [2, undefined, 1],
    ]);
  });
});

describe('a HAR entry the provider answered with an error', () => {
  /** A HAR entry: a Chat body to OpenAI, answered with `status` and `answer` (a JSON body). */
  const entry = (content: string, status: number, answer?: object) => ({
    request: {
      method: 'POST',
      url: 'https://api.openai.com/v1/chat/completions',
      postData: {
        mimeType: 'application/json',
        text: JSON.stringify({ model: 'gpt-4.1', messages: [{ role: 'user', content }] }),
      },
    },
    response: {
      status,
      content: answer ? { mimeType: 'application/json', text: JSON.stringify(answer) } : {},
    },
  });
  const har = (...entries: object[]) => JSON.stringify({ log: { version: '1.2', entries } });
  // The newcomer's har-valid-but-400.har answer (a valid body, refused for another reason).
  const refused = {
    error: {
      message: "Invalid 'messages[2].tool_calls[0].function.arguments': string too long.",
      type: 'invalid_request_error',
      param: 'messages[2].tool_calls[0].function.arguments',
      code: 'string_above_max_length',
    },
  };

  it('carries the recorded error as apiError, as a Claude Code log\u2019s (one request)', () => {
    const l = list(har(entry('hi', 400, refused)), 's.har');
    expect(l.kind).toBe('single');
    expect(l.requests[0]?.apiError).toBe(
      "HTTP 400: Invalid 'messages[2].tool_calls[0].function.arguments': string too long.",
    );
  });

  it('each request of a HAR of several its own (none for a 200; the status alone without a body)', () => {
    const l = list(har(entry('a', 200, {}), entry('b', 400, refused), entry('c', 503)), 's.har');
    expect(l.kind).toBe('archive');
    expect(l.requests.map((r) => r.apiError)).toEqual([
      undefined,
      "HTTP 400: Invalid 'messages[2].tool_calls[0].function.arguments': string too long.",
      'HTTP 503',
    ]);
    // The request parsed first (the default, the last) keeps its error too.
    expect(l.defaultIndex).toBe(2);
  });
});
