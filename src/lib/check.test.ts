/** `check`: the CLI's verdict, paths and exact bodies, for every sample, case and provider. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../cli/commands.ts';
import type { CliIO } from '../cli/io.ts';
import { CASE_FIXTURES } from '../model/testing/cases.ts';
import { check, checkCounted, PROVIDERS, UnreadableTranscriptError } from './index.ts';
import { read } from './read.ts';
import { countTokens, loadBpeCounter } from '../model/tokens.ts';
import { gzipSync } from 'fflate';

const samplesDir = path.resolve(import.meta.dirname, '../../public/samples');
const samples = (
  JSON.parse(readFileSync(path.join(samplesDir, 'index.json'), 'utf8')) as { file: string }[]
).map((s) => s.file);

/** `npm run cli -- check FILE --json [flags]` on text, parsed. */
async function cliJson(text: string, name: string, ...flags: string[]) {
  let out = '';
  const io: CliIO = {
    read: () => ({ text, name }),
    out: (s) => void (out += s),
    err: () => undefined,
  };
  await runCli(['check', name, '--json', ...flags], io);
  return JSON.parse(out) as Record<string, unknown>;
}

/** The fields `check --json` prints, from a library result. */
function asCli(r: ReturnType<typeof check>) {
  return {
    format: r.format,
    provider: r.provider,
    valid: r.valid,
    violations: r.violations.map((v) => ({
      rule: v.rule,
      code: v.code,
      severity: v.severity,
      messageIndex: v.messageIndex,
      blockIndex: v.blockIndex,
      ids: v.ids,
      providerPath: v.providerPath,
      status: v.status,
      error: v.error,
    })),
    firstError: r.firstError,
    notes: r.notes,
    warnings: r.warnings,
  };
}

const pick = (j: Record<string, unknown>) => ({
  format: j.format,
  provider: j.provider,
  valid: j.valid,
  violations: j.violations,
  firstError: j.firstError,
  notes: j.notes,
  warnings: j.warnings,
});

describe('check() gives the CLI verdict', () => {
  for (const file of samples) {
    it(`${file}: every provider, as text and (JSON) as a parsed body`, async () => {
      const text = readFileSync(path.join(samplesDir, file), 'utf8');
      for (const provider of [undefined, ...PROVIDERS]) {
        const flags = provider ? ['--provider', provider] : [];
        const cli = pick(await cliJson(text, file, ...flags));
        const opts = provider ? { provider, name: file } : { name: file };
        expect(asCli(check(text, opts))).toEqual(cli);
        if (!file.endsWith('.jsonl'))
          expect(asCli(check(JSON.parse(text) as unknown, opts))).toEqual(cli);
      }
    });
  }

  it('every case fixture: the provider text and path, as the CLI prints them', async () => {
    for (const c of CASE_FIXTURES) {
      const r = check(c.transcript);
      expect(asCli(r)).toEqual(pick(await cliJson(JSON.stringify(c.transcript), 'case.json')));
      const errors = r.violations.filter((v) => v.severity === 'error');
      expect(
        errors.map((v) => v.message),
        c.name,
      ).toEqual(c.expected.map((e) => e.message));
    }
  });

  it('reads bytes and gzip as the CLI reads a .gz file', () => {
    const text = readFileSync(path.join(samplesDir, 'broken-orphan-after-trim.json'), 'utf8');
    const fromText = check(text);
    expect(fromText.valid).toBe(false);
    expect(check(new TextEncoder().encode(text))).toEqual(fromText);
    expect(check(gzipSync(new TextEncoder().encode(text)))).toEqual(fromText);
  });

  it("refuses bytes that are not text in the library's words, not the page's (newcomer: 'Drop a .json …')", () => {
    let error: unknown;
    try {
      check(new Uint8Array([0x7b, 0x00, 0x01, 0x02]));
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(UnreadableTranscriptError);
    const { message, kind } = (error as UnreadableTranscriptError).parseError;
    expect(kind).toBe('binary');
    expect(message).toMatch(/NUL byte/);
    expect(message).toMatch(/Pass a request body, a message list or a session log/);
    expect(message).not.toMatch(/Drop a/);
  });
});

const ORPHAN_ANTHROPIC = {
  model: 'claude-sonnet-4-5',
  max_tokens: 1024,
  // A complete request defines its tools (without them A7 would come first).
  tools: [{ name: 'f', input_schema: { type: 'object' } }],
  messages: [
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'ok' }] },
  ],
};

