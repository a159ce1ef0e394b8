import { describe, expect, it } from 'vitest';
import { assistant, call, parsed, system, tool, transcript, user } from '../testing/index.ts';
import { validateTranscript } from './index.ts';

const envelope = (message: string) => ({
  error: { message, type: 'invalid_request_error', param: null, code: 'invalid_request_error' },
});
const ORPHAN =
  "Messages with role 'tool' must be a response to a preceding message with 'tool_calls'";
const MISSING =
  "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. (insufficient tool messages following tool_calls message)";

describe('deepseek (D1, D2)', () => {
  it('orphan tool message: "preceding", capital M, no period, param null', () => {
    const v = validateTranscript(
      transcript('openai-chat', [tool('call_1'), user('hi')]),
      'deepseek',
    );
    expect(v.provider).toBe('deepseek');
    expect(v.violations[0]).toMatchObject({
      rule: 'orphan_tool_result',
      status: 400,
      message: ORPHAN,
      error: envelope(ORPHAN),
      confidence: 'V',
    });
  });

  it('unanswered or partially answered calls: the text has no id list', () => {
    const partial = validateTranscript(
      transcript('openai-chat', [
        user('q'),
        assistant(call('call_a'), call('call_b')),
        tool('call_a'),
        user('next'),
      ]),
      'deepseek',
    );
    expect(partial.violations[0]).toMatchObject({
      rule: 'partial_answer',
      ids: ['call_b'],
      message: MISSING,
      error: envelope(MISSING),
    });
    const between = validateTranscript(
      transcript('openai-chat', [
        user('q'),
        assistant(call('call_a')),
        system('note'),
        tool('call_a'),
      ]),
      'deepseek',
    );
    expect(between.violations.map((x) => x.message)).toEqual([MISSING, ORPHAN]);
  });

  it('a valid run is valid', () => {
    expect(
      validateTranscript(
        transcript('openai-chat', [
          user('q'),
          assistant(call('a'), call('b')),
          tool('b'),
          tool('a'),
          assistant('done'),
        ]),
        'deepseek',
      ).valid,
    ).toBe(true);
  });
});

describe('deepseek D4: thinking mode wants reasoning_content back on a turn that called tools', () => {
  const callMsg = (id: string, reasoning?: string) => ({
    role: 'assistant',
    content: '',
    ...(reasoning !== undefined ? { reasoning_content: reasoning } : {}),
    tool_calls: [{ id, type: 'function', function: { name: 'pwd', arguments: '{}' } }],
  });
  const body = (model: string, reasoning?: string, extra: object = {}) => ({
    model,
    ...extra,
    messages: [
      { role: 'system', content: 's' },
      { role: 'user', content: 'Where am I?' },
      callMsg('call_1', reasoning),
      { role: 'tool', tool_call_id: 'call_1', content: '/home' },
      { role: 'assistant', content: 'In /home.', reasoning_content: 'done' },
      // A later exchange with no tool call needs no reasoning_content.
      { role: 'user', content: 'Thanks' },
      { role: 'assistant', content: 'You are welcome.' },
      { role: 'user', content: 'Bye' },
    ],
  });
  const D4 = (n: number) =>
    `Missing \`reasoning_content\` field in the assistant message at message index ${n}. For more information, please refer to https://api-docs.deepseek.com/guides/thinking_mode#tool-calls`;

  it('deepseek-reasoner: the call turn without it is a 400 at its index as sent (system counted)', () => {
    const vs = validateTranscript(parsed(body('deepseek-reasoner')).transcript, 'deepseek');
    expect(vs.violations.map((v) => [v.code, v.rule, v.messageIndex, v.message])).toEqual([
      ['D4', 'reasoning_missing', 2, D4(2)],
    ]);
    expect(vs.violations[0]?.error).toEqual(envelope(D4(2)));
  });

  it('kept (also as an empty string), not thinking, or thinking disabled: no D4', () => {
    for (const b of [
      body('deepseek-reasoner', 'Let me run pwd.'),
      body('deepseek-reasoner', ''),
      body('deepseek-chat'),
      body('deepseek-reasoner', undefined, { thinking: { type: 'disabled' } }),
    ])
      expect(validateTranscript(parsed(b).transcript, 'deepseek').valid).toBe(true);
  });

  it("a V4 model thinks unless told not to (the default): D5, V4's words for D4", () => {
    for (const model of ['deepseek-v4-flash', 'deepseek-v4-pro']) {
      const vs = validateTranscript(parsed(body(model)).transcript, 'deepseek').violations;
      expect(vs.map((v) => v.code)).toEqual(['D5']);
      // Byte for byte as JohnnyZ93/oai-compatible-copilot#215 captured it (DeepSeek V4, 2026-04).
      expect(vs[0]?.error).toEqual({
        error: {
          message: 'The `reasoning_content` in the thinking mode must be passed back to the API.',
          type: 'invalid_request_error',
          param: null,
          code: 'invalid_request_error',
        },
      });
    }
    const off = parsed(body('deepseek-v4-flash', undefined, { thinking: { type: 'disabled' } }));
    expect(validateTranscript(off.transcript, 'deepseek').valid).toBe(true);
  });

  it('thinking enabled in the request (deepseek-chat, V4): D4', () => {
    const t = parsed(body('deepseek-chat', undefined, { thinking: { type: 'enabled' } }));
    expect(validateTranscript(t.transcript, 'deepseek').violations.map((v) => v.code)).toEqual([
      'D4',
    ]);
  });
});
