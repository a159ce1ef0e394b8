import { describe, expect, it } from 'vitest';
import {
  assistant,
  call,
  parsed,
  result,
  system,
  text,
  tool,
  transcript,
  user,
} from '../testing/index.ts';
import type { Message } from '../types.ts';
import { validateTranscript } from './index.ts';

const t = (messages: Message[]) => transcript('openai-chat', messages);
const all = (messages: Message[]) => validateTranscript(t(messages), 'openai-chat').violations;

const O1 =
  "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.";

describe('openai-chat validator: exact provider texts', () => {
  it('O1: a transcript that starts with a tool message (the real "preceeding" spelling)', () => {
    const [v] = all([tool('call_1'), assistant('It is 18 °C.'), user('thanks')]);
    expect(v).toMatchObject({
      rule: 'orphan_tool_result',
      code: 'O1',
      messageIndex: 0,
      ids: ['call_1'],
      providerPath: 'messages.[0].role',
      status: 400,
    });
    expect(v?.error).toEqual({
      error: { message: O1, type: 'invalid_request_error', param: 'messages.[0].role', code: null },
    });
  });

  it('O1: the system message counts in the index', () => {
    const [v] = all([system('s'), tool('call_1'), assistant('x')]);
    expect(v).toMatchObject({ messageIndex: 1, providerPath: 'messages.[1].role' });
  });

  it('O1: a tool message after a plain assistant message', () => {
    const [v] = all([
      user('q'),
      assistant(call('call_1')),
      tool('call_1'),
      assistant('done'),
      tool('call_1'),
    ]);
    expect(v).toMatchObject({ rule: 'orphan_tool_result', messageIndex: 4 });
  });

  it('O2: the array ends before every call is answered → param "messages"', () => {
    const [v] = all([system('s'), user('q'), assistant(call('call_A'))]);
    expect(v).toMatchObject({
      rule: 'trailing_tool_use',
      code: 'O2',
      messageIndex: 2,
      ids: ['call_A'],
      providerPath: 'messages',
    });
    expect(v?.error).toEqual({
      error: {
        message:
          "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: call_A",
        type: 'invalid_request_error',
        param: 'messages',
        code: null,
      },
    });
  });

  it('O2: a user message breaks the run → param names it; only missing ids listed', () => {
    const [v] = all([
      user('q'),
      assistant(call('call_A'), call('call_B')),
      tool('call_B'),
      user('hurry'),
      tool('call_A'),
    ]);
    expect(v).toMatchObject({
      rule: 'partial_answer',
      ids: ['call_A'],
      providerPath: 'messages.[3].role',
      messageIndex: 1,
    });
    expect(v?.message).toContain('did not have response messages: call_A');
  });

  it('O3: a tool message answering an id the previous message did not call', () => {
    const [v] = all([user('q'), assistant(call('call_A')), tool('call_Z')]);
    expect(v).toMatchObject({ rule: 'tool_result_wrong_id', code: 'O3' });
    expect(v?.message).toBe(
      "Invalid parameter: 'tool_call_id' of 'call_Z' not found in 'tool_calls' of previous message.",
    );
  });

  it('O5: lenient points are accepted (assistant first, consecutive users, tool→user, any order in the run)', () => {
    expect(
      all([
        assistant('hello'),
        user('a'),
        user('b'),
        assistant(call('call_A'), call('call_B')),
        tool('call_B'),
        tool('call_A'),
        user('thanks'),
      ]).filter((v) => v.severity === 'error'),
    ).toEqual([]);
  });

  it('one tool message carrying several results (the AI SDK shape) answers every call', () => {
    const both = { ...tool('call_A'), blocks: [result('call_A'), result('call_B')] };
    expect(
      all([user('q'), assistant(call('call_A'), call('call_B')), both, assistant('ok')]),
    ).toEqual([]);
  });

  it('O6: two tool messages with one tool_call_id are a 400, with both positions', () => {
    const vs = all([
      user('q'),
      assistant(call('call_A')),
      tool('call_A'),
      tool('call_A'),
      assistant('x'),
    ]);
    expect(vs).toHaveLength(1);
    expect(vs[0]).toMatchObject({
      rule: 'duplicate_tool_result',
      code: 'O6',
      severity: 'error',
      status: 400,
      messageIndex: 3,
      ids: ['call_A'],
      providerPath: 'messages.[3].tool_call_id',
    });
    expect(vs[0]?.error).toEqual({
      error: {
        message:
          "Invalid parameter: Duplicate value for 'tool_call_id' of 'call_A', in messages[2] and messages[3].",
        type: 'invalid_request_error',
        param: 'messages.[3].tool_call_id',
        code: null,
      },
    });
    expect(
      validateTranscript(
        t([user('q'), assistant(call('call_A')), tool('call_A'), tool('call_A')]),
        'openai-chat',
      ).valid,
    ).toBe(false);
  });

  it('missing tool_call_id is a schema error', () => {
    const [v] = all([
      user('q'),
      assistant(call('call_A')),
      {
        ...tool('x'),
        blocks: [{ type: 'tool_result', toolUseId: null, isError: false, content: [] }],
      },
    ]);
    expect(v).toMatchObject({ rule: 'missing_tool_id', providerPath: 'messages[2].tool_call_id' });
  });

  it('Anthropic-shaped user tool_result messages are rendered as tool messages first', () => {
    expect(
      validateTranscript(
        t([
          user('q'),
          assistant(call('call_A')),
          user(result('call_A'), text('and')),
          assistant('ok'),
        ]),
        'openai-chat',
      ).valid,
    ).toBe(true);
    const [v] = validateTranscript(
      t([user('q'), assistant(call('call_A')), user(text('first'), result('call_A'))]),
      'openai-chat',
    ).violations;
    // Rendered as [user, assistant, tool, user]: the result still follows the calls, so it passes;
    // but a result placed after a plain user message is an orphan at its rendered index.
    expect(v).toBeUndefined();
  });
});

