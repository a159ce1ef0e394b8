import { describe, expect, it } from 'vitest';
import { pairToolCalls } from '../../pairing.ts';
import { countableText } from '../../tokens.ts';
import type { Transcript } from '../../types.ts';
import { geminiParser } from './gemini.ts';
import { parsed } from '../../testing/index.ts';
import { parseTranscript } from '../index.ts';

function parse(value: unknown): Transcript {
  const t = parsed(value).transcript;
  expect(t.format).toBe('gemini');
  return t;
}

const BODY = {
  systemInstruction: { parts: [{ text: 'You run the build.' }] },
  tools: [
    {
      functionDeclarations: [
        { name: 'run', description: 'Run a command.', parameters: { type: 'object' } },
        { name: 'read' },
      ],
    },
    { googleSearch: {} },
  ],
  toolConfig: { functionCallingConfig: { mode: 'ANY' } },
  contents: [
    {
      role: 'user',
      parts: [{ text: 'Build it.' }, { inlineData: { mimeType: 'image/png', data: 'AAAABBBB' } }],
    },
    {
      role: 'model',
      parts: [
        { text: 'Start with the build.', thought: true },
        { functionCall: { name: 'run', args: { cmd: 'make' } }, thoughtSignature: 'c2lnbmF0dXJl' },
        { functionCall: { name: 'read', args: { path: 'Makefile' } } },
      ],
    },
    {
      role: 'user',
      parts: [
        { functionResponse: { name: 'run', response: { output: 'ok' } } },
        { functionResponse: { name: 'read', response: { error: 'ENOENT' } } },
      ],
    },
    { role: 'model', parts: [{ text: 'Built.' }, { thoughtSignature: 'dGFpbA==' }] },
  ],
};

