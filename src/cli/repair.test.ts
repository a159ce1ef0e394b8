import { describe, expect, it } from 'vitest';
import { parseTranscript } from '../model/parse/index.ts';
import { validateTranscript } from '../model/validate/index.ts';
import { runCli } from './commands.ts';

/** Run the CLI in-process with a virtual file system (reads and writes). */
async function cli(args: string[], files: Record<string, string>) {
  let out = '';
  let err = '';
  const written: Record<string, string> = {};
  const io = {
    read: (f: string) => {
      const text = files[f];
      if (text === undefined) throw new Error('ENOENT: no such file');
      return { text, name: f };
    },
    out: (s: string) => (out += s),
    err: (s: string) => (err += s),
    write: (f: string, s: string) => {
      if (f.startsWith('/readonly/')) throw new Error('EACCES: permission denied');
      written[f] = s;
    },
  };
  const code = await runCli(args, io);
  return { code, out, err, written };
}

/** Case 08 (claude-code#1956), reduced: the user cancelled while two parallel calls ran. */
const CANCELLED = {
  system: 'You are a coding agent.',
  messages: [
    { role: 'user', content: 'Run the tests and the linter.' },
    {
      role: 'assistant',
      content: [
        { type: 'text', text: 'Running both.' },
        { type: 'tool_use', id: 'toolu_t1', name: 'bash', input: { command: 'pytest -q' } },
        { type: 'tool_use', id: 'toolu_t2', name: 'bash', input: { command: 'ruff check .' } },
      ],
    },
    { role: 'user', content: 'Stop, only the tests.' },
  ],
};

/** Case 02 (litellm), reduced: trailing tool message stripped from an OpenAI Chat body. */
const TRAILING_OPENAI = {
  model: 'gpt-4o',
  messages: [
    { role: 'user', content: 'Convert 10 USD to EUR.' },
    {
      role: 'assistant',
      content: null,
      tool_calls: [
        {
          id: 'call_cv1',
          type: 'function',
          function: { name: 'convert', arguments: '{"amount":10}' },
        },
      ],
    },
  ],
};

/** Case 15, reduced: thinking enabled, the thinking block of the open tool loop stripped. */
const THINKING_STRIPPED = {
  model: 'claude-sonnet-4-5',
  max_tokens: 2048,
  thinking: { type: 'enabled', budget_tokens: 1024 },
  tools: [{ name: 'get_weather', input_schema: { type: 'object' } }],
  messages: [
    { role: 'user', content: 'Weather in Oslo?' },
    {
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'toolu_w', name: 'get_weather', input: { city: 'Oslo' } }],
    },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_w', content: '4 °C' }] },
  ],
};

/** A newcomer's Gemini body: a call without an id, then a new prompt typed over it (G3). */
const GEMINI_UNANSWERED = {
  contents: [
    { role: 'user', parts: [{ text: 'weather in Paris?' }] },
    {
      role: 'model',
      parts: [{ functionCall: { name: 'get_weather', args: { city: 'Paris' } } }],
    },
    { role: 'user', parts: [{ text: 'hello?' }] },
  ],
};

