/**
 * The catalogue's rules for OpenAI Chat and its dialects (DeepSeek, Qwen, Mistral), one fixture
 * each (../../testing/catalogue.ts says what is checked).
 */
import { assistant, call, msg, tool, transcript, user } from '../../testing/index.ts';
import type { Message } from '../../types.ts';
import { OPENAI_CHAT_RULES } from './openai.ts';
import { body, expectFixtures, type Fixture } from '../../testing/catalogue.ts';

const chat = (messages: Message[]) => transcript('openai-chat', messages);

const FIXTURES: Record<string, Fixture> = {
  O1: {
    provider: 'openai-chat',
    t: () => chat([user('q'), tool('c1')]),
    params: { n: 1 },
    path: 'messages.[1].role',
  },
  O2: {
    provider: 'openai-chat',
    t: () => chat([user('q'), assistant(call('c1'))]),
    params: { ids: ['c1'] },
    path: 'messages',
  },
  O3: {
    provider: 'openai-chat',
    t: () => chat([user('q'), assistant(call('c1')), tool('c2'), tool('c1')]),
    params: { id: 'c2' },
    path: 'messages.[2].role',
  },
  O6: {
    provider: 'openai-chat',
    t: () => chat([user('q'), assistant(call('c1')), tool('c1'), tool('c1')]),
    params: { id: 'c1', n: 2, m: 3 },
    path: 'messages.[3].tool_call_id',
  },
  O7: {
    provider: 'openai-chat',
    t: () =>
      body([
        { role: 'user', content: 'q' },
        { role: 'function', name: 'f', content: '{}' },
      ]),
    path: null,
  },
  O8: { provider: 'openai-chat', t: () => chat([]), params: {}, path: 'messages' },
  O10: {
    provider: 'openai-chat',
    t: () =>
      chat([
        user('q'),
        assistant(call('c1'), call('fc_0f0e50a1476a6c35006912c58dc9f8819192c25864eb16f07f')),
        tool('c1'),
        tool('fc_0f0e50a1476a6c35006912c58dc9f8819192c25864eb16f07f'),
      ]),
    params: { n: 1, m: 1, length: 53 },
    path: 'messages[1].tool_calls[1].id',
  },
  O11: {
    provider: 'openai-chat',
    // vercel/ai#13744: a reply with no tool calls and no text, sent back as `content: null`.
    t: () =>
      body([
        { role: 'user', content: 'q' },
        { role: 'assistant', content: null },
        { role: 'user', content: 'again' },
      ]),
    params: { n: 1 },
    path: 'messages.[1].content',
  },
  O12: {
    provider: 'openai-chat',
    // @langchain/openai's changeset: a `reasoning` block replayed in a Chat message's content.
    t: () =>
      body({
        model: 'gpt-4.1',
        messages: [
          { role: 'user', content: 'q' },
          {
            role: 'assistant',
            content: [
              { type: 'reasoning', reasoning: 'Call the tool.' },
              { type: 'text', text: 'Calling.' },
            ],
            tool_calls: [
              { id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } },
            ],
          },
          { role: 'tool', tool_call_id: 'call_1', content: 'ok' },
        ],
      }),
    params: { type: 'reasoning' },
    path: 'messages[1].content[0].type',
  },
  O15: {
    provider: 'openai-chat',
    // openai/openai-python#2061: a parsed reply copied back into the history with `tool_calls: []`.
    t: () =>
      body([
        { role: 'user', content: 'What color is the sky?' },
        { role: 'assistant', content: 'Blue.', tool_calls: [] },
        { role: 'user', content: 'Why?' },
      ]),
    params: { n: 1 },
    path: 'messages[1].tool_calls',
  },
  O16: {
    provider: 'openai-chat',
    // run-llama/llama_index#17555: a retriever tool that found nothing, passed on as null.
    t: () =>
      body([
        { role: 'user', content: 'q' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: null },
      ]),
    params: { n: 2 },
    path: 'messages.[2].content',
  },
  O13: {
    provider: 'openai-chat',
    // langchain-ai/langgraph#1069: a tool's list of objects sent as the tool message's content.
    t: () =>
      body({
        model: 'gpt-4o',
        messages: [
          { role: 'user', content: 'Search the news.' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: 'call_1', type: 'function', function: { name: 'search', arguments: '{}' } },
            ],
          },
          { role: 'tool', tool_call_id: 'call_1', content: [{ url: 'https://example.com' }] },
        ],
      }),
    params: { n: 2, m: 0 },
    path: 'messages[2].content[0].type',
  },
  O9: {
    provider: 'openai-chat',
    t: () =>
      chat([
        user('q'),
        assistant(call('c1')),
        msg('tool', [{ type: 'tool_result', toolUseId: null, isError: false, content: [] }]),
      ]),
    params: { n: 2 },
    path: 'messages[2].tool_call_id',
  },
  OW1: {
    provider: 'openai-chat',
    t: () => chat([user('q'), assistant(call('c1')), tool('c1'), assistant(call('c1'))]),
    path: null,
  },
  OW2: {
    provider: 'deepseek',
    t: () => chat([user('q'), assistant(call('c1')), tool('c1'), tool('c1')]),
    path: null,
  },
  D1: {
    provider: 'deepseek',
    t: () => chat([user('q'), tool('c1')]),
    params: {},
    path: 'messages.[1].role',
  },
  D2: {
    provider: 'deepseek',
    t: () => chat([user('q'), assistant(call('c1')), user('x')]),
    params: {},
    path: 'messages.[2].role',
  },
  D3: {
    provider: 'deepseek',
    // A content filter took both the text and the calls: `{role: 'assistant'}` is left.
    t: () =>
      body([{ role: 'user', content: 'q' }, { role: 'assistant' }, { role: 'user', content: 'x' }]),
    params: {},
    path: null,
  },
  D4: {
    provider: 'deepseek',
    // hotovo/aider-desk#529: deepseek-reasoner, the call turn at index 2 sent back without it.
    t: () =>
      body({
        model: 'deepseek-reasoner',
        messages: [
          { role: 'system', content: 's' },
          { role: 'user', content: 'q' },
          {
            role: 'assistant',
            content: '',
            tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }],
          },
          { role: 'tool', tool_call_id: 'c1', content: 'x' },
        ],
      }),
    params: { n: 2 },
    path: null,
  },
  Q1: {
    provider: 'qwen',
    t: () => chat([user('q'), tool('c1')]),
    params: {},
    path: 'messages.[1].role',
  },
  Q2: {
    provider: 'qwen',
    t: () => chat([user('q'), assistant(call('c1')), user('x')]),
    params: { n: 2 },
    path: 'messages.[2].role',
  },
  M1: {
    provider: 'mistral',
    t: () => chat([user('q'), assistant('a')]),
    params: { found: 'assistant' },
    path: null,
  },
  M2: {
    provider: 'mistral',
    t: () => chat([user('q'), assistant(call('c1')), tool('c1'), user('x')]),
    params: { found: 'user', prev: 'tool' },
    path: null,
  },
  M3: {
    provider: 'mistral',
    t: () =>
      chat([user('q'), assistant(call('c1'), call('c2')), tool('c1'), assistant('x'), user('y')]),
    params: {},
    path: null,
  },
  M4: {
    provider: 'mistral',
    t: () => chat([user('q'), assistant(call('call_0fypS1hVX')), tool('call_0fypS1hVX')]),
    params: { id: 'call_0fypS1hVX' },
    path: null,
  },
  M5: {
    provider: 'mistral',
    t: () => chat([tool('c1')]),
    params: {},
    path: null,
  },
  // DeepSeek V4 words D4 without an index (JohnnyZ93/oai-compatible-copilot#215).
  D5: {
    provider: 'deepseek',
    t: () =>
      body({
        model: 'deepseek-v4-flash',
        messages: [
          { role: 'user', content: 'q' },
          {
            role: 'assistant',
            content: '',
            tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }],
          },
          { role: 'tool', tool_call_id: 'c1', content: 'r' },
        ],
      }),
    params: {},
    path: null,
  },
  // Azure spells "preceding" (Hk-Gosuto/ChatGPT-Next-Web-LangChain#193).
  AZ1: {
    provider: 'azure-openai',
    t: () => chat([user('q'), tool('c1')]),
    params: {},
    path: 'messages.[1].role',
  },
  // cloudwego/eino-ext#700: system, user, then the call message at index 2 without its reasoning.
  K1: {
    provider: 'kimi',
    t: () =>
      body({
        model: 'kimi-k2.5',
        messages: [
          { role: 'system', content: 's' },
          { role: 'user', content: 'q' },
          {
            role: 'assistant',
            content: '',
            tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }],
          },
          { role: 'tool', tool_call_id: 'c1', content: 'r' },
        ],
      }),
    params: { n: 2 },
    path: null,
  },
};

expectFixtures(
  'OpenAI Chat and its dialects (DeepSeek, Qwen, Mistral)',
  OPENAI_CHAT_RULES,
  FIXTURES,
);
