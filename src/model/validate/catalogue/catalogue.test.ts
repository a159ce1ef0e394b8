/**
 * Every rule of the catalogue has a fixture here: the validator reports it with the catalogue's
 * exact text (filled with the fixture's indices and ids), provider path, severity and confidence;
 * and docs/rules.md is the catalogue as generated.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import {
  assistant,
  call,
  msg,
  parsed,
  result,
  system,
  text,
  thinking,
  tool,
  transcript,
  user,
} from '../../testing.ts';
import type { Block, Message, ProviderId, Transcript } from '../../types.ts';
import { validateTranscript } from '../index.ts';
import { RULES, ruleSpec, type TextParams } from './index.ts';
import { renderRulesDoc } from './markdown.ts';

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
const chat = (messages: Message[]) => transcript('openai-chat', messages);
const body = (value: unknown) => parsed(value).transcript;
const fc = (id: string, callId: string) => ({
  type: 'function_call',
  id,
  call_id: callId,
  name: 'f',
  arguments: '{}',
});
const out = (callId: string) => ({ type: 'function_call_output', call_id: callId, output: 'ok' });
const ask = { role: 'user', content: 'q' };
const gUser = { role: 'user', parts: [{ text: 'q' }] };
const gCall = (id?: string) => ({
  role: 'model',
  parts: [{ functionCall: { name: 'f', args: {}, ...(id ? { id } : {}) } }],
});
const gResp = (id?: string) => ({
  role: 'user',
  parts: [{ functionResponse: { name: 'f', response: {}, ...(id ? { id } : {}) } }],
});
const bUser = { role: 'user', content: [{ text: 'q' }] };
const bCall = {
  role: 'assistant',
  content: [{ toolUse: { toolUseId: 't1', name: 'f', input: {} } }],
};

interface Fixture {
  provider: ProviderId;
  t: () => Transcript;
  /** What the catalogue text is filled with (errors only). */
  params?: TextParams;
  path?: string | null;
}

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
    params: { n: 2, m: 0, id: 't1' },
    path: 'messages.2.content.0',
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
  R1: {
    provider: 'openai-responses',
    t: () => body({ input: [ask, out('c1')] }),
    params: { id: 'c1' },
    path: 'input',
  },
  R2: {
    provider: 'openai-responses',
    t: () => body({ input: [ask, fc('fc_1', 'c1')] }),
    params: { id: 'c1' },
    path: 'input',
  },
  R3: {
    provider: 'openai-responses',
    t: () => body({ model: 'o3', input: [ask, fc('fc_1', 'c1'), out('c1')] }),
    params: { id: 'fc_1' },
    path: 'input',
  },
  R3b: {
    provider: 'openai-responses',
    t: () =>
      body({
        model: 'o3',
        input: [ask, { type: 'reasoning', summary: [] }, fc('fc_1', 'c1'), out('c1')],
      }),
    params: { id: 'fc_1' },
    path: 'input',
  },
  R4: {
    provider: 'openai-responses',
    t: () =>
      body({
        model: 'o3',
        input: [
          ask,
          {
            type: 'message',
            id: 'msg_1',
            role: 'assistant',
            content: [{ type: 'output_text', text: 'a' }],
          },
          ask,
        ],
      }),
    params: { id: 'msg_1' },
    path: 'input',
  },
  R5: {
    provider: 'openai-responses',
    t: () =>
      body({ model: 'o3', input: [ask, { type: 'reasoning', id: 'rs_1', summary: [] }, ask] }),
    params: { id: 'rs_1' },
    path: 'input',
  },
  R6: {
    provider: 'openai-responses',
    t: () =>
      body({
        model: 'o3',
        input: [
          ask,
          { type: 'reasoning', id: 'rs_1', summary: [] },
          fc('fc_1', 'c1'),
          out('c1'),
          fc('fc_1', 'c2'),
          out('c2'),
        ],
      }),
    params: { id: 'fc_1' },
    path: 'input',
  },
  R7: {
    provider: 'openai-responses',
    t: () => body({ input: [ask, { type: 'function_call_output', output: 'x' }] }),
    params: { n: 1 },
    path: 'input',
  },
  RW1: {
    provider: 'openai-responses',
    t: () => body({ input: [ask, fc('fc_1', 'c1'), out('c1'), fc('fc_2', 'c1')] }),
    path: null,
  },
  RW2: {
    provider: 'openai-responses',
    t: () => body({ input: [ask, fc('fc_1', 'c1'), out('c1'), out('c1')] }),
    path: null,
  },
  RW3: {
    provider: 'openai-responses',
    t: () => body({ input: [ask, out('c1'), fc('fc_1', 'c1')] }),
    path: null,
  },
  G1: { provider: 'gemini', t: () => body({ contents: [gUser, gResp()] }), params: {}, path: null },
  G2: {
    provider: 'gemini',
    t: () => body({ contents: [gCall(), gResp()] }),
    params: {},
    path: null,
  },
  G3: {
    provider: 'gemini',
    t: () => body({ contents: [gUser, gCall(), gUser] }),
    params: {},
    path: null,
  },
  G4: {
    provider: 'gemini',
    t: () => body({ model: 'gemini-3-pro', contents: [gUser, gCall(), gResp()] }),
    params: { name: 'f', position: 2 },
    path: null,
  },
  G6: { provider: 'gemini', t: () => body({ contents: [gUser, gUser] }), params: {}, path: null },
  G7: {
    provider: 'gemini',
    t: () => body({ contents: [gUser, { role: 'model', parts: [{ text: 'a' }] }] }),
    params: {},
    path: null,
  },
  G8: {
    provider: 'gemini',
    t: () => body({ contents: [], systemInstruction: { parts: [{ text: 's' }] } }),
    params: {},
    path: 'contents',
  },
  G9: {
    provider: 'gemini',
    t: () => body({ contents: [{ role: 'user', parts: [] }, gUser] }),
    params: { n: 0 },
    path: 'contents[0].parts',
  },
  GW1: {
    provider: 'gemini',
    t: () => body({ contents: [gUser, gCall('a'), gResp('b')] }),
    path: null,
  },
  GW2: {
    provider: 'gemini',
    t: () =>
      body({
        model: 'gemini-2.5-flash',
        input: [
          { type: 'user_input', content: [{ type: 'text', text: 'Ping the database.' }] },
          { type: 'thought', summary: [{ type: 'text', text: 'Use ping.' }], signature: '' },
          { type: 'function_call', id: 'c1', name: 'ping', arguments: {} },
          { type: 'function_result', call_id: 'c1', result: 'pong' },
        ],
      }),
    path: null,
  },
  B1: {
    provider: 'bedrock',
    t: () =>
      body({
        messages: [
          {
            role: 'user',
            content: [{ toolResult: { toolUseId: 't1', content: [{ text: 'x' }] } }],
          },
        ],
      }),
    params: { n: 0 },
    path: 'messages.0.content',
  },
  B2: {
    provider: 'bedrock',
    t: () => body({ messages: [bUser, bCall, bUser] }),
    params: { n: 2, ids: ['t1'] },
    path: 'messages.2.content',
  },
  B3: {
    provider: 'bedrock',
    t: () => body({ messages: [{ role: 'assistant', content: [{ text: 'a' }] }, bUser] }),
    params: {},
    path: 'messages.0',
  },
  B4: {
    provider: 'bedrock',
    t: () => body({ messages: [bUser, bUser] }),
    params: {},
    path: 'messages.1',
  },
  B5: {
    provider: 'bedrock',
    t: () =>
      body({
        modelId: 'amazon.nova-pro-v1:0',
        messages: [
          bUser,
          bCall,
          {
            role: 'user',
            content: [
              { toolResult: { toolUseId: 't1', content: [{ text: 'x' }] } },
              { text: 'and' },
            ],
          },
        ],
      }),
    params: { n: 2 },
    path: 'messages.2.content',
  },
  B6: {
    provider: 'bedrock',
    t: () =>
      body({
        messages: [
          bUser,
          bCall,
          {
            role: 'user',
            content: [{ toolResult: { toolUseId: 't1', status: 'error', content: [] } }],
          },
        ],
      }),
    params: { n: 2, m: 0 },
    path: 'messages.2.content.0.toolResult',
  },
  B7: {
    provider: 'bedrock',
    t: () => ({
      ...body({
        messages: [
          bUser,
          bCall,
          {
            role: 'user',
            content: [{ toolResult: { toolUseId: 't1', content: [{ text: 'x' }] } }],
          },
        ],
      }),
      tools: [],
    }),
    params: {},
    path: 'toolConfig',
  },
  B8: {
    provider: 'bedrock',
    t: () =>
      body({
        messages: [
          bUser,
          {
            role: 'assistant',
            content: [
              { toolUse: { toolUseId: 'http_request', name: 'http_request', input: {} } },
              { toolUse: { toolUseId: 'http_request', name: 'http_request', input: {} } },
            ],
          },
        ],
      }),
    params: { n: 1, ids: ['http_request'] },
    path: 'messages.1.content',
  },
  B9: {
    provider: 'bedrock',
    t: () =>
      body({
        messages: [
          bUser,
          bCall,
          {
            role: 'user',
            content: [
              { toolResult: { toolUseId: 't1', content: [{ text: 'blocked' }] } },
              { toolResult: { toolUseId: 't1', content: [{ text: 'blocked' }] } },
            ],
          },
        ],
      }),
    params: { n: 2, ids: ['t1'] },
    path: 'messages.2.content',
  },
  BW1: {
    provider: 'bedrock',
    t: () => body({ modelId: 'amazon.nova-pro-v1:0', messages: [bUser, bCall] }),
    path: null,
  },
};

