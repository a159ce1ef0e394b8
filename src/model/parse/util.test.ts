import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { FormatId } from '../types.ts';
import { parseDocument } from './index.ts';
import { PARSERS } from './registry.ts';
import {
  argumentsText,
  bareListTranscript,
  jsonDocumentOnly,
  jsonText,
  legacyFunctionCall,
  notAnObject,
  parseArguments,
  requestLabel,
} from './util.ts';

describe('notAnObject', () => {
  it('is a user message holding the value in one `other` block', () => {
    expect(notAnObject(7, 'messages.2', 2)).toEqual({
      index: 2,
      rawIndex: 2,
      path: 'messages.2',
      role: 'user',
      blocks: [{ type: 'other', label: 'not an object', raw: 7 }],
      raw: 7,
    });
    expect(notAnObject(null, 'messages.1', 4, 1)).toMatchObject({ index: 4, rawIndex: 1 });
  });

  // Each parser that reads a bare list gives a non-object item this message (not a throw).
  const lists: [FormatId, unknown[], string][] = [
    ['anthropic-messages', [{ role: 'user', content: 'hi' }, 'oops'], 'messages.1'],
    ['openai-chat', [{ role: 'user', content: 'hi' }, 'oops'], 'messages.1'],
    ['bedrock-converse', [{ role: 'user', content: [{ text: 'hi' }] }, 'oops'], 'messages.1'],
    ['gemini', [{ role: 'user', parts: [{ text: 'hi' }] }, 'oops'], 'contents.1'],
    ['openai-responses', [{ type: 'message', role: 'user', content: 'hi' }, 'oops'], 'input.1'],
  ];
  for (const [format, list, path] of lists)
    it(`${format}: a bare list's non-object item becomes the not-an-object message`, () => {
      const r = parseDocument({ kind: 'json', value: list }, { format });
      expect(r.ok).toBe(true);
      if (!r.ok) return;
      const t = r.value.transcript;
      expect(t.format).toBe(format);
      expect(t.messages[1]).toEqual(notAnObject('oops', path, 1));
      expect(t).toMatchObject({ system: [], tools: null, settings: {}, usage: [], raw: list });
    });
});

describe('bareListTranscript', () => {
  it('keeps the list as raw and names the list key', () => {
    const raw = [1];
    const r = bareListTranscript('gemini', raw, 'contents', []);
    expect(r).toEqual({
      ok: true,
      value: {
        format: 'gemini',
        system: [],
        tools: null,
        settings: {},
        usage: [],
        messages: [],
        warnings: [],
        listKey: 'contents',
        raw,
      },
    });
  });
});

describe('legacyFunctionCall', () => {
  it('is a tool_use without an id, marked legacy; JSON arguments are parsed, other strings kept', () => {
    expect(legacyFunctionCall({ name: 'search', arguments: '{"q":"502"}' })).toEqual({
      type: 'tool_use',
      id: null,
      legacy: true,
      name: 'search',
      input: { q: '502' },
    });
    expect(legacyFunctionCall({ arguments: 'not json' })).toEqual({
      type: 'tool_use',
      id: null,
      legacy: true,
      name: '',
      input: 'not json',
    });
  });

  it('reads the same in an OpenAI Chat message and in LangChain additional_kwargs', () => {
    const fc = { name: 'search_logs', arguments: '{"query":"502"}' };
    const chat = parseDocument(
      { kind: 'json', value: [{ role: 'assistant', content: null, function_call: fc }] },
      { format: 'openai-chat' },
    );
    const lc = parseDocument(
      {
        kind: 'json',
        value: [{ type: 'ai', data: { content: '', additional_kwargs: { function_call: fc } } }],
      },
      { format: 'langchain' },
    );
    expect(chat.ok && chat.value.transcript.messages[0]?.blocks).toEqual([legacyFunctionCall(fc)]);
    expect(lc.ok && lc.value.transcript.messages[0]?.blocks).toContainEqual(legacyFunctionCall(fc));
  });
});

describe('requestLabel', () => {
  it('numbers from 1 and joins the parts that are present', () => {
    expect(requestLabel(1, 'Weather', undefined, '5 nodes')).toBe('#2 · Weather · 5 nodes');
    expect(requestLabel(0)).toBe('#1');
  });
});

