import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../../analyze.ts';
import { pairCounts } from '../../pairing.ts';
import { validateTranscript } from '../../validate/index.ts';
import { writeTranscript } from '../../write.ts';
import { parsedText } from '../../testing/index.ts';

const samples = path.resolve(import.meta.dirname, '../../../../public/samples');
const sample = (f: string) => readFileSync(path.join(samples, f), 'utf8');

describe('langchain: the valid sample (model_dump dicts)', () => {
  const p = parsedText(sample('langchain-oncall.json'));
  const t = p.transcript;

  it('is detected without a hint and normalised', () => {
    expect(p.candidates[0]?.format).toBe('langchain');
    expect(t.messages.map((m) => m.role)).toEqual([
      'system',
      'user',
      'assistant',
      'tool',
      'tool',
      'assistant',
    ]);
    expect(t.messages[2]?.blocks.map((b) => b.type)).toEqual(['tool_use', 'tool_use']);
    expect(t.settings.model).toBe('gpt-4.1-2025-04-14');
    expect(t.usage[0]).toEqual({
      messageIndex: 2,
      inputTokens: 1410,
      outputTokens: 72,
      cacheReadTokens: 1152,
    });
  });

  it('pairs both parallel calls, one exchange, valid for OpenAI Chat', () => {
    const a = analyze(t);
    expect(a.provider).toBe('openai-chat');
    expect(pairCounts(a.pairs)).toMatchObject({ answered: 2, unanswered: 0, orphan: 0 });
    expect(a.grouping.exchanges).toHaveLength(1);
    expect(a.validation.valid).toBe(true);
  });

  it('round-trips through write', () => {
    expect(JSON.parse(writeTranscript(t))).toEqual(JSON.parse(sample('langchain-oncall.json')));
  });
});

describe('langchain: the broken sample (lc constructor form)', () => {
  const t = parsedText(sample('broken-langchain-trim.json')).transcript;

  it('gets OpenAI O1 at messages.[0].role', () => {
    expect(t.format).toBe('langchain');
    const v = analyze(t).validation;
    expect(v.violations[0]?.error).toEqual({
      error: {
        message:
          "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
        type: 'invalid_request_error',
        param: 'messages.[0].role',
        code: null,
      },
    });
  });

  it('gets DeepSeek and Mistral wording when checked against them', () => {
    expect(validateTranscript(t, 'deepseek').violations[0]?.message).toBe(
      "Messages with role 'tool' must be a response to a preceding message with 'tool_calls'",
    );
    // Mistral: the order is tool → assistant → user (allowed), and mistral-common leaves the
    // request's first message out of its call/response count (M3), so the orphan passes there.
    expect(validateTranscript(t, 'mistral').violations).toEqual([]);
  });

  it('a new message is written in the lc form the file uses', () => {
    const added = {
      index: 3,
      rawIndex: -1,
      path: 'new',
      role: 'assistant' as const,
      blocks: [{ type: 'text' as const, text: 'Here they are.' }],
      raw: undefined,
    };
    const out = JSON.parse(
      writeTranscript({ ...t, messages: [...t.messages, added] }),
    ) as unknown[];
    expect(out[3]).toEqual({
      lc: 1,
      type: 'constructor',
      id: ['langchain_core', 'messages', 'AIMessage'],
      kwargs: { content: 'Here they are.' },
    });
  });
});

describe('langchain: shapes', () => {
  it('case 01 (langchain-ai/langchain#33245) in dict form: orphan tool message at 0', () => {
    const t = parsedText(
      JSON.stringify([
        {
          type: 'tool',
          tool_call_id: 'call_wx01',
          content: '{"city": "Springfield", "temp_c": 18}',
        },
        { type: 'ai', content: 'It is 18 °C and cloudy in Springfield right now.' },
        { type: 'human', content: 'Should I take an umbrella?' },
        { type: 'ai', content: 'Probably not.' },
        { type: 'human', content: 'And tomorrow morning?' },
      ]),
    ).transcript;
    const v = analyze(t).validation;
    expect(v.valid).toBe(false);
    expect(v.violations).toHaveLength(1);
    expect(v.violations[0]).toMatchObject({
      rule: 'orphan_tool_result',
      messageIndex: 0,
      ids: ['call_wx01'],
    });
  });

  it('StoredMessage {type, data} under `messages`, Anthropic tool_use in content not doubled, error status', () => {
    const t = parsedText(
      JSON.stringify({
        messages: [
          { type: 'human', data: { content: 'hi' } },
          {
            type: 'ai',
            data: {
              content: [{ type: 'tool_use', id: 'toolu_1', name: 'f', input: {} }],
              tool_calls: [{ id: 'toolu_1', name: 'f', args: {} }],
            },
          },
          { type: 'tool', data: { content: 'boom', tool_call_id: 'toolu_1', status: 'error' } },
        ],
      }),
    ).transcript;
    expect(t.format).toBe('langchain');
    expect(t.messages[1]?.blocks).toHaveLength(1);
    expect(t.messages[2]?.blocks[0]).toMatchObject({
      type: 'tool_result',
      toolUseId: 'toolu_1',
      isError: true,
    });
  });

  it('OpenAI-style calls in additional_kwargs', () => {
    const t = parsedText(
      JSON.stringify([
        { type: 'human', content: 'hi' },
        {
          type: 'ai',
          content: '',
          additional_kwargs: {
            tool_calls: [
              { id: 'call_1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } },
            ],
          },
        },
        { type: 'tool', content: 'ok', tool_call_id: 'call_1' },
      ]),
    ).transcript;
    expect(t.messages[1]?.blocks).toEqual([
      { type: 'tool_use', id: 'call_1', name: 'f', input: { a: 1 } },
    ]);
  });

  it('OpenAI and Anthropic message arrays are not taken for LangChain', () => {
    expect(
      parsedText(
        JSON.stringify([
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: 'yo' },
        ]),
      ).candidates.map((c) => c.format),
    ).not.toContain('langchain');
  });
});
