import { describe, expect, it } from 'vitest';
import { body } from '../testing/catalogue.ts';
import { takesMidConversationSystem } from './anthropic.systemRole.ts';
import { chainValidation, validateTranscript } from './index.ts';

const SYSTEM_FIRST = [
  { role: 'system', content: 'be nice' },
  { role: 'user', content: 'hi' },
];
const SYSTEM_AFTER_USER = [
  { role: 'user', content: 'hi' },
  { role: 'system', content: 'Answer in French from now on.' },
];
const A19 =
  'messages: Unexpected role "system". The Messages API accepts a top-level `system` parameter, not "system" as an input message role.';

const anthropic = (v: unknown) => validateTranscript(body(v), 'anthropic');
const codes = (v: { violations: { code: string }[] }) => v.violations.map((x) => x.code);

describe('A19: a system message inside an Anthropic body', () => {
  it('the bug report: a system message first, on claude-sonnet-4-5, is the 400 (not a valid request)', () => {
    const t = body({ model: 'claude-sonnet-4-5', max_tokens: 10, messages: SYSTEM_FIRST });
    // Parse keeps what the request says: a system-role message in the list, no top-level system.
    expect(t.format).toBe('anthropic-messages');
    expect(t.system).toEqual([]);
    expect(t.messages[0]?.role).toBe('system');
    const v = validateTranscript(t, 'anthropic');
    expect(v.valid).toBe(false);
    expect(v.violations[0]).toMatchObject({
      code: 'A19',
      rule: 'system_role_in_list',
      index: 0,
      providerPath: 'messages',
      status: 400,
      message: A19,
      error: { type: 'error', error: { type: 'invalid_request_error', message: A19 } },
    });
  });

  it('the top-level system field is the valid way', () => {
    const v = anthropic({
      model: 'claude-sonnet-4-5',
      max_tokens: 10,
      system: 'be nice',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(v.valid).toBe(true);
  });

  it('a mid-conversation system message after a user message is taken by Opus 4.8 and later Opus models only', () => {
    const mid = (model: string) =>
      anthropic({ model, max_tokens: 10, messages: SYSTEM_AFTER_USER });
    expect(codes(mid('claude-opus-4-8'))).toEqual([]);
    expect(codes(mid('claude-opus-5'))).toEqual([]);
    expect(codes(mid('claude-sonnet-4-5'))).toEqual(['A19']);
    expect(codes(mid('claude-opus-4-7'))).toEqual(['A19']);
    // No model: judged as the older models.
    const noModel = body({
      anthropic_version: '2023-06-01',
      max_tokens: 10,
      messages: SYSTEM_AFTER_USER,
    });
    expect(noModel.format).toBe('anthropic-messages');
    expect(codes(validateTranscript(noModel, 'anthropic'))).toEqual(['A19']);
  });

  it('on Opus 4.8, a system message out of its documented place is still refused', () => {
    const v = (messages: unknown[]) =>
      codes(anthropic({ model: 'claude-opus-4-8', max_tokens: 10, messages }));
    expect(v(SYSTEM_FIRST)).toEqual(['A19']);
    // Followed by a user message (it must be last or before an assistant message).
    expect(v([...SYSTEM_AFTER_USER, { role: 'user', content: 'more' }])).toEqual(['A19']);
    // Before an assistant message: in place.
    expect(
      v([
        ...SYSTEM_AFTER_USER,
        { role: 'assistant', content: 'Bien.' },
        { role: 'user', content: 'Merci' },
      ]),
    ).toEqual([]);
  });

  it('not on Bedrock or Vertex (their anthropic_version), where mid-conversation system messages are not available', () => {
    for (const anthropic_version of ['bedrock-2023-05-31', 'vertex-2023-10-16'])
      expect(
        codes(
          anthropic({
            model: 'claude-opus-4-8',
            anthropic_version,
            max_tokens: 10,
            messages: SYSTEM_AFTER_USER,
          }),
        ),
      ).toEqual(['A19']);
  });

  it('another format’s system messages are not A19: OpenAI Chat (a converter moves them to `system`)', () => {
    const t = body({ model: 'gpt-4o', messages: SYSTEM_FIRST });
    expect(t.format).toBe('openai-chat');
    expect(codes(validateTranscript(t, 'anthropic'))).not.toContain('A19');
  });

  it('along a chain, the same verdicts as one request at a time', () => {
    const chain = chainValidation();
    const one = { model: 'claude-sonnet-4-5', max_tokens: 10, messages: SYSTEM_FIRST };
    const two = {
      ...one,
      messages: [...SYSTEM_FIRST, { role: 'assistant', content: 'hello' }, SYSTEM_FIRST[0]],
    };
    for (const v of [one, two]) {
      const t = body(v);
      expect(chain(t, 'anthropic')).toEqual(validateTranscript(t, 'anthropic'));
    }
    expect(codes(validateTranscript(body(two), 'anthropic'))).toEqual(['A19', 'A19']);
  });

  it('takesMidConversationSystem reads the family and version, not a date', () => {
    expect(takesMidConversationSystem('claude-opus-4-8-20260528')).toBe(true);
    expect(takesMidConversationSystem('claude-opus-5-5')).toBe(true);
    expect(takesMidConversationSystem('claude-opus-4-20250514')).toBe(false);
    expect(takesMidConversationSystem('claude-opus-4-7')).toBe(false);
    // The 5 generation takes them in every family (@langchain/anthropic 1.5.13's profiles).
    expect(takesMidConversationSystem('claude-sonnet-5')).toBe(true);
    expect(takesMidConversationSystem('claude-haiku-5-5')).toBe(true);
    expect(takesMidConversationSystem('claude-fable-5-1')).toBe(true);
    expect(takesMidConversationSystem('claude-sonnet-4-8')).toBe(false);
    expect(takesMidConversationSystem('claude-3-5-sonnet-20241022')).toBe(false);
    expect(takesMidConversationSystem(undefined)).toBe(false);
  });
});

describe('G11: a system content inside a Gemini body', () => {
  it('the bug report: role system in contents is the 400', () => {
    const t = body({
      contents: [
        { role: 'system', parts: [{ text: 'be nice' }] },
        { role: 'user', parts: [{ text: 'hi' }] },
      ],
    });
    expect(t.format).toBe('gemini');
    const v = validateTranscript(t, 'gemini');
    expect(v.valid).toBe(false);
    expect(v.violations[0]).toMatchObject({
      code: 'G11',
      rule: 'system_role_in_list',
      index: 0,
      status: 400,
      error: {
        error: {
          code: 400,
          message: 'Please use a valid role: user, model.',
          status: 'INVALID_ARGUMENT',
        },
      },
    });
  });

  it('systemInstruction is the valid way, and another format’s system message is not G11', () => {
    const native = body({
      systemInstruction: { parts: [{ text: 'be nice' }] },
      contents: [{ role: 'user', parts: [{ text: 'hi' }] }],
    });
    expect(validateTranscript(native, 'gemini').valid).toBe(true);
    const chat = body({ model: 'gpt-4o', messages: SYSTEM_FIRST });
    expect(codes(validateTranscript(chat, 'gemini'))).not.toContain('G11');
  });
});
