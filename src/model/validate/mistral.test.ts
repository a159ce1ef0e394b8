import { describe, expect, it } from 'vitest';
import { CASE_FIXTURES } from '../testing/cases.ts';
import {
  assistant,
  call,
  msg,
  parsed,
  system,
  text,
  tool,
  transcript,
  user,
} from '../testing/index.ts';
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

// Mistral takes tool call ids of nine letters and digits (M4): the order tests use such ids.
describe('mistral (mistral-common message order, M1–M3)', () => {
  it('user right after tool is rejected (OpenAI accepts it)', () => {
    const t = transcript('openai-chat', [
      user('q'),
      assistant(call('callAAAA1')),
      tool('callAAAA1'),
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
    const v = check(user('q'), tool('callAAAA1'));
    expect(v.violations.map((x) => x.message)).toEqual([
      "Unexpected role 'tool' after role 'user'",
      'Not the same number of function calls and responses',
    ]);
    expect(v.violations[0]?.rule).toBe('orphan_tool_result');
  });

  it('a trailing system message passes the last-message check (mistral-common refuses only an assistant)', () => {
    expect(check(user('q'), system('Answer briefly.')).valid).toBe(true);
    expect(check(system('s'), user('q'), system('Answer briefly.')).valid).toBe(true);
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
      assistant(call('callAAAAa'), call('callAAAAb')),
      tool('callAAAAa'),
      assistant('half done'),
      user('ok'),
    );
    expect(v.violations).toHaveLength(1);
    expect(v.violations[0]).toMatchObject({
      rule: 'count_mismatch',
      messageIndex: 1,
      ids: ['callAAAAa', 'callAAAAb'],
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
        assistant(call('callAAAA1'), call('callAAAA2')),
        tool('callAAAA1'),
        tool('callAAAA2'),
        assistant('done'),
        user('thanks'),
      ).valid,
    ).toBe(true);
  });
});

describe('mistral M4: tool call ids of nine letters and digits', () => {
  it('refuses an OpenAI call_ id once, at the call (its tool message noted), after the order checks', () => {
    const v = check(
      user('q'),
      assistant(call('call_0fypS1hVX')),
      tool('call_0fypS1hVX'),
      user('x'),
    );
    // One 400 names the id (M4's text), so the call and its tool message are one violation.
    expect(v.violations.map((x) => x.code)).toEqual(['M2', 'M4']);
    expect(v.violations[1]).toMatchObject({
      rule: 'malformed_tool_id',
      messageIndex: 1,
      blockIndex: 0,
      ids: ['call_0fypS1hVX'],
      providerPath: null,
      message: 'Tool call id was call_0fypS1hVX but must be a-z, A-Z, 0-9, with a length of 9.',
      error: {
        object: 'error',
        message: 'Tool call id was call_0fypS1hVX but must be a-z, A-Z, 0-9, with a length of 9.',
        type: 'invalid_function_call',
        param: null,
        code: '3280',
      },
    });
    expect(v.violations[1]?.why).toMatch(/same id in message #2 is part of this one error/);
  });

  it('two refused ids are two violations; an id only a tool message carries is reported there', () => {
    const two = check(
      user('q'),
      assistant(call('call_a'), call('call_b')),
      tool('call_a'),
      tool('call_b'),
      user('x'),
    );
    expect(
      two.violations.filter((x) => x.code === 'M4').map((x) => [x.ids, x.messageIndex]),
    ).toEqual([
      [['call_a'], 1],
      [['call_b'], 1],
    ]);
    const alone = check(user('q'), assistant('a'), tool('call_z'), assistant('b'), user('x'));
    expect(alone.violations.filter((x) => x.code === 'M4').map((x) => x.messageIndex)).toEqual([2]);
  });

  it('refuses short, long and underscored ids; accepts nine letters and digits', () => {
    for (const id of ['turn1_0', 'abc123', 'abcdefghij', 'abcd_efgh'])
      expect(check(user('q'), assistant(call(id)), tool(id)).violations.map((x) => x.code)).toEqual(
        ['M4'],
      );
    expect(check(user('q'), assistant(call('ssAbar4Dr')), tool('ssAbar4Dr')).valid).toBe(true);
  });

  it('is not judged for LangChain input: its Mistral client renames the ids before sending', () => {
    const t = transcript('langchain', [
      user('q'),
      assistant(call('call_0fypS1hVX')),
      tool('call_0fypS1hVX'),
    ]);
    const v = validateTranscript(t, 'mistral');
    expect(v.valid).toBe(true);
    expect(v.notes.join(' ')).toMatch(/renames tool call ids.*M4 was not checked/);
  });
});

describe('mistral: a count or order fault is named at the message that breaks it', () => {
  const copilot = CASE_FIXTURES.find((c) => c.name.startsWith('copilotkit token trim'));
  const body = copilot?.transcript as { system: string; messages: unknown[] };
  const structural = (t: Parameters<typeof validateTranscript>[0]) =>
    validateTranscript(t, 'mistral')
      .violations.filter((v) => /^M[123]$/.test(v.code))
      .map(({ code, rule, messageIndex, ids }) => ({ code, rule, messageIndex, ids }));

  it('a trim that left a tool result first (case 06): the orphan at #0, not the assistant text after it', () => {
    const noSystem = { messages: body.messages };
    const orphan = { rule: 'orphan_tool_result', messageIndex: 0, ids: ['toolu_01FLT'] };
    // The system prompt is sent first: the tool message follows it (M2), and counts against no call.
    const v = validateTranscript(parsed(body).transcript, 'mistral');
    expect(structural(parsed(body).transcript)).toEqual([
      { code: 'M2', ...orphan },
      { code: 'M3', ...orphan },
    ]);
    expect(v.violations[0]?.message).toBe("Unexpected role 'tool' after role 'system'");
    expect(v.violations[1]?.title).toMatch(/orphan/i);
    // Without one the tool message is the request's first message, which mistral-common's count
    // leaves out (M3): nothing structural is found.
    expect(structural(parsed(noSystem).transcript)).toEqual([]);
  });

  it('LangChain input (the same rule function): a ToolMessage first is not counted', () => {
    const t = transcript('langchain', [tool('callAAAA1'), assistant('Done.'), user('And?')]);
    expect(structural(t)).toEqual([]);
    // A second one is counted, against no call: the orphan is named there.
    const two = transcript('langchain', [
      tool('callAAAA1'),
      tool('callAAAA2'),
      assistant('Done.'),
      user('And?'),
    ]);
    expect(structural(two)).toEqual([
      { code: 'M3', rule: 'orphan_tool_result', messageIndex: 1, ids: ['callAAAA2'] },
    ]);
  });

  it('an orphan after an assistant text message: at the tool message', () => {
    expect(
      structural(transcript('openai-chat', [user('q'), assistant('a'), tool('callAAAA1')])),
    ).toEqual([{ code: 'M3', rule: 'orphan_tool_result', messageIndex: 2, ids: ['callAAAA1'] }]);
  });

  it('more tool messages than calls: at the first one past the count, with its id', () => {
    const t = transcript('openai-chat', [
      user('q'),
      assistant(call('callAAAA1')),
      tool('callAAAA1'),
      tool('callBBBB2'),
      assistant('done'),
      user('ok'),
    ]);
    expect(structural(t)).toEqual([
      { code: 'M3', rule: 'count_mismatch', messageIndex: 3, ids: ['callBBBB2'] },
    ]);
  });
});

describe("mistral: the request's first message is left out of the call/response count (M3)", () => {
  // mistral-common (protocol/instruct/validator.py, _validate_tool_calls_followed_by_tool_messages)
  // starts its count at the second message, so the calls of an assistant message that opens the
  // request are never registered, and their tool messages are one too many.
  it('the calls of an assistant message that opens the request: its tool message is too many', () => {
    const v = check(
      assistant(call('callAAAA1')),
      tool('callAAAA1'),
      assistant('Found it.'),
      user('Thanks, and?'),
    );
    expect(v.valid).toBe(false);
    expect(v.violations).toHaveLength(1);
    expect(v.violations[0]).toMatchObject({
      code: 'M3',
      rule: 'first_message_role',
      messageIndex: 1,
      ids: ['callAAAA1'],
      message: 'Not the same number of function calls and responses',
      error: envelope('Not the same number of function calls and responses'),
    });
    expect(check(assistant(call('callAAAA1')), tool('callAAAA1')).violations[0]).toMatchObject({
      code: 'M3',
      messageIndex: 1,
    });
  });

  it('a system prompt sent before the list is the first message: the calls after it count', () => {
    const t = parsed({
      system: 'You are a travel assistant.',
      messages: [
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'callAAAA1', name: 'find', input: {} }],
        },
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'callAAAA1', content: 'LH400' }],
        },
      ],
    }).transcript;
    expect(validateTranscript(t, 'mistral').violations.map((x) => x.code)).toEqual([]);
  });

  it('a lone message must be user or system (M5), and is not checked for M1', () => {
    const lone = (m: Parameters<typeof transcript>[1][number]) =>
      check(m).violations.map(({ code, message }) => ({ code, message }));
    const m5 = {
      code: 'M5',
      message: 'Conversation must start with a user message or system message',
    };
    expect(lone(tool('callAAAA1'))).toEqual([m5]);
    expect(lone(assistant('a'))).toEqual([m5]);
    expect(lone(user('q'))).toEqual([]);
    expect(lone(system('s'))).toEqual([]);
  });
});