describe('openai-chat: what a client sends that is not a pairing fault', () => {
  it('O7: a 2023 legacy `functions` transcript pairs role `function` by position (no false O1)', () => {
    const p = parsed({
      model: 'gpt-3.5-turbo-0613',
      functions: [{ name: 'get_weather', parameters: { type: 'object', properties: {} } }],
      messages: [
        { role: 'user', content: 'Weather in Paris?' },
        {
          role: 'assistant',
          content: null,
          function_call: { name: 'get_weather', arguments: '{}' },
        },
        { role: 'function', name: 'get_weather', content: '{"temp":18}' },
        { role: 'assistant', content: '18 degrees.' },
        { role: 'user', content: 'And London?' },
        {
          role: 'assistant',
          content: null,
          function_call: { name: 'get_weather', arguments: '{}' },
        },
        { role: 'function', name: 'get_weather', content: '{"temp":12}' },
      ],
    });
    expect(p.transcript.format).toBe('openai-chat');
    const v = validateTranscript(p.transcript, 'openai-chat');
    expect(v.violations).toEqual([]);
    expect(v.valid).toBe(true);
  });

  it('O7: a function message with no function_call before it is only a warning', () => {
    const p = parsed([
      { role: 'user', content: 'q' },
      { role: 'function', name: 'get_weather', content: '{}' },
    ]);
    const v = validateTranscript(p.transcript, 'openai-chat');
    expect(v.valid).toBe(true);
    expect(v.violations.map((x) => [x.code, x.severity, x.messageIndex])).toEqual([
      ['O7', 'warning', 1],
    ]);
  });

  it('O8: `[]` (a trim that kept nothing) reads as an empty Chat request and is a 400', () => {
    const p = parsed([]);
    expect(p.transcript.messages).toEqual([]);
    expect(p.transcript.warnings.join(' ')).toMatch(/empty message list/);
    const [v] = validateTranscript(p.transcript, 'openai-chat').violations;
    expect(v).toMatchObject({ code: 'O8', rule: 'empty_request', index: -1, status: 400 });
    expect(v?.error).toEqual({
      error: {
        message:
          "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.",
        type: 'invalid_request_error',
        param: 'messages',
        code: 'empty_array',
      },
    });
    // The same list judged for Anthropic and Gemini: their empty-request rules.
    expect(validateTranscript(p.transcript, 'anthropic').violations[0]?.code).toBe('A14');
    expect(validateTranscript(p.transcript, 'gemini').violations[0]?.code).toBe('G8');
  });

  it('a system prompt alone is a request for OpenAI (it is a message), not for Anthropic', () => {
    const only = t([system('s')]);
    expect(validateTranscript(only, 'openai-chat').valid).toBe(true);
    expect(validateTranscript(only, 'anthropic').violations.map((v) => v.code)).toEqual(['A14']);
  });
});