describe('gemini parser (docs/formats.md#gemini)', () => {
  it('one message per content, one block per part', () => {
    const t = parse(BODY);
    expect(t.listKey).toBe('contents');
    expect(t.system).toEqual([{ text: 'You run the build.', path: 'systemInstruction.parts.0' }]);
    expect(t.tools?.map((x) => x.name)).toEqual(['run', 'read', 'googleSearch']);
    expect(t.settings.toolChoiceForced).toBe(true);
    expect(t.messages.map((m) => [m.role, m.path, m.blocks.map((b) => b.type)])).toEqual([
      ['user', 'contents.0', ['text', 'image']],
      ['assistant', 'contents.1', ['thinking', 'tool_use', 'tool_use']],
      ['user', 'contents.2', ['tool_result', 'tool_result']],
      ['assistant', 'contents.3', ['text', 'redacted_thinking']],
    ]);
    expect(t.messages[0]?.blocks[1]).toEqual({ type: 'image', mediaType: 'image/png', bytes: 6 });
    expect(t.messages[1]?.blocks[1]).toEqual({
      type: 'tool_use',
      id: null,
      name: 'run',
      input: { cmd: 'make' },
      signature: 'c2lnbmF0dXJl',
    });
    expect(t.messages[2]?.blocks[0]).toEqual({
      type: 'tool_result',
      toolUseId: null,
      name: 'run',
      isError: false,
      content: [{ type: 'text', text: '{"output":"ok"}' }],
    });
    expect(t.messages[2]?.blocks[1]).toMatchObject({ name: 'read', isError: true });
  });

  it('thought signatures are kept but never counted', () => {
    const t = parse(BODY);
    const call = t.messages[1]?.blocks[1];
    expect(call && countableText(call).text).not.toContain('c2lnbmF0dXJl');
    const sigOnly = t.messages[3]?.blocks[1];
    expect(sigOnly && countableText(sigOnly)).toEqual({ text: '', cls: 'other', fixed: 0 });
  });

  it('calls without ids pair by position and name', () => {
    const pairs = pairToolCalls(parse(BODY).messages);
    expect(pairs.map((p) => [p.name, p.status, p.call?.block, p.result?.block])).toEqual([
      ['run', 'answered', 1, 0],
      ['read', 'answered', 2, 1],
    ]);
  });

  it('snake_case proto JSON, the SDK `config` form, a bare contents array and a response', () => {
    const snake = parse({
      system_instruction: { parts: [{ text: 'S' }] },
      contents: [
        {
          role: 'model',
          parts: [{ function_call: { id: 'a', name: 'f', args: {} }, thought_signature: 'x' }],
        },
        { role: 'user', parts: [{ function_response: { id: 'a', name: 'f', response: {} } }] },
      ],
    });
    expect(snake.system[0]?.text).toBe('S');
    expect(snake.messages[0]?.blocks[0]).toMatchObject({
      type: 'tool_use',
      id: 'a',
      signature: 'x',
    });
    expect(snake.messages[1]?.blocks[0]).toMatchObject({ type: 'tool_result', toolUseId: 'a' });
    const sdk = parse({
      model: 'gemini-3-flash',
      contents: [{ role: 'user', parts: [{ text: 'q' }] }],
      config: { systemInstruction: 'Be brief.', tools: [] },
    });
    expect(sdk.system).toEqual([{ text: 'Be brief.', path: 'config.systemInstruction' }]);
    expect(sdk.tools).toEqual([]);
    expect(sdk.settings.model).toBe('gemini-3-flash');
    expect(parse(BODY.contents).messages).toHaveLength(4);
    const resp = parse({
      candidates: [{ content: { role: 'model', parts: [{ text: 'Hi' }] }, finishReason: 'STOP' }],
      usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 2, thoughtsTokenCount: 5 },
      modelVersion: 'gemini-2.5-pro',
    });
    expect(resp.messages).toMatchObject([{ role: 'assistant', path: 'candidates.0.content' }]);
    expect(resp.usage).toEqual([
      { messageIndex: 0, inputTokens: 10, outputTokens: 2, reasoningTokens: 5 },
    ]);
  });

  it('never throws on junk parts', () => {
    const r = geminiParser.parse({
      kind: 'json',
      value: {
        contents: [{ role: 'user', parts: [null, { executableCode: { code: 'x' } }] }, 'x'],
      },
    });
    expect(r.ok && r.value.messages.map((m) => m.blocks.map((b) => b.type))).toEqual([
      ['other', 'other'],
      ['other'],
    ]);
  });

  it('write: untouched contents unchanged; changed ones rendered; other formats converted', () => {
    const t = parse(BODY);
    expect(JSON.parse(geminiParser.write?.(t) ?? 'null')).toEqual(BODY);
    const edited: Transcript = {
      ...t,
      messages: t.messages.map((m) =>
        m.rawIndex === 3 ? { ...m, raw: undefined, blocks: [{ type: 'text', text: 'Done.' }] } : m,
      ),
    };
    expect(JSON.parse(geminiParser.write?.(edited) ?? 'null').contents[3]).toEqual({
      role: 'model',
      parts: [{ text: 'Done.' }],
    });
    const chat = parseTranscript(
      JSON.stringify({
        messages: [
          { role: 'system', content: 'Sys' },
          { role: 'user', content: 'q' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [
              { id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } },
              { id: 'c2', type: 'function', function: { name: 'g', arguments: '{}' } },
            ],
          },
          { role: 'tool', tool_call_id: 'c1', content: '{"a":1}' },
          { role: 'tool', tool_call_id: 'c2', content: 'plain' },
        ],
      }),
    );
    expect(chat.ok).toBe(true);
    if (!chat.ok) return;
    expect(JSON.parse(geminiParser.write?.(chat.value.transcript) ?? 'null')).toEqual({
      systemInstruction: { parts: [{ text: 'Sys' }] },
      contents: [
        { role: 'user', parts: [{ text: 'q' }] },
        {
          role: 'model',
          parts: [
            { functionCall: { id: 'c1', name: 'f', args: {} } },
            { functionCall: { id: 'c2', name: 'g', args: {} } },
          ],
        },
        {
          role: 'user',
          parts: [
            { functionResponse: { id: 'c1', name: 'f', response: { a: 1 } } },
            { functionResponse: { id: 'c2', name: 'g', response: { output: 'plain' } } },
          ],
        },
      ],
    });
  });
});
