import { describe, expect, it } from 'vitest';
import { assistant, call, msg, system, text, tool, transcript, user } from '../testing.ts';
import { validateTranscript } from './index.ts';

const envelope = (message: string) => ({
  object: 'error',
  message,
  type: 'invalid_request_message_order',
  param: null,
  code: '3230',
});
const check = (...messages: Parameters<typeof transcript>[1]) =>
  validateTranscript(transcript('openai-chat', messages), 'mistral');

describe('mistral (mistral-common message order, M1–M3)', () => {
  it('user right after tool is rejected (OpenAI accepts it)', () => {
    const t = transcript('openai-chat', [
      user('q'),
      assistant(call('c1')),
      tool('c1'),
      user('and?'),
    ]);
    expect(validateTranscript(t, 'openai-chat').valid).toBe(true);
    const v = validateTranscript(t, 'mistral');
    expect(v.violations[0]).toMatchObject({
      rule: 'role_order',
      messageIndex: 3,
      message: "Unexpected role 'user' after role 'tool'",
      error: envelope("Unexpected role 'user' after role 'tool'"),
      status: 400,
      confidence: 'V',
    });
  });

  it('tool right after user', () => {
    const v = check(user('q'), tool('c1'));
    expect(v.violations.map((x) => x.message)).toEqual([
      "Unexpected role 'tool' after role 'user'",
      'Not the same number of function calls and responses',
    ]);
    expect(v.violations[0]?.rule).toBe('orphan_tool_result');
  });

  it('the last message must be user or tool, unless an assistant prefix', () => {
    const v = check(user('q'), assistant('a'));
    expect(v.violations[0]?.message).toBe(
      'Expected last role User or Tool (or Assistant with prefix or continue_final_message set to True) for serving but got assistant',
    );
    expect(
      check(
        user('q'),
        msg('assistant', [text('Sure')], { role: 'assistant', content: 'Sure', prefix: true }),
      ).valid,
    ).toBe(true);
  });

  it('counts: fewer tool messages than calls before the next assistant message', () => {
    const v = check(
      user('q'),
      assistant(call('a'), call('b')),
      tool('a'),
      assistant('half done'),
      user('ok'),
    );
    expect(v.violations).toHaveLength(1);
    expect(v.violations[0]).toMatchObject({
      rule: 'count_mismatch',
      messageIndex: 1,
      ids: ['a', 'b'],
      message: 'Not the same number of function calls and responses',
    });
  });

  it('allowed successors pass: system → user, user → user, assistant → assistant, tool → tool → assistant', () => {
    expect(
      check(
        system('s'),
        user('a'),
        user('b'),
        assistant('x'),
        assistant(call('c1'), call('c2')),
        tool('c1'),
        tool('c2'),
        assistant('done'),
        user('thanks'),
      ).valid,
    ).toBe(true);
  });
});