describe('O11 / D3: an assistant message with neither content nor tool_calls', () => {
  const body = (model: string): { model: string; messages: Record<string, unknown>[] } => ({
    model,
    messages: [
      { role: 'user', content: 'Run the tests.' },
      { role: 'assistant', content: null, tool_calls: [fnCall('call_1')] },
      { role: 'tool', tool_call_id: 'call_1', content: 'ok' },
      // A hook removed this turn's calls and kept the message (its content was already null).
      { role: 'assistant', content: null },
      { role: 'user', content: 'Again?' },
    ],
  });

  it('O11: a type error, listed before the tool-run checks, with OpenAI’s param', () => {
    const b = body('gpt-4o');
    b.messages.push({ role: 'tool', tool_call_id: 'call_9', content: 'late' });
    const vs = validateTranscript(parsed(b).transcript, 'openai-chat').violations;
    expect(vs.map((v) => v.code)).toEqual(['O11', 'O1']);
    expect(vs[0]).toMatchObject({ rule: 'null_content', messageIndex: 3, blockIndex: null });
    expect(vs[0]?.error).toEqual({
      error: {
        message: "Invalid value for 'content': expected a string, got null.",
        type: 'invalid_request_error',
        param: 'messages.[3].content',
        code: null,
      },
    });
  });

  it('null content beside tool_calls, and an empty string alone, are accepted', () => {
    const b = body('gpt-4o');
    b.messages[3] = { role: 'assistant', content: '' };
    expect(validateTranscript(parsed(b).transcript, 'openai-chat').valid).toBe(true);
  });

  it('a reply that was only reasoning (content null, reasoning_content) is null content too', () => {
    const b = body('deepseek-chat');
    b.messages[3] = { role: 'assistant', content: null, reasoning_content: 'Nothing to add.' };
    const t = parsed(b).transcript;
    const codes = (p: 'openai-chat' | 'deepseek' | 'anthropic' | 'gemini') =>
      validateTranscript(t, p).violations.map((v) => [v.code, v.messageIndex]);
    expect(codes('openai-chat')).toEqual([['O11', 3]]);
    expect(codes('deepseek')).toEqual([['D3', 3]]);
    // The reasoning is no content for the other providers either (it is not a block).
    expect(codes('anthropic')).toEqual([['A10', 3]]);
    expect(codes('gemini')).toEqual([['G9', 3]]);
  });

  it('D3: DeepSeek’s words, no param', () => {
    const vs = validateTranscript(parsed(body('deepseek-chat')).transcript, 'deepseek').violations;
    expect(vs.map((v) => v.code)).toEqual(['D3']);
    const [v] = vs;
    expect(v).toMatchObject({
      code: 'D3',
      rule: 'null_content',
      message: 'Invalid assistant message: content or tool_calls must be set',
      providerPath: null,
    });
  });
});

describe('O15: an assistant message sent with tool_calls: []', () => {
  // The newcomer's inputs (chat-empty-toolcalls.json, chat-asst-null-emptycalls.json).
  const emptyCalls = {
    model: 'gpt-4o',
    messages: [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'Sure.', tool_calls: [] },
      { role: 'user', content: 'thanks' },
    ],
  };
  const nullAndEmpty = {
    model: 'gpt-4.1',
    messages: [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: null, tool_calls: [] },
      { role: 'user', content: 'hi' },
    ],
  };

  it('is the 400 OpenAI answers (openai-python#2061: param, code empty_array)', () => {
    const v = validateTranscript(parsed(emptyCalls).transcript, 'openai-chat');
    expect(v.valid).toBe(false);
    expect(v.violations.map((x) => x.code)).toEqual(['O15']);
    expect(v.violations[0]).toMatchObject({
      rule: 'empty_tool_calls',
      messageIndex: 1,
      blockIndex: null,
      providerPath: 'messages[1].tool_calls',
      severity: 'error',
    });
    expect(v.violations[0]?.error).toEqual({
      error: {
        message:
          "Invalid 'messages[1].tool_calls': empty array. Expected an array with minimum length 1, but got an empty array instead.",
        type: 'invalid_request_error',
        param: 'messages[1].tool_calls',
        code: 'empty_array',
      },
    });
  });

  it('beside content: null, the schema error first, then O11 (the message has neither)', () => {
    const vs = validateTranscript(parsed(nullAndEmpty).transcript, 'openai-chat').violations;
    expect(vs.map((x) => [x.code, x.messageIndex])).toEqual([
      ['O15', 1],
      ['O11', 1],
    ]);
  });

  it('Azure and Kimi take OpenAI\u2019s rule; DeepSeek and Qwen are not judged by it', () => {
    const tr = parsed(emptyCalls).transcript;
    const codes = (p: 'azure-openai' | 'kimi' | 'deepseek' | 'qwen' | 'mistral') =>
      validateTranscript(tr, p).violations.map((x) => x.code);
    expect(codes('azure-openai')).toEqual(['O15']);
    expect(codes('kimi')).toEqual(['O15']);
    expect(codes('deepseek')).toEqual([]);
    expect(codes('qwen')).toEqual([]);
    expect(codes('mistral')).toEqual([]);
  });

  it('a list with a call, and no tool_calls key, are not it', () => {
    const b = structuredClone(emptyCalls);
    delete (b.messages[1] as { tool_calls?: unknown }).tool_calls;
    expect(validateTranscript(parsed(b).transcript, 'openai-chat').valid).toBe(true);
  });

  it('only a body read as Chat is judged by what it sends: a transcript built from blocks is not', () => {
    expect(all([user('hi'), assistant('Sure.'), user('thanks')])).toEqual([]);
  });
});

