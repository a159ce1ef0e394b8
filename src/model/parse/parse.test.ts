import { describe, expect, it } from 'vitest';
import { writeTranscript } from '../write.ts';
import { locate, parseJsonText, parseJsonlText } from './json.ts';
import { parseTranscript } from './index.ts';

describe('bad input says where and what was expected', () => {
  it('invalid JSON names line and column and keeps the line text', () => {
    const text = '{\n  "messages": [\n    {"role": "user" "content": "hi"}\n  ]\n}';
    const r = parseTranscript(text);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.kind).toBe('json');
    expect(r.error.location).toEqual({
      line: 3,
      column: 21,
      lineText: '    {"role": "user" "content": "hi"}',
    });
    expect(r.error.message).toBe(
      "Invalid JSON at line 3, column 21: a ',' was expected between items.",
    );
  });

  it('pasted text that starts with a byte order mark reads as the same JSON; error columns ignore the mark', () => {
    const body = '{"messages": [{"role": "user", "content": "hi"}]}';
    const plain = parseTranscript(body);
    const bom = parseTranscript('\uFEFF' + body);
    expect(bom.ok && plain.ok && bom.value.transcript.messages).toEqual(
      plain.ok && plain.value.transcript.messages,
    );
    const bad = parseTranscript('\uFEFF{"messages": [1 2]}');
    expect(!bad.ok && bad.error.location).toMatchObject({ line: 1, column: 17 });
  });

  it('truncated JSON says the text ended', () => {
    const r = parseTranscript('{"messages": [{"role": "user", "content": "hi');
    expect(!r.ok && r.error.message).toContain('the text ended inside a string');
  });

  it('valid JSON of no known shape lists the formats tried and what each expected', () => {
    const r = parseTranscript('{"hello": "world"}');
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.kind).toBe('shape');
    expect(r.error.tried?.map((t) => t.format)).toContain('anthropic-messages');
    expect(r.error.tried?.every((t) => t.expected.length > 10)).toBe(true);
  });

  it('one JSON object of no known shape, on one line or pretty-printed, is called JSON, not JSON Lines', () => {
    for (const text of ['{"foo":1}', '{\n  "foo": 1\n}\n']) {
      const r = parseTranscript(text);
      expect(!r.ok && r.error.message).toMatch(
        /^This is valid JSON, but not a transcript format I know\. Tried: /,
      );
    }
    // Named as a log, one line is still one JSON value.
    const named = parseTranscript('{"foo":1}\n', { name: 'x.jsonl' });
    expect(!named.ok && named.error.message).toMatch(/^This is valid JSON, but not/);
  });

  it('a log of several records of no known shape is called JSON Lines', () => {
    for (const opts of [{}, { name: 'x.jsonl' }]) {
      const r = parseTranscript('{"foo":1}\n{"bar":2}\n', opts);
      expect(!r.ok && r.error.message).toMatch(
        /^This is valid JSON Lines, but not a transcript format I know\. Tried: /,
      );
    }
  });

  it('empty and binary input', () => {
    expect(parseTranscript('  \n').ok).toBe(false);
    const bin = parseTranscript('PK\u0003\u0004\u0000\u0000');
    expect(!bin.ok && bin.error.kind).toBe('binary');
  });

  it('an empty file named as a session log is that log with no message (a repaired log with nothing left reads back)', () => {
    for (const format of ['claude-code-jsonl', 'codex-jsonl'] as const) {
      const r = parseTranscript('\n', { format });
      expect(r.ok && r.value.transcript.format).toBe(format);
      expect(r.ok && r.value.transcript.messages).toEqual([]);
    }
    // Named as a request body, or not named at all, empty input is still an error.
    expect(parseTranscript('', { format: 'anthropic-messages' }).ok).toBe(false);
    expect(parseTranscript('').ok).toBe(false);
  });

  it('unknown blocks, null ids and non-string content never crash', () => {
    const r = parseTranscript(
      JSON.stringify({
        messages: [
          { role: 'user', content: [{ type: 'mystery', x: 1 }, 42] },
          { role: 'assistant', content: [{ type: 'tool_use', name: 'x' }] },
          'junk',
        ],
      }),
    );
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const [m0, m1, m2] = r.value.transcript.messages;
    expect(m0?.blocks[0]).toMatchObject({ type: 'other', label: 'mystery' });
    expect(m1?.blocks[0]).toMatchObject({ type: 'tool_use', id: null });
    expect(m2?.blocks[0]).toMatchObject({ type: 'other' });
  });

  it('locate and JSONL with broken lines', () => {
    expect(locate('ab\ncd', 4)).toEqual({ line: 2, column: 2, lineText: 'cd' });
    const { lines, brokenLines } = parseJsonlText('{"a":1}\n{broken\n\n{"b":2}\n');
    expect(lines.map((l) => l.line)).toEqual([1, 4]);
    expect(brokenLines).toEqual([2]);
    expect(parseJsonText('[1,2]')).toEqual({ ok: true, value: [1, 2] });
  });
});