describe('responseTranscript', () => {
  // One response object per format that reads them: one message, the model, the usage, a warning.
  const responses: [FormatId, unknown, string, string, string][] = [
    [
      'anthropic-messages',
      {
        type: 'message',
        role: 'assistant',
        model: 'claude-sonnet-4-5',
        content: [{ type: 'text', text: 'Done.' }],
        usage: { input_tokens: 10, output_tokens: 2 },
      },
      'content',
      'content',
      'assistant',
    ],
    [
      'openai-chat',
      {
        object: 'chat.completion',
        model: 'gpt-4o',
        choices: [{ message: { role: 'assistant', content: 'Done.' } }],
        usage: { prompt_tokens: 10, completion_tokens: 2 },
      },
      'choices',
      'choices.0.message',
      'assistant',
    ],
    [
      'bedrock-converse',
      {
        modelId: 'amazon.nova-pro-v1:0',
        output: { message: { role: 'assistant', content: [{ text: 'Done.' }] } },
        usage: { inputTokens: 10, outputTokens: 2 },
      },
      'output',
      'output.message',
      'assistant',
    ],
    [
      'gemini',
      {
        modelVersion: 'gemini-2.5-pro',
        candidates: [{ content: { role: 'model', parts: [{ text: 'Done.' }] } }],
        usageMetadata: { promptTokenCount: 10, candidatesTokenCount: 2 },
      },
      'candidates',
      'candidates.0.content',
      'model',
    ],
  ];
  for (const [format, value, listKey, path, speaker] of responses)
    it(`${format}: a response object is one message with a warning`, () => {
      const r = parseDocument({ kind: 'json', value }, { format });
      expect(r.ok).toBe(true);
      if (!r.ok) return;
      const t = r.value.transcript;
      expect(t.messages).toHaveLength(1);
      expect(t.messages[0]?.path).toBe(path);
      expect(t.messages[0]?.role).toBe('assistant');
      expect(t).toMatchObject({ format, listKey, system: [], tools: null, raw: value });
      expect(t.settings.model).toBeDefined();
      expect(t.usage).toEqual([expect.objectContaining({ messageIndex: 0, inputTokens: 10 })]);
      expect(t.warnings).toEqual([
        `This is a response object: one ${speaker} message, no request around it.`,
      ]);
    });
});

describe('argumentsText', () => {
  it('keeps a string, writes anything else as JSON, {} for none', () => {
    expect(argumentsText('{"q":1}')).toBe('{"q":1}');
    expect(argumentsText({ q: 1 })).toBe('{"q":1}');
    expect(argumentsText(undefined)).toBe('{}');
    expect(argumentsText(null)).toBe('{}');
  });

  it('parseArguments reads back what it writes for JSON objects', () => {
    fc.assert(
      fc.property(fc.dictionary(fc.string(), fc.jsonValue()), (input) => {
        expect(parseArguments(argumentsText(input))).toEqual(JSON.parse(JSON.stringify(input)));
      }),
    );
  });
});

describe('jsonDocumentOnly', () => {
  it('hands a JSON value to the parser and refuses JSON Lines with the given text', () => {
    const read = jsonDocumentOnly(
      (v) => bareListTranscript('openai-chat', [v], 'messages', []),
      'X is a JSON document, not JSON Lines.',
    );
    expect(read({ kind: 'json', value: 1 })).toMatchObject({ ok: true, value: { raw: [1] } });
    expect(read({ kind: 'jsonl', lines: [{ line: 1, value: {} }], brokenLines: [] })).toEqual({
      ok: false,
      error: { kind: 'shape', message: 'X is a JSON document, not JSON Lines.' },
    });
  });

  // The one-document parsers keep their own texts for a JSON Lines source.
  const texts: [FormatId, string][] = [
    ['anthropic-messages', 'Anthropic Messages is a JSON document, not JSON Lines.'],
    ['openai-chat', 'OpenAI Chat Completions is a JSON document, not JSON Lines.'],
    ['openai-responses', 'A Responses request is a JSON document, not JSON Lines.'],
    ['bedrock-converse', 'A Converse request is a JSON document, not JSON Lines.'],
    ['gemini', 'A Gemini request is a JSON document, not JSON Lines.'],
    ['gemini-cli', 'A Gemini CLI session is one JSON document, not JSON Lines.'],
    ['inspect-log', 'An Inspect eval log is one JSON document, not JSON Lines.'],
    ['swe-agent', 'A SWE-agent trajectory is one JSON document, not JSON Lines.'],
    ['chatgpt-export', 'A ChatGPT export is one JSON document, not JSON Lines.'],
    ['claude-ai-export', 'A claude.ai export is one JSON document, not JSON Lines.'],
  ];
  for (const [id, message] of texts)
    it(`${id}: JSON Lines are refused`, () => {
      const parser = PARSERS.find((p) => p.id === id);
      expect(parser).toBeDefined();
      const r = parser?.parse({ kind: 'jsonl', lines: [{ line: 1, value: {} }], brokenLines: [] });
      expect(r).toEqual({ ok: false, error: { kind: 'shape', message } });
    });
});

describe('jsonText', () => {
  const value = { output: 'ok\n', n: [1, 2] };
  it('reads as the plain text block of the value stringified, through every way a block is copied', () => {
    const plain = { type: 'text', text: JSON.stringify(value) };
    expect(jsonText(value)).toEqual(plain);
    expect({ ...jsonText(value) }).toEqual(plain);
    expect(structuredClone(jsonText(value))).toEqual(plain);
    expect(JSON.parse(JSON.stringify(jsonText(value)))).toEqual(plain);
    expect(Object.keys(jsonText(value))).toEqual(['type', 'text']);
  });
  it('keeps the text once read, and takes a new one when assigned', () => {
    const b = jsonText(value) as { type: 'text'; text: string };
    expect(b.text).toBe('{"output":"ok\\n","n":[1,2]}');
    expect(Object.getOwnPropertyDescriptor(b, 'text')).toMatchObject({ writable: true });
    b.text = 'edited';
    expect(b.text).toBe('edited');
    const c = jsonText(value) as { type: 'text'; text: string };
    c.text = 'set before read';
    expect(c).toEqual({ type: 'text', text: 'set before read' });
  });
  it('gives the empty string for a value JSON cannot write (a text is never missing)', () => {
    expect(jsonText(undefined)).toEqual({ type: 'text', text: '' });
  });
});
