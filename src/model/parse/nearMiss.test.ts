import { findNodeAtLocation, parseTree } from 'jsonc-parser';
import { describe, expect, it } from 'vitest';
import type { FormatId, ParseError } from '../types.ts';
import { parseDocument, parseTranscript } from './index.ts';
import { locatePath } from './nearMiss.ts';
import { parserFor } from './registry.ts';

const anthropicBody = (bad: unknown) => ({
  model: 'claude-sonnet-4-5',
  max_tokens: 1024,
  messages: [
    { role: 'user', content: 'List the files.' },
    { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'ls', input: {} }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'a b' }] },
    bad,
  ],
});

const chatList = (bad: unknown) => [
  { role: 'user', content: 'List the files.' },
  {
    role: 'assistant',
    content: null,
    tool_calls: [{ id: 'call_1', type: 'function', function: { name: 'ls', arguments: '{}' } }],
  },
  { role: 'tool', tool_call_id: 'call_1', content: 'a b' },
  bad,
];

/** The parse error of a text (the test fails when it parses). */
function failure(text: string): ParseError {
  const r = parseTranscript(text);
  if (r.ok) throw new Error(`parsed as ${r.value.transcript.format}`);
  return r.error;
}

/** 1-based line and column of the first `needle` in `text`. */
function position(text: string, needle: string): { line: number; column: number } {
  return lineColumn(text, text.indexOf(needle));
}

/** 1-based line and column of an offset in `text`. */
function lineColumn(text: string, at: number): { line: number; column: number } {
  const before = text.slice(0, at).split('\n');
  return { line: before.length, column: (before[before.length - 1] as string).length + 1 };
}

