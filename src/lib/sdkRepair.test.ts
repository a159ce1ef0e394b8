/**
 * The README's examples of repair mode, `record`, `endpoints` and `onSkip` inside the real SDKs
 * (@anthropic-ai/sdk, openai, the AI SDK), over a stub network: the repaired request reaches the
 * network valid, each change is reported, and every provider call is recorded.
 */
import Anthropic from '@anthropic-ai/sdk';
import OpenAI from 'openai';
import { generateText, type ModelMessage } from 'ai';
import { createAnthropic } from '@ai-sdk/anthropic';
import { describe, expect, it } from 'vitest';
import {
  check,
  createCheckedFetch,
  findMalformed,
  type FetchLike,
  type RecordLine,
  type RepairReport,
  type SkipReason,
} from './index.ts';
import { REPLIES } from './testing/replies.ts';

const MODEL = 'claude-opus-4-6';

function network() {
  const sent: { url: string; body: string }[] = [];
  const fetch: FetchLike = (input, init) => {
    const url = typeof input === 'string' ? input : 'url' in input ? input.url : input.href;
    sent.push({ url, body: String(init?.body) });
    const path = new URL(url).pathname.replace(/^\/openai/, '');
    return Promise.resolve(
      new Response(JSON.stringify(REPLIES.get(path) ?? {}), {
        headers: { 'content-type': 'application/json' },
      }),
    );
  };
  return { fetch, sent };
}

describe('repair mode in the SDKs', () => {
  it('openai behind a named gateway: the unanswered call gets an error result (inserted), sent valid', async () => {
    const net = network();
    const repairs: RepairReport[] = [];
    const skips: SkipReason[] = [];
    const client = new OpenAI({
      apiKey: 'test',
      baseURL: 'https://llm-gateway.internal/openai/v1',
      fetch: createCheckedFetch({
        fetch: net.fetch,
        mode: 'repair',
        endpoints: ['https://llm-gateway.internal/openai'],
        onRepair: (r) => repairs.push(r),
        onSkip: (reason) => skips.push(reason),
      }),
    });
    const reply = await client.chat.completions.create({
      model: 'gpt-4.1',
      messages: [
        { role: 'user', content: 'Weather?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'w', arguments: '{}' } },
          ],
        },
        { role: 'user', content: 'Well?' },
      ],
    });
    expect(reply.choices[0]?.message.content).toBe('Hello.');
    expect(net.sent).toHaveLength(1);
    expect(check(net.sent[0]?.body ?? '', { format: 'openai-chat' }).valid).toBe(true);
    expect(repairs[0]?.changes.map((c) => [c.rule, c.label, c.ids])).toEqual([
      ['unanswered_tool_use', 'inserted', ['call_1']],
    ]);
    expect(repairs[0]?.endpoint).toBe('openai-chat');
    expect(skips).toEqual([]);
  });

  it('@anthropic-ai/sdk: the orphan result is dropped, the rest sent as built', async () => {
    const net = network();
    const repairs: RepairReport[] = [];
    const client = new Anthropic({
      apiKey: 'test',
      fetch: createCheckedFetch({
        fetch: net.fetch,
        mode: 'repair',
        onRepair: (r) => repairs.push(r),
      }),
    });
    await client.messages.create({
      model: MODEL,
      max_tokens: 100,
      messages: [
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_0', content: 'x' }] },
        { role: 'assistant', content: 'Earlier answer.' },
        { role: 'user', content: 'Next question?' },
      ],
    });
    const sent = JSON.parse(net.sent[0]?.body ?? '{}') as { model: string; max_tokens: number };
    expect(check(sent).valid).toBe(true);
    expect(sent).toMatchObject({ model: MODEL, max_tokens: 100 });
    expect(
      repairs[0]?.changes.some((c) => c.label === 'dropped' && c.ids.includes('toolu_0')),
    ).toBe(true);
  });
});

describe('the AI SDK with the checked fetch and a record callback', () => {
  it('a valid call is recorded as sent; a malformed one is refused and recorded', async () => {
    const net = network();
    const lines: RecordLine[] = [];
    const fetch = createCheckedFetch({
      fetch: net.fetch,
      mode: 'throw',
      record: (line) => void lines.push(line),
    });
    const model = createAnthropic({ apiKey: 'test', fetch })(MODEL);
    const ok = await generateText({ model, prompt: 'Hello?' });
    expect(ok.text).toBe('Hello.');
    const orphan: ModelMessage[] = [
      { role: 'user', content: 'Weather?' },
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
    const err: unknown = await generateText({ model, messages: orphan, maxRetries: 0 }).catch(
      (e: unknown) => e,
    );
    expect(findMalformed(err)).not.toBeNull();
    await fetch.flush();
    expect(lines.map((l) => [l.endpoint, l.outcome, l.verdict?.valid])).toEqual([
      ['anthropic', 'sent', true],
      ['anthropic', 'refused', false],
    ]);
    expect(JSON.stringify(lines)).not.toContain('"x-api-key"');
  });
});
