import { describe, expect, it } from 'vitest';
import { assistant, call, tool, transcript, user } from '../testing/index.ts';
import { validateTranscript } from './index.ts';

const envelope = (message: string) => ({
  error: { message, type: 'invalid_request_error', param: null, code: 'invalid_parameter_error' },
});
const ORPHAN =
  '<400> InternalError.Algo.InvalidParameter: messages with role "tool" must be a response to a preceeding message with "tool_calls".';
const missing = (n: number) =>
  `<400> InternalError.Algo.InvalidParameter: An assistant message with "tool_calls" must be followed by tool messages responding to each "tool_call_id". The following tool_call_ids did not have response messages: message[${n}].role`;

describe('qwen / DashScope (Q1, Q2)', () => {
  it('orphan tool message: double quotes and the "preceeding" misspelling', () => {
    const v = validateTranscript(transcript('openai-chat', [user('hi'), tool('call_1')]), 'qwen');
    expect(v.violations[0]).toMatchObject({
      rule: 'orphan_tool_result',
      message: ORPHAN,
      error: envelope(ORPHAN),
      confidence: 'V',
    });
  });

  it('missing responses name message[N].role: the message that broke the run', () => {
    const v = validateTranscript(
      transcript('openai-chat', [
        user('q'),
        assistant(call('call_a'), call('call_b')),
        tool('call_a'),
        user('next'),
      ]),
      'qwen',
    );
    expect(v.violations[0]).toMatchObject({
      rule: 'partial_answer',
      ids: ['call_b'],
      message: missing(3),
      error: envelope(missing(3)),
    });
  });

  it('at the end of the array, N is the assistant message', () => {
    const v = validateTranscript(
      transcript('openai-chat', [user('q'), assistant(call('call_a'))]),
      'qwen',
    );
    expect(v.violations[0]).toMatchObject({ rule: 'trailing_tool_use', message: missing(1) });
  });
});
