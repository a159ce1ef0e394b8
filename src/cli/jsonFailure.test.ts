import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from './commands.ts';
import { readInput } from './read.ts';
import { cli } from './testing/index.ts';

describe('--json on an input that cannot be loaded: JSON on stdout, the words on stderr', () => {
  it('check: invalid JSON gives {file, error} with the kind, line and column, exit 2', async () => {
    const r = await cli(['check', 'bad.json', '--json'], {
      'bad.json': '{"messages": [\n  {"role": "user" "content": "x"}]}',
    });
    expect(r.code).toBe(2);
    expect(JSON.parse(r.out)).toEqual({
      file: 'bad.json',
      error: {
        kind: 'json',
        message: expect.stringContaining('line 2, column 19') as unknown,
        line: 2,
        column: 19,
      },
    });
    expect(r.err).toContain('error: ');
  });

  it('check: a file that cannot be read, and a request out of range', async () => {
    const missing = await cli(['check', 'none.json', '--json'], {});
    expect(missing.code).toBe(2);
    expect(JSON.parse(missing.out)).toMatchObject({ file: 'none.json', error: { kind: 'read' } });
    const one = JSON.stringify({
      model: 'm',
      max_tokens: 1,
      messages: [{ role: 'user', content: 'hi' }],
    });
    const range = await cli(['check', 'one.json', '--request', '3', '--json'], { 'one.json': one });
    expect(range.code).toBe(2);
    expect(JSON.parse(range.out)).toMatchObject({ error: { kind: 'request' } });
  });

  it('check: a binary file is kind binary, as the README says (newcomer: it was "read")', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'jsonfail-'));
    try {
      const bin = path.join(dir, 'binary.bin');
      writeFileSync(bin, Buffer.from([0xb0, 0xdf, 0x00, 0x2b, 0xe2, 0x00, 0x97]));
      const zip = path.join(dir, 'zip.json.gz');
      writeFileSync(zip, Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0x00, 0x00, 0x00]));
      for (const file of [bin, zip]) {
        let out = '';
        const code = await runCli(['check', file, '--json'], {
          read: (f) => readInput(f),
          out: (s) => (out += s),
          err: () => {},
        });
        expect(code, file).toBe(2);
        expect(JSON.parse(out), file).toMatchObject({ file, error: { kind: 'binary' } });
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  it('repair, simulate and share answer in JSON too; without --json stdout stays empty', async () => {
    const files = { 'bad.json': '{' };
    for (const args of [
      ['repair', 'bad.json', '--json'],
      ['simulate', 'bad.json', '--policy', 'exchange', '--budget', '100', '--json'],
      ['share', 'bad.json', '--json'],
    ]) {
      const r = await cli(args, { ...files });
      expect(r.code, args.join(' ')).toBe(2);
      expect(JSON.parse(r.out), args.join(' ')).toMatchObject({
        file: 'bad.json',
        error: { kind: 'json' },
      });
    }
    expect((await cli(['check', 'bad.json'], { ...files })).out).toBe('');
  });
});