describe('rule catalogue: every rule has a fixture with its exact text, path and param', () => {
  it('covers every catalogue entry, and nothing else', () => {
    expect(Object.keys(FIXTURES).sort()).toEqual(RULES.map((r) => r.code).sort());
  });

  for (const [code, f] of Object.entries(FIXTURES)) {
    it(`${code} (${f.provider})`, () => {
      const spec = ruleSpec(code);
      const v = validateTranscript(f.t(), f.provider).violations.find((x) => x.code === code);
      expect(v, `${code} reported`).toBeDefined();
      if (!v) return;
      expect(spec.rules).toContain(v.rule);
      expect(spec.providers).toContain(f.provider);
      expect(v.confidence).toBe(spec.confidence);
      expect(v.providerPath).toBe(f.path ?? null);
      if (spec.severity === 'warning' && code !== 'B5') {
        expect(v.severity).toBe('warning');
        expect(v.error).toBeNull();
        return;
      }
      expect(v.severity).toBe('error');
      expect(v.status).toBe(400);
      expect(spec.text).not.toBeNull();
      expect(v.message).toBe(spec.text?.(f.params ?? {}));
      // The provider's body carries the same text (and, for OpenAI, the path as `param`).
      expect(JSON.stringify(v.error)).toContain(JSON.stringify(v.message).slice(1, -1));
      const param = (v.error as { error?: { param?: unknown } }).error?.param;
      if (f.provider === 'openai-chat') expect(param).toBe(v.providerPath);
    });
  }

  it('a rule with a captured 400 is an error (warnings are never verbatim captures of a 400)', () => {
    for (const r of RULES)
      if (r.severity === 'warning') expect(r.text === null || r.note !== undefined).toBe(true);
  });
});

describe('docs/rules.md', () => {
  it('is the catalogue as generated (run `npm run rules` after changing a rule)', () => {
    const page = readFileSync(new URL('../../../../docs/rules.md', import.meta.url), 'utf8');
    expect(page).toBe(renderRulesDoc());
  });
});