describe('a near miss names the closest format, the message, what was expected and where', () => {
  it('an Anthropic body whose message 3 has role 123: still refused, with message, line and column', () => {
    const text = JSON.stringify(anthropicBody({ role: 123, content: 'Done?' }), null, 2);
    const e = failure(text);
    expect(e.kind).toBe('shape');
    expect(e.closest).toMatchObject({
      format: 'anthropic-messages',
      label: 'Anthropic Messages',
      messageIndex: 3,
      path: ['messages', 3, 'role'],
    });
    const at = position(text, '123');
    expect(e.location).toMatchObject(at);
    expect(e.location?.lineText.trim()).toBe('"role": 123,');
    expect(e.message).toContain(
      `Closest format: Anthropic Messages, which reads 3 of these 4 messages. Message 3 (line ${at.line}, column ${at.column}): role must be a string ('user' | 'assistant'), got 123.`,
    );
    // Every format tried is still listed.
    expect(e.message).toContain('Tried: anthropic-messages, openai-chat');
    expect(e.tried?.length).toBeGreaterThan(5);
  });

  it("a body of one message with role 123: Anthropic's by its max_tokens, though no message reads (newcomer: README's example)", () => {
    const text = JSON.stringify({
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
      messages: [{ role: 123, content: 'hi' }],
    });
    const e = failure(text);
    expect(e.closest).toMatchObject({ format: 'anthropic-messages', messageIndex: 0 });
    const at = position(text, '123');
    expect(e.message).toContain(
      `Closest format: Anthropic Messages, which does not read its one message. Message 0 (line ${at.line}, column ${at.column}): role must be a string ('user' | 'assistant'), got 123.`,
    );
    // Two messages, none read: said so.
    const two = failure(JSON.stringify({ max_tokens: 1, messages: [{ role: 1 }, { role: 2 }] }));
    expect(two.message).toContain('which reads none of these 2 messages');
  });

  it('a body of one message with role 123 and nothing only one format has: named by its shape, with the message, where and what (newcomer)', () => {
    const text = '{"messages":[{"role":123}]}';
    const e = failure(text);
    expect(e.kind).toBe('shape');
    // The format a body of that shape is read as once its role is a string.
    const fixed = parseTranscript('{"messages":[{"role":"user","content":"hi"}]}');
    expect(fixed.ok && fixed.value.transcript.format).toBe('anthropic-messages');
    expect(e.closest).toEqual({
      format: 'anthropic-messages',
      label: 'Anthropic Messages',
      messageIndex: 0,
      path: ['messages', 0, 'role'],
      problem: "role must be a string ('user' | 'assistant'), got 123",
    });
    const at = position(text, '123');
    expect(e.location).toMatchObject(at);
    expect(e.message).toContain(
      `Closest format: Anthropic Messages (by its shape alone: nothing in it is only one format’s), which does not read its one message. Message 0 (line ${at.line}, column ${at.column}): role must be a string ('user' | 'assistant'), got 123. Tried: anthropic-messages, openai-chat`,
    );
    // With content, and a list of several such messages only one of which reads: the same.
    expect(failure(JSON.stringify({ messages: [{ role: 123, content: 'hi' }] })).closest).toEqual(
      e.closest,
    );
    const few = failure(JSON.stringify([{ role: 1 }, { role: 2 }, { role: 'user', content: 'x' }]));
    expect(few.message).toContain(
      'Closest format: Anthropic Messages (by its shape alone: nothing in it is only one format’s), which reads 1 of these 3 messages. Message 0 (line 1, column 10): role must be a string',
    );
  });

  it('a Chat message list whose message 3 has role 123: Chat, the closest', () => {
    const text = JSON.stringify(chatList({ role: 123, content: 'Done?' }));
    const e = failure(text);
    expect(e.closest).toMatchObject({ format: 'openai-chat', messageIndex: 3, path: [3, 'role'] });
    expect(e.message).toContain('Message 3 (line 1, column ');
    expect(e.closest?.problem).toBe(
      "role must be a string ('system' | 'developer' | 'user' | 'assistant' | 'tool'), got 123",
    );
  });

  it('tool_use / tool_result blocks without ids under a `tool` role: Anthropic, with the role to use', () => {
    const text = JSON.stringify({
      messages: [
        { role: 'user', content: 'List the files.' },
        { role: 'assistant', content: [{ type: 'tool_use', name: 'ls', input: {} }] },
        { role: 'tool', content: [{ type: 'tool_result', content: 'a b' }] },
      ],
    });
    const e = failure(text);
    expect(e.closest).toMatchObject({
      format: 'anthropic-messages',
      messageIndex: 2,
      path: ['messages', 2, 'role'],
      problem:
        "role must be one of 'user' | 'assistant', got 'tool' (Anthropic sends tool_result blocks in a user message)",
    });
  });

  it('Anthropic blocks given as objects, not arrays: the first such message and what content must be', () => {
    const e = failure(
      JSON.stringify({
        messages: [
          { role: 'user', content: 'hi' },
          { role: 'assistant', content: { type: 'tool_use', name: 'ls', input: {} } },
          { role: 'user', content: { type: 'tool_result', content: 'a b' } },
        ],
      }),
    );
    expect(e.closest).toMatchObject({
      format: 'anthropic-messages',
      messageIndex: 1,
      path: ['messages', 1, 'content'],
      problem: 'content must be a string or an array of content blocks, got an object',
    });
  });

  it('a part of another API in a Chat list: the part, when Chat is the closest', () => {
    const e = failure(
      JSON.stringify([
        { role: 'system', content: 'Be brief.' },
        { role: 'tool', content: 'a b' },
        { role: 'user', content: [{ type: 'input_text', text: 'hi' }] },
      ]),
    );
    expect(e.closest).toMatchObject({
      format: 'openai-chat',
      messageIndex: 2,
      path: [2, 'content', 0, 'type'],
      problem:
        "content part 0 has type 'input_text', not a Chat Completions part (text, image_url, …)",
    });
  });

  it('without the text (a document already read): the message, no line or column', () => {
    const r = parseDocument({ kind: 'json', value: anthropicBody({ role: 123, content: 'x' }) });
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.closest?.messageIndex).toBe(3);
    expect(r.error.location).toBeUndefined();
    expect(r.error.message).toContain('Message 3: role must be a string');
  });

  it('inside a curl command: the message, but no line or column of the command', () => {
    const body = JSON.stringify(anthropicBody({ role: 123, content: 'x' }));
    // A URL that names no provider: the body is judged by its shape alone.
    const e = failure(`curl http://localhost:8080/relay -d '${body}'`);
    expect(e.closest?.messageIndex).toBe(3);
    expect(e.location).toBeUndefined();
  });

  it('JSON of no shape close to a format, or mostly wrong, keeps the plain message', () => {
    // Mostly not messages (no object with a role): a list whose messages have roles is named,
    // by its shape, above.
    for (const v of [
      { hello: 'world' },
      ['hi', 2, { role: 'user', content: 'x' }],
      { messages: [{ content: 'x' }] },
    ]) {
      const r = parseTranscript(JSON.stringify(v));
      expect(r.ok ? 'parsed' : r.error.closest).toBeUndefined();
      if (!r.ok)
        expect(r.error.message).toMatch(/^This is valid JSON, but not a transcript format I know/);
    }
  });

  it('changes no detection: the body once fixed parses as before', () => {
    const fixed = parseTranscript(JSON.stringify(anthropicBody({ role: 'user', content: 'x' })));
    expect(fixed.ok && fixed.value.transcript.format).toBe('anthropic-messages');
    const chat = parseTranscript(JSON.stringify(chatList({ role: 'user', content: 'x' })));
    expect(chat.ok && chat.value.transcript.format).toBe('openai-chat');
  });
});