describe('check() results', () => {
  it('an orphan tool_result: invalid, A1, the exact Anthropic body', () => {
    const r = check(ORPHAN_ANTHROPIC);
    expect(r.valid).toBe(false);
    expect(r.firstViolation?.code).toBe('A1');
    expect(r.firstError).toEqual({
      type: 'error',
      error: {
        type: 'invalid_request_error',
        message:
          'messages.0.content.0: unexpected `tool_use_id` found in `tool_result` blocks: toolu_1. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.',
      },
    });
  });

  it('a valid body: valid, no error body', () => {
    const r = check({ model: 'gpt-4.1', messages: [{ role: 'user', content: 'hi' }] });
    expect(r).toMatchObject({ valid: true, firstError: null, firstViolation: null });
    expect(r.format).toBe('openai-chat');
  });

  it('a Chat body naming a DeepSeek, Qwen or Mistral model is judged for that provider, CLI too', async () => {
    const body = (model: string) => ({
      model,
      messages: [
        { role: 'user', content: 'Where am I?' },
        {
          role: 'assistant',
          content: '',
          tool_calls: [
            { id: 'call_1', type: 'function', function: { name: 'pwd', arguments: '{}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_1', content: '/home' },
      ],
    });
    const r = check(body('deepseek-reasoner'));
    expect([r.provider, r.firstViolation?.code]).toEqual(['deepseek', 'D4']);
    const cli = await cliJson(JSON.stringify(body('deepseek-reasoner')), 'req.json');
    expect([cli.provider, cli.valid]).toEqual(['deepseek', false]);
    expect(check(body('qwen3-coder-plus')).provider).toBe('qwen');
    expect(check(body('mistral-large-latest')).provider).toBe('mistral');
    expect(check(body('gpt-4.1')).provider).toBe('openai-chat');
    // A provider asked for still wins.
    expect(check(body('deepseek-reasoner'), { provider: 'openai-chat' }).valid).toBe(true);
  });

  it('`model` decides model-dependent rules (Anthropic A12 prefill)', () => {
    const body = {
      max_tokens: 10,
      messages: [
        { role: 'user', content: 'Say hi' },
        { role: 'assistant', content: 'Hi' },
      ],
    };
    const older = check(body, { model: 'claude-3-5-sonnet-20241022' });
    const newer = check(body, { model: 'claude-opus-4-6' });
    expect(older.notes.join(' ')).toMatch(/accepted as prefill/);
    expect(newer.notes.join(' ')).toMatch(/is rejected for model claude-opus-4-6/);
  });

  it('a Responses request continuing server-held history: its results answer calls held there', () => {
    const r = check({
      model: 'gpt-5',
      previous_response_id: 'resp_1',
      input: [{ type: 'function_call_output', call_id: 'call_1', output: 'ok' }],
    });
    expect(r.valid).toBe(true);
    expect(r.notes.join(' ')).toMatch(/previous_response_id/);
  });

  it('an unreadable body throws with where and what was expected', () => {
    expect(() => check('{"messages": [')).toThrow(UnreadableTranscriptError);
    try {
      check('{"messages": [');
    } catch (e) {
      expect((e as UnreadableTranscriptError).parseError.location?.line).toBe(1);
    }
    expect(() => check({ hello: 'world' })).toThrow(/not a transcript format I know/);
  });

  it('unknown provider and format ids are refused, not ignored', () => {
    expect(() => check(ORPHAN_ANTHROPIC, { provider: 'antropic' as never })).toThrow(RangeError);
    expect(() => check(ORPHAN_ANTHROPIC, { format: 'anthropic' as never })).toThrow(RangeError);
  });
});

describe('check and checkCounted: the context window, as the CLI and the page judge it', () => {
  const prose = (chars: number) =>
    'the agent reads the code and calls a tool '.repeat(Math.ceil(chars / 42)).slice(0, chars);
  const gpt4o = (chars: number) => ({
    model: 'gpt-4o',
    messages: [{ role: 'user', content: prose(chars) }],
  });

  it('a 4.3 MB gpt-4o body: check and checkCounted reject it at once, by its length', async () => {
    const body = gpt4o(4_300_000);
    const quick = check(body);
    expect(quick.valid).toBe(false);
    expect(quick.firstViolation?.code).toBe('O14');
    expect(quick.firstViolation?.why).toContain('at least');
    expect(await checkCounted(body)).toEqual(quick);
  });

  it('a body its length cannot judge: check notes it, checkCounted counts and rejects it', async () => {
    const body = gpt4o(700_000);
    const quick = check(body);
    expect(quick.valid).toBe(true);
    expect(quick.notes.join(' ')).toContain('not judged yet');
    const counted = await checkCounted(body);
    expect(counted.valid).toBe(false);
    expect(counted.firstViolation?.code).toBe('O14');
    const n = countTokens(read(body).transcript, 'openai-chat', await loadBpeCounter()).total;
    expect(counted.firstViolation?.message).toContain(`resulted in ${n} tokens.`);
  });

  it('a normal body: the same answer, no count', async () => {
    const body = gpt4o(2_000);
    expect(await checkCounted(body)).toEqual(check(body));
  });
});
