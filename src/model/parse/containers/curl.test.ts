import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validateTranscript } from '../../validate/index.ts';
import { parseTranscript } from '../index.ts';
import { readCurl } from './curl.ts';
import { quoteAnsi, quoteCmd, quoteDouble, quoteSingle, splitCmd, splitShell } from './shell.ts';

/**
 * Fixture with the shape of the reported case 08 (anthropics/claude-code#1956, shortened):
 * three parallel `tool_use` blocks and a plain user message after them. Expected verdict there:
 * invalid, unanswered tool_use at message 1 with the three ids.
 */
const body = {
  model: 'claude-sonnet-4-5',
  max_tokens: 1024,
  tools: [{ name: 'bash', input_schema: { type: 'object' } }],
  messages: [
    { role: 'user', content: "Run the tests, the linter and the type checker, don't wait." },
    {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Running all three checks in parallel.' },
        { type: 'tool_use', id: 'toolu_01ESA', name: 'bash', input: { command: 'pytest -q' } },
        { type: 'tool_use', id: 'toolu_01ESB', name: 'bash', input: { command: 'ruff check .' } },
        { type: 'tool_use', id: 'toolu_01ESC', name: 'bash', input: { command: 'mypy src' } },
      ],
    },
    { role: 'user', content: 'Stop — only run the unit tests.' },
  ],
};

/** Like DevTools "Copy as cURL (bash)": line continuations, single-quoted body. */
const devtoolsCurl = [
  "curl 'https://api.anthropic.com/v1/messages' \\",
  "  -H 'content-type: application/json' \\",
  "  -H 'x-api-key: sk-ant-REDACTED' \\",
  `  --data-raw ${quoteSingle(JSON.stringify(body, null, 2))}`,
].join('\n');

describe('readCurl', () => {
  it('is null for anything that is not a curl command', () => {
    expect(readCurl('{"messages": []}')).toBeNull();
    expect(readCurl('curly braces')).toBeNull();
    expect(readCurl('event: ping\ndata: {}')).toBeNull();
  });

  it('extracts the single-quoted body and the URL, with its format hint and line', () => {
    const r = readCurl(devtoolsCurl);
    expect(r?.ok).toBe(true);
    if (!r?.ok) return;
    expect(r.value).toHaveLength(1);
    expect(r.value[0]?.value).toEqual(body);
    expect(r.value[0]?.note).toMatchObject({
      kind: 'curl',
      formatHint: 'anthropic-messages',
      where: 'body of the curl command, line 4 (https://api.anthropic.com/v1/messages)',
    });
  });

  it("reads double quotes with escapes, $'…' quotes, -d attached and --url", () => {
    const json = '{"messages":[{"role":"user","content":"say \\"hi\\""}]}';
    const dq = `curl -X POST https://api.openai.com/v1/chat/completions -d "${json.replace(/["\\$`]/g, (c) => `\\${c}`)}"`;
    const r1 = readCurl(dq);
    expect(r1?.ok && r1.value[0]?.value).toEqual(JSON.parse(json));
    expect(r1?.ok && r1.value[0]?.note.formatHint).toBe('openai-chat');

    const ansi =
      "curl 'https://api.openai.com/v1/responses' --data-raw $'{\"input\":\"it\\'s\\\\n\\u00e9\"}'";
    const r2 = readCurl(ansi);
    expect(r2?.ok && r2.value[0]?.value).toEqual({ input: "it's\né" });
    expect(r2?.ok && r2.value[0]?.note.formatHint).toBe('openai-responses');

    const attached = `$ curl --url https://x.example/v1beta/models/gemini-2.5-pro:generateContent?key=SECRET -d'{"contents":[]}'`;
    const r3 = readCurl(attached);
    expect(r3?.ok && r3.value[0]?.value).toEqual({ contents: [] });
    expect(r3?.ok && r3.value[0]?.note.formatHint).toBe('gemini');
    // The query (an API key) is never shown.
    expect(r3?.ok && r3.value[0]?.note.where).not.toContain('SECRET');
  });

  it('a body that is not JSON: line and column inside the body, and where it starts in the paste', () => {
    const text = [
      'curl https://api.anthropic.com/v1/messages \\',
      "  -H 'content-type: application/json' \\",
      "  -d '{",
      '  "messages": [',
      '    {"role": "user" "content": "hi"}',
      "  ]}'",
    ].join('\n');
    const r = readCurl(text);
    expect(r?.ok).toBe(false);
    if (!r || r.ok) return;
    expect(r.error.kind).toBe('json');
    expect(r.error.location).toMatchObject({ line: 3, column: 21 });
    expect(r.error.location?.lineText).toBe('    {"role": "user" "content": "hi"}');
    expect(r.error.message).toContain('starts at line 3, column 7 of the paste');
    expect(r.error.message).toContain('line 3, column 21 of the body');
  });

  it('a body from a file or a heredoc (--data @-) is out of scope and says so', () => {
    for (const text of [
      'curl https://api.anthropic.com/v1/messages --data @- <<\'EOF\'\n{"messages":[]}\nEOF',
      'curl https://api.anthropic.com/v1/messages -d @body.json',
    ]) {
      const r = readCurl(text);
      expect(r?.ok).toBe(false);
      if (!r || r.ok) continue;
      expect(r.error.message).toMatch(/file or from stdin/);
    }
  });

  it('no body, and an unclosed quote (a cut-off paste), are errors with a message', () => {
    const none = readCurl('curl https://api.anthropic.com/v1/models');
    expect(none?.ok === false && none.error.message).toMatch(/sends no body/);
    const cut = readCurl('curl https://api.anthropic.com/v1/messages -d \'{"messages": [');
    expect(cut?.ok).toBe(false);
    if (!cut || cut.ok) return;
    expect(cut.error.location).toMatchObject({ line: 1, column: 47 });
    expect(cut.error.message).toMatch(/never closed/);
  });
});

