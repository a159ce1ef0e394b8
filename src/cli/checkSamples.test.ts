/** `check` on every sample in public/samples: exit 0 for the valid ones, 1 for the broken ones. */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './commands.ts';
import type { CliIO } from './io.ts';

const samplesDir = path.resolve(import.meta.dirname, '../../public/samples');
const index = JSON.parse(readFileSync(path.join(samplesDir, 'index.json'), 'utf8')) as {
  file: string;
  format: string;
  requests?: number;
  broken: boolean;
}[];

async function check(file: string, ...flags: string[]) {
  let out = '';
  let err = '';
  const io: CliIO = {
    read: (f) => ({ text: readFileSync(f, 'utf8'), name: path.basename(f) }),
    out: (s) => void (out += s),
    err: (s) => void (err += s),
  };
  const code = await runCli(['check', path.join(samplesDir, file), ...flags], io);
  return { code, out, err };
}

describe('npm run cli -- check on every sample', () => {
  for (const s of index) {
    it(`${s.file}: detected as ${s.format}, ${s.broken ? 'invalid (exit 1)' : 'valid (exit 0)'}`, async () => {
      const r = await check(s.file, '--json');
      // A file of several requests: stderr says which was read (the newest) and how to choose.
      if (s.requests !== undefined)
        expect(r.err).toMatch(
          new RegExp(`holds ${s.requests} requests; read #${s.requests} \\(choose another`),
        );
      // A session log read whole: stderr says it is judged as one request no call sent.
      else if (s.format === 'claude-code-jsonl' || s.format === 'codex-jsonl')
        expect(r.err).toMatch(/is a session log, judged whole as one request.*check --requests/);
      else expect(r.err).toBe('');
      const json = JSON.parse(r.out) as { format: string; valid: boolean; firstError: unknown };
      expect(json.format).toBe(s.format);
      expect(r.code).toBe(s.broken ? 1 : 0);
      expect(json.valid).toBe(!s.broken);
      if (s.broken) expect(json.firstError).not.toBeNull();
    });
  }

  it('the text report of a log format names the provider and the error body', async () => {
    const r = await check('broken-codex-interrupt.jsonl');
    expect(r.code).toBe(1);
    expect(r.out).toContain('codex-jsonl → openai-responses');
    expect(r.out).toContain('No tool output found for function call call_dlqList7.');
  });

  it('--provider picks an OpenAI-compatible variant', async () => {
    const r = await check('broken-langchain-trim.json', '--provider', 'qwen', '--json');
    const json = JSON.parse(r.out) as {
      provider: string;
      firstError: { error: { message: string } };
    };
    expect(json.provider).toBe('qwen');
    expect(json.firstError.error.message).toBe(
      '<400> InternalError.Algo.InvalidParameter: messages with role "tool" must be a response to a preceeding message with "tool_calls".',
    );
  });
});
