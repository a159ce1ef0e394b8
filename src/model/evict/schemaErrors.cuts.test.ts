/**
 * Cuts of requests holding errors the validators list first, before any other check (schema
 * errors, `isSchemaError`): content parts without `type` (O13, A20), of a type Chat does not have
 * (O12). The fast cut engine agrees with validating the kept messages at every cut.
 */
import { describe, it } from 'vitest';
import { prepareCuts } from './cutTables.ts';
import { expectCutAgrees } from '../testing/evict.ts';
import { parsedText } from '../testing/index.ts';
import type { ProviderId } from '../types.ts';

const call = (id: string) => ({
  role: 'assistant',
  content: null,
  tool_calls: [{ id, type: 'function', function: { name: 'f', arguments: '{}' } }],
});

const CHAT = {
  model: 'gpt-4o',
  messages: [
    { role: 'user', content: 'q' },
    call('call_1'),
    { role: 'user', content: [{ text: 'an untyped part, after unanswered calls' }] },
    call('call_2'),
    { role: 'tool', tool_call_id: 'call_2', content: [{ url: 'https://example.com' }] },
    { role: 'user', content: 'again' },
    call('call_3'),
  ],
};

const ANTHROPIC = {
  model: 'claude-sonnet-4-5',
  max_tokens: 100,
  tools: [{ name: 'f', input_schema: { type: 'object' } }],
  messages: [
    { role: 'user', content: 'q' },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'f', input: {} }] },
    { role: 'user', content: [{ text: 'an untyped block, no result first' }] },
    { role: 'assistant', content: 'ok' },
    { role: 'user', content: [{ type: 'text', text: 'x' }, { text: 'y' }] },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_2', name: 'f', input: {} }] },
  ],
};

/** A Chat body with an Anthropic block replayed in a user message's content (O12). */
const CHAT_FOREIGN = {
  model: 'gpt-4o',
  messages: [
    { role: 'user', content: 'q' },
    call('call_1'),
    { role: 'user', content: [{ type: 'thinking', thinking: 'replayed from another API' }] },
    call('call_2'),
    { role: 'tool', tool_call_id: 'call_2', content: 'r' },
    { role: 'user', content: 'again' },
    call('call_3'),
  ],
};

describe('fast cuts agree with validating the kept messages, with schema errors', () => {
  for (const [name, body, provider] of [
    ['Chat (O13)', CHAT, 'openai-chat'],
    ['Anthropic (A20)', ANTHROPIC, 'anthropic'],
    ['Chat (O12)', CHAT_FOREIGN, 'openai-chat'],
  ] as const)
    it(name, () => {
      const t = parsedText(JSON.stringify(body)).transcript;
      const ctx = prepareCuts(t, provider as ProviderId);
      for (let k = 0; k <= t.messages.length; k++)
        expectCutAgrees(ctx, t, provider as ProviderId, k);
    });
});
