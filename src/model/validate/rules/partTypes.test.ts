import { describe, expect, it } from 'vitest';
import { CHAT_FOREIGN_PART } from '../../testing/shapes.ts';
import { parsedText } from '../../testing/index.ts';
import { validateTranscript } from '../index.ts';

/** An Anthropic Messages body: two parallel calls, one answered (A2 for Anthropic). */
const ANTHROPIC_BODY = JSON.stringify({
  model: 'claude-sonnet-4-5',
  max_tokens: 1024,
  messages: [
    { role: 'user', content: 'Weather in Paris and Rome?' },
    {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Checking both.' },
        { type: 'tool_use', id: 'toolu_01A', name: 'get_weather', input: { city: 'Paris' } },
        { type: 'tool_use', id: 'toolu_01B', name: 'get_weather', input: { city: 'Rome' } },
      ],
    },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_01A', content: '18C' }] },
    { role: 'assistant', content: 'Paris is 18C.' },
    { role: 'user', content: 'thanks' },
  ],
});

const read = (text: string, format?: 'openai-chat') =>
  parsedText(text, format ? { format } : {}).transcript;

describe('O12: content parts of a type Chat Completions does not have', () => {
  it('an Anthropic body read as Chat Completions is a 400, not valid (each foreign part, in order)', () => {
    const v = validateTranscript(read(ANTHROPIC_BODY, 'openai-chat'), 'openai-chat');
    expect(v.valid).toBe(false);
    expect(v.violations.map((x) => [x.code, x.providerPath])).toEqual([
      ['O12', 'messages[1].content[1].type'],
      ['O12', 'messages[1].content[2].type'],
      ['O12', 'messages[2].content[0].type'],
    ]);
    expect(v.violations[0]).toMatchObject({
      rule: 'unknown_part_type',
      severity: 'error',
      messageIndex: 1,
      blockIndex: 1,
    });
    expect(v.violations[0]?.error).toEqual({
      error: {
        message:
          "Invalid value: 'tool_use'. Supported values are: 'text', 'image_url', 'input_audio', 'refusal', 'audio', and 'file'.",
        type: 'invalid_request_error',
        param: 'messages[1].content[1].type',
        code: 'invalid_value',
      },
    });
  });

  it('a body with what only Chat has (a developer message) and a Responses part is read as Chat, with no hint', () => {
    const t = read(JSON.stringify(CHAT_FOREIGN_PART));
    expect(t.format).toBe('openai-chat');
    const v = validateTranscript(t, 'openai-chat');
    expect(v.violations.map((x) => [x.code, x.providerPath])).toEqual([
      ['O12', 'messages[1].content[1].type'],
    ]);
  });

  it('the same body read as Anthropic keeps its own verdict (A7, A2), with no O12', () => {
    expect(read(ANTHROPIC_BODY).format).toBe('anthropic-messages');
    const codes = validateTranscript(read(ANTHROPIC_BODY), 'anthropic').violations.map(
      (x) => x.code,
    );
    // A complete request (model and max_tokens) without a tools key defines no tools: A7 (issue 35).
    expect(codes).toEqual(['A7', 'A2']);
  });

  it('counts the system message as sent, and takes every part type Chat has', () => {
    const body = {
      model: 'gpt-4o',
      messages: [
        { role: 'system', content: 'Be brief.' },
        {
          role: 'user',
          content: [
            { type: 'text', text: 'Look:' },
            { type: 'image_url', image_url: { url: 'https://example.com/a.png' } },
            { type: 'input_audio', input_audio: { data: 'AAAA', format: 'wav' } },
            { type: 'file', file: { file_id: 'file-1' } },
            { type: 'thinking', thinking: 'replayed from another API' },
          ],
        },
        { role: 'assistant', content: [{ type: 'refusal', refusal: 'No.' }] },
      ],
    };
    const v = validateTranscript(read(JSON.stringify(body)), 'openai-chat');
    expect(v.violations.map((x) => [x.code, x.providerPath, x.message])).toEqual([
      [
        'O12',
        'messages[1].content[4].type',
        "Invalid value: 'thinking'. Supported values are: 'text', 'image_url', 'input_audio', 'refusal', 'audio', and 'file'.",
      ],
    ]);
  });

  it('a part with no type, and a transcript of another format, are not O12', () => {
    const noType = {
      model: 'gpt-4o',
      messages: [{ role: 'user', content: [{ text: 'hi' }] }],
    };
    const codes = (text: string) =>
      validateTranscript(read(text), 'openai-chat').violations.map((x) => x.code);
    expect(codes(JSON.stringify(noType))).not.toContain('O12');
    // Anthropic blocks validated for OpenAI are rendered as a client sends them: no O12.
    expect(codes(ANTHROPIC_BODY)).not.toContain('O12');
  });
});

