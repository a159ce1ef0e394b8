import { describe, expect, it } from 'vitest';
import { assistant, call, system, tool, transcript, user } from '../testing.ts';
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