describe('O16: a tool or user message sent with content: null', () => {
  // The newcomer's inputs (chat-tool-null.json, chat-user-null.json).
  const toolNull = {
    model: 'gpt-4.1',
    messages: [
      { role: 'user', content: 'Weather in Paris?' },
      { role: 'assistant', content: null, tool_calls: [fnCall('call_1')] },
      { role: 'tool', tool_call_id: 'call_1', content: null },
    ],
  };
  const userNull = { model: 'gpt-4.1', messages: [{ role: 'user', content: null }] };
  const nullBody = (n: number) => ({
    error: {
      message: "Invalid value for 'content': expected a string, got null.",
      type: 'invalid_request_error',
      param: `messages.[${n}].content`,
      code: null,
    },
  });

  it('a tool that returned nothing (llama_index#17555): O11\u2019s 400, at the tool message', () => {
    const v = validateTranscript(parsed(toolNull).transcript, 'openai-chat');
    expect(v.valid).toBe(false);
    expect(v.violations.map((x) => x.code)).toEqual(['O16']);
    expect(v.violations[0]).toMatchObject({
      rule: 'null_content',
      messageIndex: 2,
      blockIndex: null,
      providerPath: 'messages.[2].content',
      title: 'Message sent with content: null',
    });
    expect(v.violations[0]?.error).toEqual(nullBody(2));
  });

  it('a user message with null content', () => {
    const vs = validateTranscript(parsed(userNull).transcript, 'openai-chat').violations;
    expect(vs.map((x) => [x.code, x.messageIndex])).toEqual([['O16', 0]]);
    expect(vs[0]?.error).toEqual(nullBody(0));
  });

  it('an empty string, and the same result rendered from another format, are accepted', () => {
    const b = structuredClone(toolNull);
    (b.messages[2] as { content: unknown }).content = '';
    expect(validateTranscript(parsed(b).transcript, 'openai-chat').valid).toBe(true);
    // An Anthropic tool_result with no content: a client writes `content: ""`, not null.
    const anth = parsed({
      model: 'claude-sonnet-4-5',
      messages: [
        { role: 'user', content: 'Weather?' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'w', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1' }] },
      ],
    }).transcript;
    expect(validateTranscript(anth, 'openai-chat').violations.map((x) => x.code)).toEqual([]);
  });

  it('Azure takes OpenAI\u2019s rule; DeepSeek (D3 is the assistant\u2019s) and Qwen are not judged by it', () => {
    for (const b of [toolNull, userNull]) {
      const tr = parsed(b).transcript;
      const codes = (p: 'azure-openai' | 'deepseek' | 'qwen') =>
        validateTranscript(tr, p).violations.map((x) => x.code);
      expect(codes('azure-openai')).toEqual(['O16']);
      expect(codes('deepseek')).toEqual([]);
      expect(codes('qwen')).toEqual([]);
    }
  });
});

function fnCall(id: string) {
  return { id, type: 'function', function: { name: 'bash', arguments: '{}' } };
}

describe('a replayed call: the evidence (O6) decides, no contradicting warning (issue 41)', () => {
  it('a repeated id answered twice gets O6 only, not OW1 ("no rejection known") beside it', () => {
    const vs = all([
      user('q'),
      assistant(call('call_1')),
      tool('call_1'),
      assistant(call('call_1')),
      tool('call_1'),
    ]);
    expect(vs.map((v) => v.code)).toEqual(['O6']);
  });

  it('a repeated id answered once keeps OW1, whose text names O6 rather than denying a 400', () => {
    const vs = all([
      user('q'),
      assistant(call('call_1')),
      tool('call_1'),
      assistant(call('call_1', 'again')),
      user('stop'),
    ]);
    const ow1 = vs.find((v) => v.code === 'OW1');
    expect(ow1?.why).toContain('O6');
    expect(ow1?.why).not.toMatch(/not been reported to reject/);
  });
});