describe('O13: content parts with no type (OpenAI\u2019s missing-parameter error)', () => {
  it('Converse-style `{text}` parts sent to Chat are a 400, not valid (the newcomer\u2019s repro)', () => {
    const t = read(
      JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: [{ text: 'hi' }] }] }),
    );
    expect(t.format).toBe('openai-chat');
    const v = validateTranscript(t, 'openai-chat');
    expect(v.valid).toBe(false);
    expect(v.violations).toHaveLength(1);
    expect(v.violations[0]).toMatchObject({
      code: 'O13',
      rule: 'untyped_part',
      severity: 'error',
      confidence: 'V',
      messageIndex: 0,
      blockIndex: 0,
      providerPath: 'messages[0].content[0].type',
    });
    expect(v.violations[0]?.error).toEqual({
      error: {
        message: "Missing required parameter: 'messages[0].content[0].type'.",
        type: 'invalid_request_error',
        param: 'messages[0].content[0].type',
        code: 'missing_required_parameter',
      },
    });
  });

  it('a tool message whose content is a list of objects (langchain-ai/langgraph#1069) is named at its part', () => {
    const body = {
      model: 'gpt-4o',
      messages: [
        { role: 'system', content: 'Be brief.' },
        { role: 'user', content: 'News?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'search', arguments: '{}' } },
          ],
        },
        {
          role: 'tool',
          tool_call_id: 'call_1',
          content: [{ type: 'text', text: 'two hits' }, { url: 'https://example.com/a' }],
        },
      ],
    };
    const v = validateTranscript(read(JSON.stringify(body)), 'openai-chat');
    expect(v.violations.map((x) => [x.code, x.providerPath, x.messageIndex, x.blockIndex])).toEqual(
      [['O13', 'messages[3].content[1].type', 3, 0]],
    );
    expect(v.violations[0]?.message).toBe(
      "Missing required parameter: 'messages[3].content[1].type'.",
    );
  });

  it('is a schema error: listed before the pairing errors of earlier messages', () => {
    const body = {
      model: 'gpt-4o',
      messages: [
        { role: 'user', content: 'q' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'f', arguments: '{}' } },
          ],
        },
        { role: 'user', content: [{ text: 'no result for the call' }] },
      ],
    };
    const codes = validateTranscript(read(JSON.stringify(body)), 'openai-chat').violations.map(
      (x) => x.code,
    );
    expect(codes).toEqual(['O13', 'O2']);
  });

  it('typed parts, string contents and another format\u2019s transcript get no O13', () => {
    const codes = (value: unknown, format?: 'openai-chat') =>
      validateTranscript(read(JSON.stringify(value), format), 'openai-chat').violations.map(
        (x) => x.code,
      );
    expect(
      codes({
        model: 'gpt-4o',
        messages: [{ role: 'user', content: [{ type: 'text', text: 'hi' }] }],
      }),
    ).toEqual([]);
    // A Converse body (read as Converse) judged for OpenAI is rendered as a client sends it.
    const converse = {
      modelId: 'amazon.nova-pro-v1:0',
      messages: [{ role: 'user', content: [{ text: 'hi' }] }],
    };
    expect(read(JSON.stringify(converse)).format).toBe('bedrock-converse');
    expect(codes(converse)).toEqual([]);
    // DeepSeek and Qwen: no capture of their answer, not checked (their `relaxes`).
    const t = read(
      JSON.stringify({ model: 'gpt-4o', messages: [{ role: 'user', content: [{ text: 'hi' }] }] }),
    );
    for (const p of ['deepseek', 'qwen'] as const)
      expect(validateTranscript(t, p).violations.map((x) => x.code)).not.toContain('O13');
  });
});