describe('cli repair', () => {
  it('writes the repaired transcript in its format to stdout and lists the changes on stderr (exit 0)', async () => {
    const r = await cli(['repair', 'c.json'], { 'c.json': JSON.stringify(CANCELLED) });
    expect(r.code).toBe(0);
    const body = JSON.parse(r.out);
    expect(body.system).toBe('You are a coding agent.');
    expect(body.messages[2].content).toEqual([
      {
        type: 'tool_result',
        tool_use_id: 'toolu_t1',
        is_error: true,
        content: expect.stringContaining('interrupted'),
      },
      {
        type: 'tool_result',
        tool_use_id: 'toolu_t2',
        is_error: true,
        content: expect.stringContaining('interrupted'),
      },
      { type: 'text', text: 'Stop, only the tests.' },
    ]);
    expect(body.messages.slice(0, 2)).toEqual(CANCELLED.messages.slice(0, 2));
    expect(r.err).toContain('[error_result_added] message 1 → output message 2 (ids: toolu_t1)');
    expect(r.err).toContain('VALID: anthropic would accept the repaired request.');
    const back = parseTranscript(r.out);
    expect(back.ok && validateTranscript(back.value.transcript).valid).toBe(true);
  });

  it('--json gives one object with changes, unrepaired, valid and the output', async () => {
    const r = await cli(['repair', 'o.json', '--json'], {
      'o.json': JSON.stringify(TRAILING_OPENAI),
    });
    expect(r.code).toBe(0);
    expect(r.err).toBe('');
    const j = JSON.parse(r.out);
    expect(j).toMatchObject({
      format: 'openai-chat',
      provider: 'openai-chat',
      validBefore: false,
      valid: true,
      unrepaired: [],
    });
    expect(j.changes).toMatchObject([
      { kind: 'error_result_added', messageIndex: 1, outputIndex: 2, ids: ['call_cv1'] },
    ]);
    const out = JSON.parse(j.output);
    expect(out.model).toBe('gpt-4o');
    expect(out.messages[2]).toMatchObject({ role: 'tool', tool_call_id: 'call_cv1' });
  });

  it('-o writes the file instead of stdout', async () => {
    const r = await cli(['repair', 'c.json', '-o', 'fixed.json'], {
      'c.json': JSON.stringify(CANCELLED),
    });
    expect(r.code).toBe(0);
    expect(r.out).toBe('');
    expect(r.err).toContain('wrote fixed.json');
    expect(JSON.parse(r.written['fixed.json'] as string).messages).toHaveLength(3);
  });

  it('--json with -o names the file and leaves the text out', async () => {
    const r = await cli(['repair', 'c.json', '--json', '-o', 'fixed.json'], {
      'c.json': JSON.stringify(CANCELLED),
    });
    const j = JSON.parse(r.out);
    expect(j.file).toBe('fixed.json');
    expect(j.output).toBeUndefined();
    expect(r.written['fixed.json']).toBeDefined();
  });

  it('a Gemini call without an id gets an error functionResponse (exit 0), and check passes the output', async () => {
    const r = await cli(['repair', 'g.json'], { 'g.json': JSON.stringify(GEMINI_UNANSWERED) });
    expect(r.code).toBe(0);
    expect(r.err).not.toContain('NOT REPAIRED');
    expect(r.err).toContain('VALID: gemini would accept the repaired request.');
    const body = JSON.parse(r.out);
    expect(body.contents[2].parts).toEqual([
      {
        functionResponse: {
          name: 'get_weather',
          response: { error: expect.stringContaining('interrupted') },
        },
      },
      { text: 'hello?' },
    ]);
    const check = await cli(['check', 'fixed.json'], { 'fixed.json': r.out });
    expect(check.code).toBe(0);
  });

  it('what cannot be repaired is explained and exits 1', async () => {
    const r = await cli(['repair', 't.json'], { 't.json': JSON.stringify(THINKING_STRIPPED) });
    expect(r.code).toBe(1);
    expect(r.err).toContain('NOT REPAIRED [T1] thinking_missing');
    expect(r.err).toContain('cannot be recreated');
    expect(r.err).toContain('preceeding the lastmost set');
    expect(JSON.parse(r.out).messages).toEqual(THINKING_STRIPPED.messages);
    const j = JSON.parse(
      (await cli(['repair', 't.json', '--json'], { 't.json': JSON.stringify(THINKING_STRIPPED) }))
        .out,
    );
    expect(j.valid).toBe(false);
    expect(j.unrepaired).toMatchObject([{ rule: 'thinking_missing', code: 'T1' }]);
  });

  it('--provider repairs for another provider', async () => {
    const r = await cli(['repair', 'c.json', '--provider', 'openai-chat', '--json'], {
      'c.json': JSON.stringify(CANCELLED),
    });
    const j = JSON.parse(r.out);
    expect(j.provider).toBe('openai-chat');
    expect(j.valid).toBe(true);
  });

  it('a valid transcript needs no change and exits 0', async () => {
    const ok = {
      messages: [
        { role: 'user', content: 'Hi' },
        { role: 'assistant', content: 'Hello.' },
      ],
    };
    const r = await cli(['repair', 'ok.json', '--json'], { 'ok.json': JSON.stringify(ok) });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.out)).toMatchObject({ validBefore: true, valid: true, changes: [] });
  });

  it('unreadable input exits 2', async () => {
    expect((await cli(['repair', 'missing.json'], {})).code).toBe(2);
    const bad = await cli(['repair', 'bad.json'], { 'bad.json': '{"messages": [' });
    expect(bad.code).toBe(2);
    expect(bad.err).toContain('line 1');
  });

  it('an unwritable -o exits 2', async () => {
    const r = await cli(['repair', 'c.json', '-o', '/readonly/x.json'], {
      'c.json': JSON.stringify(CANCELLED),
    });
    expect(r.code).toBe(2);
    expect(r.err).toContain('cannot write /readonly/x.json');
  });

  it('is listed in the usage', async () => {
    const r = await cli(['--help'], {});
    expect(r.out).toContain(
      'repair FILE [--format F] [--provider P] [--model M] [-o OUT] [--json]',
    );
  });
});
