import { describe, expect, it } from 'vitest';
import { CASE_FIXTURES } from '../model/testing/cases.ts';
import { cli } from './testing/index.ts';

describe('cli check', () => {
  for (const c of CASE_FIXTURES) {
    it(`--json gives the case its rule, index and exact provider body: ${c.name}`, async () => {
      const r = await cli(['check', 'case.json', '--json'], {
        'case.json': JSON.stringify(c.transcript),
      });
      expect(r.code).toBe(1);
      const j = JSON.parse(r.out);
      expect(j.valid).toBe(false);
      const first = c.expected[0];
      expect(j.violations[0]).toMatchObject({
        rule: first?.rule,
        messageIndex: first?.messageIndex,
        ids: first?.ids,
        providerPath: first?.providerPath,
        status: 400,
      });
      expect(JSON.stringify(j.firstError)).toContain(JSON.stringify(first?.message).slice(1, -1));
      expect(Object.keys(j)).toEqual(
        expect.arrayContaining([
          'format',
          'provider',
          'messages',
          'exchanges',
          'toolCalls',
          'valid',
          'violations',
          'firstError',
        ]),
      );
    });
  }

  it('a valid transcript exits 0 and says so', async () => {
    const body = {
      messages: [
        { role: 'user', content: 'q' },
        { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'f', input: {} }] },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: 'r' }] },
        { role: 'assistant', content: 'done' },
      ],
    };
    const r = await cli(['check', 'ok.json'], { 'ok.json': JSON.stringify(body) });
    expect(r.code).toBe(0);
    expect(r.out).toContain('VALID');
    expect(r.out).toContain('4 messages, 1 exchange, 1 tool call');
  });

  it('--provider switches the rules: an Anthropic transcript checked as OpenAI Chat', async () => {
    const r = await cli(['check', 'c.json', '--provider', 'openai-chat', '--json'], {
      'c.json': JSON.stringify(CASE_FIXTURES[4]?.transcript),
    });
    const j = JSON.parse(r.out);
    expect(j.provider).toBe('openai-chat');
    expect(j.violations[0].error.error.message).toContain(
      "An assistant message with 'tool_calls' must be followed by tool messages",
    );
  });

  it('unreadable input exits 2 with line and column', async () => {
    const r = await cli(['check', 'bad.json'], {
      'bad.json': '{\n "messages": [\n  {"role": "user",, "content": "x"}\n ]\n}',
    });
    expect(r.code).toBe(2);
    expect(r.err).toContain('line 3, column 19');
    expect(r.err).toContain('{"role": "user",, "content": "x"}');
  });

  it('unknown shape exits 2 and lists what each format expected', async () => {
    const r = await cli(['check', 'x.json'], { 'x.json': '{"foo": 1}' });
    expect(r.code).toBe(2);
    expect(r.err).toContain('anthropic-messages: expected');
  });

  it('unknown shape names one JSON object JSON and a log of several records JSON Lines', async () => {
    const files = { 'x.json': '{\n  "foo": 1\n}\n', 'x.jsonl': '{"foo": 1}\n{"bar": 2}\n' };
    const one = await cli(['check', 'x.json'], files);
    expect(one.err).toContain('error: This is valid JSON, but not a transcript format I know.');
    const log = await cli(['check', 'x.jsonl'], files);
    expect(log.err).toContain('error: This is valid JSON Lines, but not a transcript format');
  });

  it('--help on a command prints its usage and exits 0', async () => {
    const r = await cli(['check', '--help'], {});
    expect(r.code).toBe(0);
    expect(r.out).toContain('check FILE');
  });

  it('a second FILE is an error, not silently ignored', async () => {
    const r = await cli(['check', 'a.json', 'b.json'], { 'a.json': '[]', 'b.json': '[]' });
    expect(r.code).toBe(2);
    expect(r.err).toContain('takes one FILE; also got: b.json');
  });

  it('--request N picks one request of a file that holds several, and a note says which was read', async () => {
    const ok = {
      model: 'claude-sonnet-4-5',
      messages: [
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'hello' },
      ],
    };
    const orphan = {
      model: 'claude-sonnet-4-5',
      messages: [
        {
          role: 'user',
          content: [{ type: 'tool_result', tool_use_id: 'toolu_gone', content: 'x' }],
        },
      ],
    };
    // A batch input file: one request per line (docs/formats.md#batch).
    const batch = [ok, orphan]
      .map((params, i) => JSON.stringify({ custom_id: `r${i + 1}`, params }))
      .join('\n');
    const files = { 'b.jsonl': batch };
    const first = await cli(['check', 'b.jsonl', '--request', '1'], files);
    expect(first.code).toBe(0);
    const second = await cli(['check', 'b.jsonl', '--request=2', '--json'], files);
    expect(second.code).toBe(1);
    expect(JSON.parse(second.out).violations[0].rule).toBe('orphan_tool_result');
    // Without --request: the newest, and a note on stderr says which and how to choose.
    const unchosen = await cli(['check', 'b.jsonl', '--json'], files);
    expect(unchosen.code).toBe(1);
    expect(unchosen.err).toContain('holds 2 requests; read #2 (choose another with --request N)');
    // A request that does not exist is bad usage, not a silent fallback.
    expect((await cli(['check', 'b.jsonl', '--request', '0'], files)).code).toBe(2);
    const past = await cli(['check', 'b.jsonl', '--request', '3'], files);
    expect(past.code).toBe(2);
    expect(past.err).toContain('--request 3: b.jsonl holds 2 requests');
    const single = await cli(['check', 'one.json', '--request', '2'], {
      'one.json': JSON.stringify(ok),
    });
    expect(single.code).toBe(2);
    expect(single.err).toContain('holds one request');
  });

  it('bad usage exits 2', async () => {
    expect((await cli(['check'], {})).code).toBe(2);
    expect((await cli(['check', 'a.json', '--provider', 'nope'], { 'a.json': '[]' })).code).toBe(2);
    expect((await cli(['frobnicate'], {})).code).toBe(2);
    expect((await cli(['check', 'missing.json'], {})).code).toBe(2);
  });
});

describe('cli check: a body of untyped `{text}` parts with a provider\u2019s model', () => {
  it('gpt-4o: read as OpenAI Chat and invalid (O13), no longer a valid Bedrock Converse request', async () => {
    const body = { model: 'gpt-4o', messages: [{ role: 'user', content: [{ text: 'hi' }] }] };
    const r = await cli(['check', 'b.json', '--json'], { 'b.json': JSON.stringify(body) });
    expect(r.code).toBe(1);
    const j = JSON.parse(r.out);
    expect(j).toMatchObject({ format: 'openai-chat', provider: 'openai-chat', valid: false });
    expect(j.violations[0]).toMatchObject({
      code: 'O13',
      providerPath: 'messages[0].content[0].type',
    });
    expect(j.firstError.error.message).toBe(
      "Missing required parameter: 'messages[0].content[0].type'.",
    );
  });

  it('claude-sonnet-4-5 with max_tokens: Anthropic\u2019s 400 (A20)', async () => {
    const body = {
      model: 'claude-sonnet-4-5',
      max_tokens: 100,
      messages: [{ role: 'user', content: [{ text: 'hi' }] }],
    };
    const r = await cli(['check', 'b.json'], { 'b.json': JSON.stringify(body) });
    expect(r.code).toBe(1);
    expect(r.out).toContain('anthropic-messages → anthropic');
    expect(r.out).toContain('messages.0.content.0.type: Field required');
  });
});
