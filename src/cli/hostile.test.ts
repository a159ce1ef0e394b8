/**
 * Issue 14 in the CLI: hostile input is refused with a message and exit 2 by every command;
 * a usage error prints the usage, an internal failure one line without it; numeric flags are
 * range checked; files are read under the unpacked-bytes limit.
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync, strToU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { runCli, usage } from './commands.ts';
import { readInput } from './read.ts';
import { cli } from './testing/index.ts';

const OK = JSON.stringify({
  model: 'claude-sonnet-4-5',
  messages: [
    { role: 'user', content: 'hi' },
    { role: 'assistant', content: 'hello' },
  ],
});

const COMMANDS: string[][] = [
  ['check'],
  ['repair'],
  ['simulate', '--policy', 'message', '--budget', '10'],
  ['sweep'],
  ['check', '--requests'],
  ['diff', '--request', '2'],
];

describe('hostile input in every command', () => {
  const deep = `{"messages":[{"role":"user","content":${'['.repeat(50_000)}${']'.repeat(50_000)}}]}`;
  const deepInvalid = `{"messages":${'['.repeat(50_000)}`;
  for (const cmd of COMMANDS) {
    it(`${cmd[0]}: 50,000-deep JSON (valid or not) is refused where it gets deep, exit 2, no usage`, async () => {
      for (const text of [deep, deepInvalid]) {
        const [name, ...flags] = cmd as [string, ...string[]];
        const r = await cli([name, 'deep.json', ...flags], { 'deep.json': text });
        expect(r.code).toBe(2);
        expect(r.err).toMatch(
          /^error: The JSON nests deeper than 256 levels .* at line 1, column \d+/,
        );
        expect(r.err).not.toContain('usage:');
        expect(r.err).not.toContain('Maximum call stack');
        expect(r.err.length).toBeLessThan(1000);
      }
    }, 60_000);
  }

  it('a 6.7 MB one-line file with an error at its end: a short message and a short quote', async () => {
    const text = `{"messages":[{"role":"user","content":"${'x'.repeat(6_700_000)}"}], oops}`;
    const r = await cli(['check', 'long.json'], { 'long.json': text });
    expect(r.code).toBe(2);
    expect(r.err).toContain(`column ${text.indexOf('oops') + 1}`);
    expect(r.err.length).toBeLessThan(800);
  });
});

describe('usage errors and internal failures', () => {
  it('numeric flags are range checked; a boolean flag takes no value', async () => {
    const files = { 'ok.json': OK };
    for (const args of [
      ['simulate', 'ok.json', '--policy', 'message', '--budget', '99999999999999999999999'],
      ['simulate', 'ok.json', '--policy', 'message', '--budget', '-1'],
      ['simulate', 'ok.json', '--policy', 'message', '--budget', '1e3'],
      ['sweep', 'ok.json', '--summary-tokens', '1000000001'],
      ['check', 'ok.json', '--request', '0'],
      ['check', 'ok.json', '--request', '99999999999999999999'],
      ['check', 'ok.json', '--json=1'],
      ['check', 'ok.json', '--json='],
    ]) {
      const r = await cli(args, files);
      expect(r.code, args.join(' ')).toBe(2);
      expect(r.err).toMatch(/^error: --(budget|summary-tokens|request|json) /);
      expect(r.err).toContain(usage());
      expect(r.out).toBe('');
    }
    const fine = await cli(
      ['simulate', 'ok.json', '--policy', 'message', '--budget=1000000000'],
      files,
    );
    expect(fine.code).toBe(0);
  });

  it('an internal failure says what was being done, without the usage text', async () => {
    const r = await cli(['check', 'ok.json'], { 'ok.json': OK }, true);
    expect(r.code).toBe(2);
    expect(r.err).toBe(
      'error: check failed while analysing ok.json: simulated write failure\n(This is a fault of the program, not of the command line; the input was not changed.)\n',
    );
  });
});

describe('reading files under the limit', () => {
  const dir = mkdtempSync(join(tmpdir(), 'ti-hostile-'));
  it('refuses a plain file from its size, a .gz while inflating, with sizes and the limit', () => {
    const plain = join(dir, 'big.json');
    writeFileSync(plain, OK);
    expect(() => readInput(plain, 64)).toThrow(
      /^This text is \d+ bytes; the limit is 64 bytes of text/,
    );
    expect(readInput(plain, OK.length)).toEqual({ text: OK, name: plain });
    const gz = join(dir, 'big.json.gz');
    writeFileSync(gz, gzipSync(strToU8(OK.repeat(20))));
    expect(() => readInput(gz, 1000)).toThrow(
      /^This \.gz file is \d+ bytes but unpacks to more than [\d.]+ kB; the limit is 1\.0 kB of text/,
    );
    expect(readInput(gz).name).toBe(plain);
  });

  it('a .gz that is not gzip data: read as text, and a failure says so first', async () => {
    const run = async (file: string) => {
      let err = '';
      const code = await runCli(['check', file], {
        read: (f) => readInput(f),
        out: () => {},
        err: (s) => (err += s),
      });
      return { code, err };
    };
    // A body the browser unpacked already, still named .gz: it is the transcript.
    const body = join(dir, 'unpacked.json.gz');
    writeFileSync(body, OK);
    expect(readInput(body)).toMatchObject({ text: OK, name: join(dir, 'unpacked.json') });
    expect((await run(body)).err).toBe('');
    // A saved error page: the name is the first thing wrong, not a JSON error at 1:1.
    const page = join(dir, 'page.json.gz');
    writeFileSync(page, '<!DOCTYPE html><p>Not found</p>');
    const r = await run(page);
    expect(r.code).toBe(2);
    expect(r.err).toMatch(
      /^error: \S+page\.json\.gz is named \.gz but is not gzip data \(gzip starts with the bytes 1f 8b; this one starts with 3c 21 44 4f “<!DO”\): it was read as plain text\. /,
    );
    // Another archive is refused as that.
    const zip = join(dir, 'log.jsonl.gz');
    writeFileSync(zip, new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0]));
    expect(() => readInput(zip)).toThrow(/: a zip archive\)\. Unpack it/);
  });

  it('a .gz bomb on disk: refused quickly, through the command', async () => {
    const bomb = join(dir, 'bomb.json.gz');
    const member = gzipSync(new Uint8Array(1 << 20).fill(32), { level: 9 });
    const bytes = new Uint8Array(member.length * 300);
    for (let i = 0; i < 300; i++) bytes.set(member, i * member.length);
    writeFileSync(bomb, bytes);
    let err = '';
    const code = await runCli(['check', bomb], {
      read: (f) => readInput(f),
      out: () => {},
      err: (s) => (err += s),
    });
    expect(code).toBe(2);
    expect(err).toContain('decompression bomb');
    expect(err).not.toContain('usage:');
  }, 30_000);
});

describe('a FILE that is no readable file', () => {
  it('a folder or a missing file: exit 2 and why in words, not the system call (newcomer: "EISDIR: illegal operation on a directory, read")', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'cli-dir-'));
    const io = (sink: { out: string; err: string }) => ({
      read: (f: string) => readInput(f),
      out: (s: string) => (sink.out += s),
      err: (s: string) => (sink.err += s),
    });
    for (const cmd of COMMANDS) {
      const [name, ...flags] = cmd as [string, ...string[]];
      const folder = { out: '', err: '' };
      expect(await runCli([name, dir, ...flags], io(folder))).toBe(2);
      expect(folder.err).toContain(`cannot read ${dir}: it is a folder`);
      const missing = { out: '', err: '' };
      expect(await runCli([name, join(dir, 'nothere.json'), ...flags], io(missing))).toBe(2);
      expect(missing.err).toContain('nothere.json: no such file');
      expect(folder.err + missing.err).not.toMatch(/EISDIR|ENOENT/);
    }
  });
});
