/**
 * The catalogue's Anthropic Messages rules, one fixture each (../../testing/catalogue.ts says what is
 * checked).
 */
import {
  assistant,
  call,
  msg,
  result,
  system,
  text,
  thinking,
  transcript,
  user,
} from '../../testing/index.ts';
import type { Block, Message, Transcript } from '../../types.ts';
import { ANTHROPIC_RULES } from './anthropic.ts';
import { body, expectFixtures, type Fixture } from '../../testing/catalogue.ts';

const server = (id: string): Block => ({
  type: 'tool_use',
  id,
  name: 'web_search',
  input: {},
  server: true,
});
const serverResult = (id: string): Block => ({
  type: 'tool_result',
  toolUseId: id,
  isError: false,
  content: [],
  server: 'web_search_tool_result',
});
const anth = (messages: Message[], extra: Partial<Transcript> = {}) =>
  transcript('anthropic-messages', messages, extra);

const FIXTURES: Record<string, Fixture> = {
  A1: {
    provider: 'anthropic',
    t: () => anth([user(result('t1'))]),
    params: { n: 0, m: 0, id: 't1' },
    path: 'messages.0.content.0',
  },
  A2: {
    provider: 'anthropic',
    t: () => anth([user('q'), assistant(call('t1')), user('x')]),
    params: { n: 1, ids: ['t1'] },
    path: 'messages.1',
  },
  A3: {
    provider: 'anthropic',
    t: () => anth([user('q'), assistant(call('t1')), user(text('x'), result('t1'))]),
    params: { n: 1, ids: ['t1'] },
    path: 'messages.1',
  },
  A4: {
    provider: 'anthropic',
    t: () =>
      anth([
        user('q'),
        assistant(server('s1'), call('t1')),
        user(result('t1'), text('x')),
        assistant(serverResult('s1'), text('y')),
      ]),
    params: { n: 1, name: 'web_search', id: 's1' },
    path: 'messages.1',
  },
  A5: {
    provider: 'anthropic',
    t: () => anth([user('q'), assistant(call('t1'), text('after')), user(result('t1'))]),
    params: { n: 1, ids: ['t1'] },
    path: 'messages.1',
  },
  A6: {
    provider: 'anthropic',
    t: () =>
      anth([
        user('q'),
        assistant(call('t1')),
        user(result('t1')),
        assistant(call('t1')),
        user(result('t1')),
      ]),
    params: { n: 3, m: 0 },
    path: 'messages.3.content.0',
  },
  A6b: {
    provider: 'anthropic',
    t: () => anth([user('q'), assistant(call('t1')), user(result('t1'), result('t1'))]),
    // The block where the duplicate is found: the second result (bastani-inc/atomic#2051).
    params: { n: 2, m: 1, id: 't1' },
    path: 'messages.2.content.1',
  },
  A7: {
    provider: 'anthropic',
    t: () => anth([user('q'), assistant(call('t1')), user(result('t1'))], { tools: [] }),
    params: {},
    path: null,
  },
  A10: {
    provider: 'anthropic',
    t: () => anth([user('q'), msg('assistant', []), user('x')]),
    params: { n: 1 },
    path: 'messages.1',
  },
  A11: {
    provider: 'anthropic',
    t: () => anth([user(text('')), assistant('a'), user('b')]),
    params: { n: 0, m: 0 },
    path: 'messages.0.content.0.text',
  },
  A12: {
    provider: 'anthropic',
    t: () => anth([user('q'), assistant('a')], { settings: { model: 'claude-sonnet-4-6' } }),
    params: { variant: 'model' },
    path: null,
  },
  A14: { provider: 'anthropic', t: () => anth([system('s')]), params: {}, path: 'messages' },
  A15: {
    provider: 'anthropic',
    t: () => anth([user('q'), assistant(server('s1'), text('x')), user('y')]),
    params: { n: 1, name: 'web_search', id: 's1' },
    path: 'messages.1',
  },
  A16: {
    provider: 'anthropic',
    t: () => anth([user('q'), assistant(serverResult('s1'), text('x')), user('y')]),
    params: { n: 1, m: 0, type: 'web_search_tool_result', id: 's1' },
    path: 'messages.1.content.0',
  },
  A17: {
    provider: 'anthropic',
    t: () =>
      anth([user('q'), assistant({ type: 'tool_use', id: null, name: 'f', input: {} }), user('x')]),
    params: { path: 'messages.1.content.0.id' },
    path: 'messages.1.content.0.id',
  },
  A18: {
    provider: 'anthropic',
    t: () =>
      anth([
        user('q'),
        assistant(text('Looking.'), call('functions.Bash:0')),
        user(result('functions.Bash:0')),
      ]),
    params: { n: 1, m: 1, variant: 'tool_use.id' },
    path: 'messages.1.content.1.tool_use.id',
  },
  A19: {
    provider: 'anthropic',
    // The OpenAI way of giving a system prompt, on a model before Opus 4.8 (the bug report's body).
    t: () =>
      body({
        model: 'claude-sonnet-4-5',
        max_tokens: 10,
        messages: [
          { role: 'system', content: 'be nice' },
          { role: 'user', content: 'hi' },
        ],
      }),
    params: {},
    path: 'messages',
  },
  A20: {
    provider: 'anthropic',
    // Bedrock Converse blocks sent to the Messages API as they are (the newcomer's repro).
    t: () =>
      body({
        model: 'claude-sonnet-4-5',
        max_tokens: 100,
        messages: [{ role: 'user', content: [{ text: 'hi' }] }],
      }),
    params: { n: 0, m: 0 },
    path: 'messages.0.content.0.type',
  },
  T1: {
    provider: 'anthropic',
    t: () =>
      anth([user('q'), assistant(call('t1')), user(result('t1'))], {
        settings: { thinking: true },
      }),
    params: { n: 1, found: 'tool_use' },
    path: 'messages.1.content.0.type',
  },
  T2: {
    provider: 'anthropic',
    t: () =>
      anth([user('q'), assistant(text('x'), call('t1')), user(result('t1'))], {
        settings: { thinking: true },
      }),
    params: { n: 1, found: 'text' },
    path: 'messages.1.content.0.type',
  },
  T3: {
    provider: 'anthropic',
    t: () => anth([user('q'), assistant(thinking())]),
    params: { n: 1 },
    path: 'messages.1',
  },
  T4: {
    provider: 'anthropic',
    t: () => anth([user('q'), assistant(thinking(), text('a'))], { settings: { thinking: false } }),
    params: { n: 1, m: 0 },
    path: 'messages.1.content.0',
  },
  T5: {
    provider: 'anthropic',
    t: () =>
      anth([user('q'), assistant(thinking('x', ''), text('a')), user('b')], {
        settings: { thinking: true },
      }),
    params: { n: 1, m: 0 },
    path: 'messages.1.content.0',
  },
  T6: {
    provider: 'anthropic',
    t: () =>
      anth([user('q'), assistant({ type: 'thinking', thinking: 'x' }, text('a')), user('b')], {
        settings: { thinking: true },
      }),
    params: { n: 1, m: 0 },
    path: 'messages.1.content.0.thinking.signature',
  },
  // DeepSeek's Anthropic-compatible endpoint words T1 its own way (decolua/9router#2397).
  DA1: {
    provider: 'deepseek-anthropic',
    t: () =>
      anth([user('q'), assistant(call('t1')), user(result('t1'))], {
        settings: { thinking: true },
      }),
    params: {},
    path: null,
  },
};

expectFixtures('Anthropic Messages', ANTHROPIC_RULES, FIXTURES);
