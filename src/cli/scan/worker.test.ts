/**
 * The scan worker's reading (worker.ts): `readFloor`, what the bench's read floor runs
 * (`scan_read_floor_vs_json_parse_fleet`), reads a file as `scanFile` does — plain or `.gz`,
 * inflated as it streams — and parses every line, nothing else; `scanFile` still reads both.
 */
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { afterAll, describe, expect, it } from 'vitest';
import { readFloor, scanFile } from './worker.ts';
import { decodeBytes } from '../../model/parse/bytes.ts';
import { generate } from '../../../scripts/gen.ts';

const tmp = mkdtempSync(path.join(tmpdir(), 'scan-worker-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

const text = generate({ messages: 40, format: 'claude-code-jsonl', seed: 7 });
const lines = text.split('\n').filter((l) => l.length > 0);
const source = (name: string, body: string | Uint8Array) => {
  const file = path.join(tmp, name);
  writeFileSync(file, body);
  return { file, path: name, size: statSync(file).size, version: '1' };
};

describe('readFloor', () => {
  it('parses every line of a plain file and of its .gz, counting the bytes stored', async () => {
    const plain = source('s.jsonl', text);
    const gz = source('s.jsonl.gz', gzipSync(text));
    for (const src of [plain, gz]) {
      const r = await readFloor({ source: src });
      expect(r).toEqual({ bytesRead: src.size, lines: lines.length, broken: 0 });
    }
  });

  it('counts a line that does not parse as broken, and goes on', async () => {
    const src = source('b.jsonl', `${lines[0]}\n{"no\n${lines[1]}\n`);
    expect(await readFloor({ source: src })).toMatchObject({ lines: 3, broken: 1 });
  });

  it('reads what scanFile reads: the same file gives rows, a truncated .gz an error row', async () => {
    const task = { policies: [], budgets: [], exact: false };
    const ok = await scanFile({ ...task, source: source('c.jsonl.gz', gzipSync(text)) });
    expect(ok.rows.length).toBeGreaterThan(1);
    expect(ok.rows.every((r) => r.error === null)).toBe(true);
    const gz = gzipSync(text);
    const cut = await scanFile({ ...task, source: source('d.jsonl.gz', gz.subarray(0, 200)) });
    expect(cut.rows[0]?.error).toMatch(/truncated.*line \d+/);
  });

  it('words a truncated .gz as `check` and the page do: one message, with the line its text stops at', async () => {
    const task = { policies: [], budgets: [], exact: false };
    const gz = gzipSync(text);
    const half = Math.floor(gz.length / 2);
    for (const at of [10, 12, 200, half, gz.length - 9]) {
      const cut = gz.subarray(0, at);
      const checked = decodeBytes(cut);
      if (checked.ok) throw new Error(`cut at ${at} read`);
      const scanned = await scanFile({ ...task, source: source(`e${at}.jsonl.gz`, cut) });
      // Before: "This .gz does not decompress to its end (unexpected end of file): it looks
      // truncated; …" beside check's "This looks like a .gz file, but it does not decompress …".
      expect(scanned.rows[0]?.error, `cut at ${at}`).toBe(checked.error.message);
      if (at === 10) expect(checked.error.message).toContain('no text comes out of it');
      if (at === half) {
        const line = /its text stops at line (\d+)\./.exec(checked.error.message)?.[1];
        expect(Number(line)).toBeGreaterThan(1);
      }
    }
  });
});