describe('locatePath: where a value starts in JSON text, only when the text is that JSON', () => {
  const text =
    '{\n "messages": [{"role": "user", "content": [1, 2]},\n  {"role": 7}, {"content": "x"}]\n}';
  it('finds a literal past skipped siblings, and an object by its kind', () => {
    expect(locatePath(text, ['messages', 0, 'role'], 'user')).toMatchObject({
      line: 2,
      column: 24,
    });
    expect(locatePath(text, ['messages', 1, 'role'], 7)).toMatchObject(position(text, '7'));
    const third = position(text, '{"content": "x"}');
    expect(locatePath(text, ['messages', 2], { content: 'x' })).toMatchObject(third);
    expect(locatePath(`\ufeff${text}`, ['messages', 2], {})).toMatchObject(third);
  });

  it('finds nothing where the value differs, the path leads nowhere, or the text is not JSON', () => {
    expect(locatePath(text, ['messages', 0, 'role'], 'assistant')).toBeNull();
    expect(locatePath(text, ['messages', 2], [])).toBeNull();
    expect(locatePath(text, ['messages', 5, 'role'], 'user')).toBeNull();
    expect(locatePath(`curl -d '${text}'`, ['messages', 0, 'role'], 'user')).toBeNull();
  });
});

const responsesInput = (last: unknown) => [
  { role: 'user', content: 'List the files.' },
  { type: 'function_call', call_id: 'call_1', name: 'ls', arguments: '{}' },
  last,
];
const geminiContents = (last: unknown) => [
  { role: 'user', parts: [{ text: 'List the files.' }] },
  { role: 'model', parts: [{ functionCall: { name: 'ls', args: {} } }] },
  { role: 'user', parts: [{ functionResponse: { name: 'ls', response: { output: 'a b' } } }] },
  last,
];
const converseMessages = (last: unknown) => [
  { role: 'user', content: [{ text: 'List the files.' }] },
  { role: 'assistant', content: [{ toolUse: { toolUseId: 't1', name: 'ls', input: {} } }] },
  last,
];
const toolResult = { toolResult: { toolUseId: 't1', content: [{ text: 'a b' }] } };

/** A near miss a user would paste, the same body fixed, and what the error says of it. */
interface Case {
  name: string;
  format: FormatId;
  label: string;
  bad: unknown;
  fixed: unknown;
  path: (string | number)[];
  problem: string;
}

