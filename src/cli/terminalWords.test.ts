import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from './commands.ts';
import { readInput } from './read.ts';
import { cli } from './testing/index.ts';

const dir = mkdtempSync(path.join(tmpdir(), 'ti-words-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** The CLI as main.ts runs it: files read from disk by `readInput`. */
async function onDisk(...argv: string[]) {
  let out = '';
  let err = '';
  const code = await runCli(argv, {
    read: (f) => readInput(f),
    out: (s) => void (out += s),
    err: (s) => void (err += s),
  });
  return { code, out, err };
}

describe('cli refusals in a terminal’s words', () => {
  it('a file with a NUL byte says what to pass, not what to drop', async () => {
    const file = path.join(dir, 'nul.json');
    writeFileSync(file, Buffer.from([0x7b, 0x00, 0x7d]));
    const r = await onDisk('check', file);
    expect(r.code).toBe(2);
    expect(r.err).not.toMatch(/Drop a/);
    expect(r.err).toContain('Pass a .json, .jsonl or .gz transcript file, - to read stdin');
  });

  it('text with NUL bytes (stdin, a pasted body) says the same, in --json too', async () => {
    const r = await cli(['check', 'x.json', '--json'], { 'x.json': '{"a": 1,\u0000' });
    expect(r.code).toBe(2);
    expect(r.err).not.toMatch(/Drop a/);
    const j = JSON.parse(r.out) as { error: { kind: string; message: string } };
    expect(j.error.kind).toBe('binary');
    expect(j.error.message).toContain('Pass a .json, .jsonl or .gz transcript file');
  });
});
