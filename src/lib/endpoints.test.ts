/**
 * The checked fetch's URL table is the endpoint registry's (src/model/validate/endpoints/): every
 * request URL an endpoint documents is read and judged as that endpoint, by its own rules; a path
 * of an API at a host no endpoint names is not read.
 */
import { describe, expect, it } from 'vitest';
import { ENDPOINT_LIST, APIS } from '../model/validate/endpoints/index.ts';
import type { FormatId } from '../model/types.ts';
import { endpointOf } from './endpoints.ts';
import { createCheckedFetch, type FetchLike, type RecordLine, type SkipReason } from './index.ts';

/** A valid request body of each API (Bedrock's and Vertex's Claude bodies carry anthropic_version). */
const BODIES: Readonly<Record<FormatId, Record<string, unknown>>> = Object.assign(
  Object.create(null) as Record<FormatId, Record<string, unknown>>,
  {
    'anthropic-messages': {
      model: 'claude-sonnet-4-5',
      max_tokens: 64,
      messages: [{ role: 'user', content: 'hi' }],
    },
    'openai-chat': { model: 'gpt-4.1', messages: [{ role: 'user', content: 'hi' }] },
    'openai-responses': {
      model: 'gpt-4.1',
      input: [{ role: 'user', content: 'hi' }],
    },
    gemini: { contents: [{ role: 'user', parts: [{ text: 'hi' }] }] },
    'bedrock-converse': { messages: [{ role: 'user', content: [{ text: 'hi' }] }] },
  },
);

const bodyOf = (e: (typeof ENDPOINT_LIST)[number]) => {
  const b = BODIES[APIS[e.api].format];
  return e.body ? { ...b, anthropic_version: 'vendor-2023-05-31' } : b;
};

describe('the checked fetch recognises every endpoint of the registry', () => {
  const cases = ENDPOINT_LIST.flatMap((e) => e.urls.map((url) => [e.id, url] as const));

  it('every endpoint documents at least one URL at one of its hosts or relays', () => {
    for (const e of ENDPOINT_LIST) {
      expect(e.hosts.length, e.id).toBeGreaterThan(0);
      expect(e.urls.length, e.id).toBeGreaterThan(0);
      for (const url of e.urls) {
        const host = new URL(url).hostname;
        expect(
          [...e.hosts, ...(e.relays ?? [])].some((h) => h.test(host)),
          `${e.id}: ${url}`,
        ).toBe(true);
      }
    }
  });

  it.each(cases)('%s: %s is that endpoint', (id, url) => {
    expect(endpointOf(url)?.id).toBe(id);
  });

  it.each(cases)('%s: a body sent to %s is read and judged by its rules', async (id, url) => {
    const e = ENDPOINT_LIST.find((x) => x.id === id);
    if (!e) throw new Error(id);
    const lines: RecordLine[] = [];
    const skips: SkipReason[] = [];
    const sent: unknown[] = [];
    const inner: FetchLike = (_input, init) => {
      sent.push(init?.body);
      return Promise.resolve(new Response('{}', { status: 200 }));
    };
    const f = createCheckedFetch({
      fetch: inner,
      mode: 'throw',
      record: (l) => void lines.push(l),
      onSkip: (r) => skips.push(r),
    });
    const body = JSON.stringify(bodyOf(e));
    await f(url, { method: 'POST', body });
    expect(skips).toEqual([]);
    expect(sent).toEqual([body]);
    expect(lines.map((l) => [l.endpoint, l.outcome, l.verdict?.provider])).toEqual([
      [id, 'sent', id],
    ]);
  });

  it("an API's path at a host no endpoint names is not read (a gateway is named in `endpoints`)", () => {
    for (const e of ENDPOINT_LIST)
      for (const url of e.urls) {
        const elsewhere = url.replace(/^https:\/\/[^/]+/, 'https://app.example');
        expect(endpointOf(elsewhere), elsewhere).toBeNull();
        expect(endpointOf(elsewhere, ['https://app.example'])?.named).toBe(true);
      }
  });
});
