/**
 * `check`'s FILE read ahead while the modules load (prefetch.ts, issue 38): the bytes are those
 * `readInput` reads, and anything it could word differently (stdin, a folder, a missing or too
 * large file, a usage error) is left to the command.
 */
import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { gzipSync, strToU8 } from 'fflate';
import { describe, expect, it } from 'vitest';
import { prefetchInput } from './prefetch.ts';
import { readInput } from './read.ts';

const dir = mkdtempSync(join(tmpdir(), 'ti-prefetch-'));
const BODY = '{"messages":[{"role":"user","content":"héllo ✓"}]}';
const file = join(dir, 'a.json');
writeFileSync(file, BODY);
const gz = join(dir, 'a.json.gz');
writeFileSync(gz, gzipSync(strToU8(BODY)));
const folder = join(dir, 'folder');
mkdirSync(folder);
const empty = join(dir, 'empty.json');
writeFileSync(empty, '');

describe('prefetchInput', () => {
  it.each([
    ['check FILE', ['check', file], file],
    ['check FILE with flags', ['check', '--format', 'anthropic-messages', file, '--json'], file],
    ['check --requests FILE', ['check', '--requests', file], file],
    ['a .gz (its bytes: readInput inflates them)', ['check', gz], gz],
    ['an empty file', ['check', empty], empty],
  ])('%s: reads the bytes readInput reads', async (_what, argv, name) => {
    const p = prefetchInput(argv);
    expect(p?.file).toBe(name);
    const bytes = await p?.bytes;
    expect(bytes).toEqual(readFileSync(name));
    expect(readInput(name, undefined, bytes ?? null)).toEqual(readInput(name));
  });

  it.each([
    ['another command', ['repair', file]],
    ['no command', []],
    ['stdin', ['check', '-']],
    ['--help', ['check', file, '--help']],
    ['two files', ['check', file, file]],
    ['an unknown flag', ['check', file, '--nope']],
    ['a flag without its value', ['check', file, '--format']],
    ['a missing file', ['check', join(dir, 'missing.json')]],
    ['a folder', ['check', folder]],
    ['a link', ['check', 'v=1&src=invoice']],
  ])('%s: leaves the read to the command', (_what, argv) => {
    expect(prefetchInput(argv)).toBeNull();
  });

  it("reads into shared memory, which V8 does not count as the heap's external memory", async () => {
    const bytes = await prefetchInput(['check', file])?.bytes;
    expect(bytes?.buffer).toBeInstanceOf(SharedArrayBuffer);
  });

  it('leaves a file over the limit to the command, which refuses it unread', () => {
    expect(prefetchInput(['check', file], BODY.length - 1)).toBeNull();
    expect(prefetchInput(['check', file], Buffer.byteLength(BODY))).not.toBeNull();
  });
});
