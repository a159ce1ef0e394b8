import { describe, expect, it } from 'vitest';
import { parseTranscript } from './index.ts';
import { listRequests } from './multi.ts';

const req = (model: string, n: number) => ({
  model,
  max_tokens: 100,
  messages: Array.from({ length: n }, (_, i) => ({
    role: i % 2 ? 'assistant' : 'user',
    content: `m${i}`,
  })),
});

describe('listRequests', () => {
  it('an array of request bodies', () => {
    const list = listRequests([req('claude-sonnet-4-5', 1), req('claude-sonnet-4-5', 3)]);
    expect(list.map((r) => r.label)).toEqual([
      '#1 · claude-sonnet-4-5 · 1 messages',
      '#2 · claude-sonnet-4-5 · 3 messages',
    ]);
  });

  it('a log export: rows wrapping the body (also as a JSON string) under a container key', () => {
    const list = listRequests({
      data: [
        { id: 'r1', request: req('gpt-4.1', 2) },
        {
          id: 'r2',
          model: 'gemini-2.5-pro',
          body: JSON.stringify({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] }),
        },
      ],
    });
    expect(list.map((r) => r.label)).toEqual([
      '#1 · gpt-4.1 · 2 messages',
      '#2 · gemini-2.5-pro · 1 contents',
    ]);
    expect(list[1]?.value).toEqual({ contents: [{ role: 'user', parts: [{ text: 'hi' }] }] });
  });

  it('single bodies, bare message arrays and mixed lists are not multi-request files', () => {
    expect(listRequests(req('x', 2))).toEqual([]);
    expect(listRequests([{ role: 'user', content: 'hi' }])).toEqual([]);
    expect(listRequests([req('x', 1), { role: 'user', content: 'hi' }])).toEqual([]);
    expect(listRequests({ requests: [] })).toEqual([]);
    expect(listRequests(null)).toEqual([]);
  });
});

describe('parseTranscript with several requests', () => {
  const text = JSON.stringify({
    requests: [req('claude-sonnet-4-5', 1), req('claude-sonnet-4-5', 3)],
  });

  it('parses the last request by default and lists them all', () => {
    const r = parseTranscript(text);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.requests).toEqual([
      { label: '#1 · claude-sonnet-4-5 · 1 messages' },
      { label: '#2 · claude-sonnet-4-5 · 3 messages' },
    ]);
    expect(r.value.requestIndex).toBe(1);
    expect(r.value.transcript.format).toBe('anthropic-messages');
    expect(r.value.transcript.messages).toHaveLength(3);
  });

  it('requestIndex picks another one (clamped to the list)', () => {
    const r = parseTranscript(text, { requestIndex: 0 });
    expect(r.ok && r.value.transcript.messages.length).toBe(1);
    const far = parseTranscript(text, { requestIndex: 99 });
    expect(far.ok && far.value.requestIndex).toBe(1);
  });

  it('a single request has no `requests`', () => {
    const r = parseTranscript(JSON.stringify(req('x', 1)));
    expect(r.ok && r.value.requests).toBeUndefined();
  });
});