const CASES: Case[] = [
  {
    name: "a Responses output item of the Agents SDK's type function_call_result",
    format: 'openai-responses',
    label: 'OpenAI Responses',
    bad: {
      model: 'gpt-4.1',
      input: responsesInput({ type: 'function_call_result', call_id: 'call_1', output: 'a b' }),
    },
    fixed: {
      model: 'gpt-4.1',
      input: responsesInput({ type: 'function_call_output', call_id: 'call_1', output: 'a b' }),
    },
    path: ['input', 2, 'type'],
    problem:
      "type 'function_call_result' is not a Responses item type: a call's output is a function_call_output item",
  },
  {
    name: 'a Chat tool message among Responses items',
    format: 'openai-responses',
    label: 'OpenAI Responses',
    bad: { input: responsesInput({ role: 'tool', tool_call_id: 'call_1', content: 'a b' }) },
    fixed: {
      input: responsesInput({ type: 'function_call_output', call_id: 'call_1', output: 'a b' }),
    },
    path: ['input', 2, 'role'],
    problem:
      "role must be one of 'user' | 'assistant' | 'system' | 'developer', got 'tool' (Responses answers a function_call with a function_call_output item by call_id)",
  },
  {
    name: 'a bare Responses item list whose item 2 has role 123',
    format: 'openai-responses',
    label: 'OpenAI Responses',
    bad: responsesInput({ role: 123, content: 'Done?' }),
    fixed: responsesInput({ type: 'function_call_output', call_id: 'call_1', output: 'a b' }),
    path: [2, 'role'],
    problem: "role must be a string ('user' | 'assistant' | 'system' | 'developer'), got 123",
  },
  {
    name: "a Gemini content of role 'assistant'",
    format: 'gemini',
    label: 'Google Gemini',
    bad: { contents: geminiContents({ role: 'assistant', parts: [{ text: 'Done.' }] }) },
    fixed: { contents: geminiContents({ role: 'model', parts: [{ text: 'Done.' }] }) },
    path: ['contents', 3, 'role'],
    problem:
      "role must be one of 'user' | 'model', got 'assistant' (Gemini's assistant role is 'model')",
  },
  {
    name: 'a Gemini part that is a string',
    format: 'gemini',
    label: 'Google Gemini',
    bad: { contents: geminiContents({ role: 'model', parts: ['Done.'] }) },
    fixed: { contents: geminiContents({ role: 'model', parts: [{ text: 'Done.' }] }) },
    path: ['contents', 3, 'parts', 0],
    problem:
      "part 0 must be an object ({text}, {functionCall}, {functionResponse}, …), got 'Done.'",
  },
  {
    // Chat was the closest before: it read the three other contents as messages.
    name: "a bare Gemini contents list with role 'assistant'",
    format: 'gemini',
    label: 'Google Gemini',
    bad: geminiContents({ role: 'assistant', parts: [{ text: 'Done.' }] }),
    fixed: geminiContents({ role: 'model', parts: [{ text: 'Done.' }] }),
    path: [3, 'role'],
    problem:
      "role must be one of 'user' | 'model', got 'assistant' (Gemini's assistant role is 'model')",
  },
  {
    name: 'a Converse toolResult block not in an array',
    format: 'bedrock-converse',
    label: 'AWS Bedrock Converse',
    bad: {
      modelId: 'anthropic.claude-sonnet-4-5',
      messages: converseMessages({ role: 'user', content: toolResult }),
    },
    fixed: {
      modelId: 'anthropic.claude-sonnet-4-5',
      messages: converseMessages({ role: 'user', content: [toolResult] }),
    },
    path: ['messages', 2, 'content'],
    problem:
      'content must be an array of content blocks, got an object (one block, not in an array)',
  },
  {
    name: 'a bare Converse message list whose message 2 has no role',
    format: 'bedrock-converse',
    label: 'AWS Bedrock Converse',
    bad: converseMessages({ content: [toolResult] }),
    fixed: converseMessages({ role: 'user', content: [toolResult] }),
    path: [2],
    problem: "role is missing ('user' | 'assistant')",
  },
];

describe('a near miss of Responses, Gemini or Converse: the format, the item, line and column', () => {
  for (const { name, format, label, bad, fixed, path, problem } of CASES)
    it(name, () => {
      const text = JSON.stringify(bad, null, 2);
      const e = failure(text);
      const at = path.findIndex((k) => typeof k === 'number');
      const message = path[at] as number;
      expect(e.kind).toBe('shape');
      expect(e.closest).toEqual({ format, label, messageIndex: message, path, problem });
      // Where the offending value starts, as jsonc-parser's tree has it (not the scan under test).
      const tree = parseTree(text);
      const node = tree && findNodeAtLocation(tree, path);
      const where = lineColumn(text, node?.offset ?? -1);
      expect(e.location).toMatchObject(where);
      const total = (tree && findNodeAtLocation(tree, path.slice(0, at)))?.children?.length ?? 0;
      expect(e.message).toContain(
        `Closest format: ${label}, which reads ${total - 1} of these ${total} messages. Message ${message} (line ${where.line}, column ${where.column}): ${problem}.`,
      );
      // Detection still refuses the near miss; the body fixed parses as the format and reads whole.
      const parser = parserFor(format);
      expect(parser?.sniff(bad)).toBe(0);
      const ok = parseTranscript(JSON.stringify(fixed, null, 2));
      expect(ok.ok && ok.value.transcript.format).toBe(format);
      expect(parser?.nearMiss?.(fixed)).toBeNull();
    });
});
