import { describe, expect, it } from 'vitest';
import { parsedText } from '../testing/index.ts';
import { validateTranscript } from './index.ts';

const read = (value: unknown) => parsedText(JSON.stringify(value)).transcript;

describe('A20: content blocks with no type in an Anthropic body', () => {
  it('the newcomer\u2019s repro is read as Anthropic and gets the API\u2019s 400, not "valid"', () => {
    const t = read({
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
      messages: [{ role: 'user', content: [{ text: 'hi' }] }],
    });
    expect(t.format).toBe('anthropic-messages');
    const v = validateTranscript(t, 'anthropic');
    expect(v.valid).toBe(false);
    expect(v.violations).toHaveLength(1);
    expect(v.violations[0]).toMatchObject({
      code: 'A20',
      rule: 'untyped_part',
      severity: 'error',
      messageIndex: 0,
      blockIndex: 0,
      providerPath: 'messages.0.content.0.type',
    });
    expect(v.violations[0]?.error).toEqual({
      type: 'error',
      error: {
        type: 'invalid_request_error',
        message: 'messages.0.content.0.type: Field required',
      },
    });
  });

  it('counts messages as sent (not merged) and comes before the turn checks', () => {
    const t = read({
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
      messages: [
        { role: 'user', content: 'Weather?' },
        { role: 'user', content: [{ type: 'text', text: 'In Paris.' }, { text: 'Please.' }] },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'toolu_1', name: 'weather', input: {} }],
        },
      ],
      tools: [{ name: 'weather', input_schema: { type: 'object' } }],
    });
    const v = validateTranscript(t, 'anthropic');
    expect(v.violations.map((x) => [x.code, x.providerPath])).toEqual([
      ['A20', 'messages.1.content.1.type'],
      ['A2', 'messages.1'],
    ]);
  });

  it('on Bedrock InvokeModel the same text after Bedrock\u2019s prefix', () => {
    const t = read({
      anthropic_version: 'bedrock-2023-05-31',
      max_tokens: 100,
      messages: [{ role: 'user', content: [{ text: 'hi' }] }],
    });
    expect(t.format).toBe('anthropic-messages');
    const v = validateTranscript(t, 'anthropic-bedrock');
    expect(v.violations[0]?.code).toBe('A20');
    expect(v.violations[0]?.message).toContain('messages.0.content.0.type: Field required');
  });

  it('typed blocks, and a Converse body judged for Anthropic, get no A20', () => {
    const typed = read({
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
      messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
    });
    expect(validateTranscript(typed, 'anthropic').violations).toEqual([]);
    const converse = read({
      modelId: 'anthropic.claude-3-5-sonnet-20240620-v1:0',
      messages: [{ role: 'user', content: [{ text: 'hi' }] }],
    });
    expect(converse.format).toBe('bedrock-converse');
    expect(validateTranscript(converse, 'anthropic').violations.map((x) => x.code)).not.toContain(
      'A20',
    );
  });
});