describe('detection and normalisation', () => {
  it('Anthropic body with tools, thinking and blocks', () => {
    const body = {
      model: 'claude-sonnet-4-5',
      system: [{ type: 'text', text: 'You are careful.' }],
      thinking: { type: 'enabled', budget_tokens: 1024 },
      tools: [{ name: 'search', input_schema: { type: 'object' } }],
      messages: [
        { role: 'user', content: 'find it' },
        {
          role: 'assistant',
          content: [
            { type: 'thinking', thinking: 'hm', signature: 'sig' },
            { type: 'tool_use', id: 'toolu_1', name: 'search', input: { q: 'x' } },
          ],
        },
        {
          role: 'user',
          content: [
            {
              type: 'tool_result',
              tool_use_id: 'toolu_1',
              content: [{ type: 'text', text: 'found' }],
              is_error: true,
            },
          ],
        },
      ],
    };
    const r = parseTranscript(JSON.stringify(body));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const t = r.value.transcript;
    expect(t.format).toBe('anthropic-messages');
    expect(t.settings).toMatchObject({ model: 'claude-sonnet-4-5', thinking: true });
    expect(t.system).toEqual([{ text: 'You are careful.', path: 'system.0' }]);
    expect(t.tools?.map((x) => x.name)).toEqual(['search']);
    expect(t.messages[2]?.blocks[0]).toEqual({
      type: 'tool_result',
      toolUseId: 'toolu_1',
      isError: true,
      content: [{ type: 'text', text: 'found' }],
    });
    expect(t.messages[1]?.path).toBe('messages.1');
  });

  it('OpenAI body: tool_calls, role tool, legacy function_call, developer', () => {
    const body = {
      model: 'gpt-4.1',
      messages: [
        { role: 'developer', content: 'be brief' },
        { role: 'user', content: 'q' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'f', arguments: '{"a":1}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: 'r' },
        { role: 'assistant', content: null, function_call: { name: 'g', arguments: 'not json' } },
        { role: 'function', name: 'g', content: 'r2' },
      ],
    };
    const r = parseTranscript(JSON.stringify(body));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const t = r.value.transcript;
    expect(t.format).toBe('openai-chat');
    expect(t.messages.map((m) => m.role)).toEqual([
      'developer',
      'user',
      'assistant',
      'tool',
      'assistant',
      'tool',
    ]);
    expect(t.messages[2]?.blocks).toEqual([
      { type: 'tool_use', id: 'call_1', name: 'f', input: { a: 1 } },
    ]);
    expect(t.messages[4]?.blocks).toEqual([
      { type: 'tool_use', id: null, name: 'g', input: 'not json', legacy: true },
    ]);
    expect(t.messages[5]?.blocks[0]).toMatchObject({
      type: 'tool_result',
      toolUseId: null,
      name: 'g',
    });
  });

  it('a bare array of plain messages is ambiguous, and an override wins', () => {
    const text = JSON.stringify([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'hello' },
    ]);
    const r = parseTranscript(text);
    expect(r.ok && r.value.candidates.length).toBeGreaterThanOrEqual(2);
    const forced = parseTranscript(text, { format: 'openai-chat' });
    expect(forced.ok && forced.value.transcript.format).toBe('openai-chat');
  });

  it('response objects become one assistant message', () => {
    const a = parseTranscript(
      JSON.stringify({
        id: 'msg_1',
        type: 'message',
        role: 'assistant',
        content: [{ type: 'text', text: 'hi' }],
        usage: { input_tokens: 10, output_tokens: 2 },
      }),
    );
    expect(a.ok && a.value.transcript.format).toBe('anthropic-messages');
    expect(a.ok && a.value.transcript.usage[0]).toMatchObject({ inputTokens: 10, outputTokens: 2 });
    const o = parseTranscript(
      JSON.stringify({
        object: 'chat.completion',
        choices: [{ message: { role: 'assistant', content: 'hi' } }],
        usage: { prompt_tokens: 5, completion_tokens: 1 },
      }),
    );
    expect(o.ok && o.value.transcript.format).toBe('openai-chat');
  });
});