describe('Windows cmd ("Copy as cURL (cmd)")', () => {
  it('reads carets, ^" quotes and ^ line continuations', () => {
    const text = [
      'curl ^"https://api.anthropic.com/v1/messages^" ^',
      '  -H ^"content-type: application/json^" ^',
      `  --data-raw ${quoteCmd(JSON.stringify(body))}`,
    ].join('\r\n');
    const r = readCurl(text);
    expect(r?.ok).toBe(true);
    if (!r?.ok) return;
    expect(r.value[0]?.value).toEqual(body);
    expect(r.value[0]?.note).toMatchObject({
      formatHint: 'anthropic-messages',
      where: 'body of the curl command, line 3 (https://api.anthropic.com/v1/messages)',
    });
  });

  it('splitCmd inverts quoteCmd, and a JSON body round-trips (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme' }).filter((s) => !/[\r\n]/.test(s)),
        (s) => {
          expect(splitCmd(`x ${quoteCmd(s)} y`).words.map((w) => w.value)).toEqual(['x', s, 'y']);
        },
      ),
    );
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        const json = JSON.stringify(value);
        const r = readCurl(
          `curl ^"https://api.openai.com/v1/responses^" --data-raw ${quoteCmd(json)}`,
        );
        expect(r?.ok).toBe(true);
        if (r?.ok) expect(r.value[0]?.value).toEqual(JSON.parse(json));
      }),
    );
  });
});

describe('parseTranscript on a curl command', () => {
  it('gets the case verdict (unanswered tool_use, three ids) and says where the body was', () => {
    const r = parseTranscript(devtoolsCurl);
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.transcript.format).toBe('anthropic-messages');
    expect(r.value.container?.kind).toBe('curl');
    expect(r.value.transcript.warnings[0]).toBe(
      'Unwrapped from the body of the curl command, line 4 (https://api.anthropic.com/v1/messages).',
    );
    const v = validateTranscript(r.value.transcript);
    expect(v.valid).toBe(false);
    const first = v.violations.find((x) => x.severity === 'error');
    expect(first?.messageIndex).toBe(1);
    expect(first?.ids).toEqual(['toolu_01ESA', 'toolu_01ESB', 'toolu_01ESC']);
  });

  it('the URL decides when the body alone is ambiguous between formats', () => {
    // A bare text-only body reads as Anthropic and as Chat alike.
    const plain = { messages: [{ role: 'user', content: 'hi' }] };
    const viaChat = parseTranscript(
      `curl https://api.deepseek.com/chat/completions -d '${JSON.stringify(plain)}'`,
    );
    expect(viaChat.ok && viaChat.value.transcript.format).toBe('openai-chat');
    expect(viaChat.ok).toBe(true);
    expect(viaChat.ok && viaChat.value.ambiguous).toBe(false);
    const viaAnthropic = parseTranscript(
      `curl https://api.anthropic.com/v1/messages -d '${JSON.stringify(plain)}'`,
    );
    expect(viaAnthropic.ok && viaAnthropic.value.transcript.format).toBe('anthropic-messages');
  });
});

describe('shell quoting round trip (property)', () => {
  it('a JSON body quoted for the shell with single quotes and unwrapped is the same JSON', () => {
    fc.assert(
      fc.property(fc.jsonValue(), fc.boolean(), (value, pretty) => {
        const json = JSON.stringify(value, null, pretty ? 2 : undefined);
        const text = `curl https://api.anthropic.com/v1/messages \\\n  -H 'content-type: application/json' \\\n  -d ${quoteSingle(json)}`;
        const r = readCurl(text);
        expect(r?.ok).toBe(true);
        if (!r?.ok) return;
        expect(r.value[0]?.value).toEqual(JSON.parse(json));
      }),
    );
  });

  it('splitShell inverts quoteSingle, quoteDouble and quoteAnsi for any string', () => {
    for (const quote of [quoteSingle, quoteDouble, quoteAnsi])
      fc.assert(
        fc.property(fc.string({ unit: 'grapheme' }), (s) => {
          const split = splitShell(`x ${quote(s)} y`);
          expect(split.words.map((w) => w.value)).toEqual(['x', s, 'y']);
        }),
      );
  });

  it('the same JSON round trip with double quotes and $\'…\' (the quoting "Copy as cURL" uses)', () => {
    for (const quote of [quoteDouble, quoteAnsi])
      fc.assert(
        fc.property(fc.jsonValue(), (value) => {
          const json = JSON.stringify(value, null, 2);
          const r = readCurl(
            `curl https://api.openai.com/v1/chat/completions --data-raw ${quote(json)}`,
          );
          expect(r?.ok).toBe(true);
          if (r?.ok) expect(r.value[0]?.value).toEqual(JSON.parse(json));
        }),
      );
  });
});
