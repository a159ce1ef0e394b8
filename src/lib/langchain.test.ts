/**
 * LangChain JS: ChatOpenAI and ChatAnthropic hand their SDK client a custom fetch
 * (`configuration.fetch`, `clientOptions.fetch`); the checked fetch stops a malformed
 * conversation before the (stub) network, with the provider's text.
 */
import { ChatAnthropic } from '@langchain/anthropic';
import { AIMessage, HumanMessage, ToolMessage } from '@langchain/core/messages';
import { ChatOpenAI } from '@langchain/openai';
import { describe, expect, it } from 'vitest';
import { createCheckedFetch, type FetchLike } from './index.ts';

function stubNetwork() {
  const sent: unknown[] = [];
  const fetch: FetchLike = (input) => {
    sent.push(input);
    return Promise.resolve(new Response('{}', { status: 500 }));
  };
  return { sent, fetch: createCheckedFetch({ fetch, mode: 'respond' }) };
}

describe('LangChain with the checked fetch', () => {
  it('ChatOpenAI: an AIMessage whose tool call has no ToolMessage is stopped with the OpenAI text', async () => {
    const net = stubNetwork();
    const model = new ChatOpenAI({
      model: 'gpt-4.1',
      apiKey: 'test',
      maxRetries: 0,
      configuration: { fetch: net.fetch },
    });
    const err: unknown = await model
      .invoke([
        new HumanMessage('What is the weather in Paris?'),
        new AIMessage({ content: '', tool_calls: [{ id: 'call_01', name: 'weather', args: {} }] }),
        new HumanMessage('Well?'),
      ])
      .catch((e: unknown) => e);
    expect(net.sent).toHaveLength(0);
    expect(String((err as Error).message)).toContain(
      "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: call_01",
    );
  });

  it('ChatAnthropic: a ToolMessage whose call was trimmed away is stopped with the Anthropic text', async () => {
    const net = stubNetwork();
    const model = new ChatAnthropic({
      model: 'claude-opus-4-6',
      apiKey: 'test',
      maxRetries: 0,
      clientOptions: { fetch: net.fetch },
    });
    // The request defines its tool, as a complete Anthropic request must (A7).
    const err: unknown = await model
      .bindTools([{ name: 'weather', description: 'w', input_schema: { type: 'object' } }])
      .invoke([
        new HumanMessage('What is the weather in Paris?'),
        new ToolMessage({ tool_call_id: 'toolu_01', content: '18 °C' }),
      ])
      .catch((e: unknown) => e);
    expect(net.sent).toHaveLength(0);
    expect(String((err as Error).message)).toContain(
      'unexpected `tool_use_id` found in `tool_result` blocks: toolu_01. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.',
    );
  });
});