describe('writing back in the original format', () => {
  it('an untouched transcript round-trips to the same JSON value', () => {
    for (const body of [
      {
        model: 'claude-x',
        system: 's',
        messages: [
          { role: 'user', content: 'q' },
          { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'f', input: {} }] },
        ],
      },
      {
        messages: [
          { role: 'user', content: 'q' },
          {
            role: 'assistant',
            content: null,
            tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }],
          },
          { role: 'tool', tool_call_id: 'c1', content: 'x' },
        ],
      },
    ]) {
      const r = parseTranscript(JSON.stringify(body));
      expect(r.ok).toBe(true);
      if (!r.ok) return;
      expect(JSON.parse(writeTranscript(r.value.transcript))).toEqual(body);
    }
  });

  it('new messages are rendered from their blocks and re-parse to the same blocks', () => {
    const r = parseTranscript(
      JSON.stringify({
        messages: [
          { role: 'user', content: 'q' },
          {
            role: 'assistant',
            content: [{ type: 'tool_use', id: 't1', name: 'f', input: { a: 1 } }],
          },
        ],
      }),
    );
    if (!r.ok) throw new Error('parse');
    const t = r.value.transcript;
    const added = {
      index: 2,
      rawIndex: 2,
      path: 'messages.2',
      role: 'user' as const,
      blocks: [
        {
          type: 'tool_result' as const,
          toolUseId: 't1',
          isError: true,
          content: [{ type: 'text' as const, text: 'tool raised' }],
        },
      ],
      raw: undefined,
    };
    const out = writeTranscript({ ...t, messages: [...t.messages, added] });
    const again = parseTranscript(out);
    expect(again.ok && again.value.transcript.messages[2]?.blocks).toEqual(added.blocks);
  });
});

describe('the JSON error caret is on the text, not on an empty line (issue 41)', () => {
  it('a document cut short, followed by blank lines, is located just after its last character', () => {
    const text = '{\n  "messages": [\n    {"role": "user", "content": "hi"}\n\n\n';
    const r = parseJsonText(text);
    expect(r.ok).toBe(false);
    if (r.ok) return;
    expect(r.error.location?.line).toBe(3);
    expect(r.error.location?.lineText).toBe('    {"role": "user", "content": "hi"}');
    expect(r.error.location?.column).toBe(38);
  });

  it('an error on a line with content stays where it is', () => {
    const r = parseJsonText('{\n "messages": [\n  {"role": "user",, "content": "x"}\n ]\n}');
    expect(r.ok).toBe(false);
    if (!r.ok) expect(r.error.location).toMatchObject({ line: 3, column: 19 });
  });
});
