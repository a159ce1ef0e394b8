/**
 * Corpus suite: `scan` over the real logs of ../shared/real (every writer's folder) and mutations
 * of them that break a pairing (a tool result's line dropped from each JSON Lines log): every
 * row agrees with `check` on that file and request (a session log: one row per model call, as
 * `check --requests` lists them). Test input only: the files are copied to a
 * temporary folder, never into the repository.
 */
import { copyFileSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { REAL_DIR, realFiles } from '../testing/corpus.ts';
import { runCli } from './commands.ts';
import { readInput } from './read.ts';
import { connect, sqlString } from './scan/store.ts';
import { expectRowsAgreeWithCheck, type ScanRowRead } from './testing/scan.ts';
import { dropResultLine } from '../../scripts/genFleet.ts';

const tmp = mkdtempSync(path.join(tmpdir(), 'scan-corpus-'));
afterAll(() => rmSync(tmp, { recursive: true, force: true }));

async function inProcess(args: string[]) {
  let out = '';
  const code = await runCli(args, {
    read: (f) => readInput(f),
    out: (s) => (out += s),
    err: () => {},
  });
  return { code, out };
}

describe('scan over the real logs and their mutations', () => {
  const files = realFiles();
  it('there are real logs', () => expect(files.length).toBeGreaterThan(0));

  it('agrees with check on every file and request', { timeout: 600_000 }, async () => {
    const dir = path.join(tmp, 'real');
    for (const f of files) {
      mkdirSync(path.dirname(path.join(dir, f)), { recursive: true });
      copyFileSync(path.join(REAL_DIR, f), path.join(dir, f));
      if (/\.jsonl$/.test(f)) {
        const text = readFileSync(path.join(REAL_DIR, f), 'utf8');
        const broken = dropResultLine(text, 1);
        if (broken !== text) writeFileSync(path.join(dir, `${f}.mutated.jsonl`), broken);
      }
    }
    const out = path.join(tmp, 'real.parquet');
    const r = await inProcess(['scan', dir, '--out', out, '--json']);
    expect(r.code).toBe(0);
    const con = await connect();
    const rows = (
      await con.runAndReadAll(
        `SELECT * FROM read_parquet(${sqlString(out)}) ORDER BY file, request`,
      )
    ).getRowObjectsJS();
    expect(rows.length).toBeGreaterThan(files.length / 2);
    const byFile = new Map<string, typeof rows>();
    for (const row of rows)
      byFile.set(String(row.file), [...(byFile.get(String(row.file)) ?? []), row]);
    let compared = 0;
    for (const [file, of] of byFile)
      compared += await expectRowsAgreeWithCheck(file, of as unknown as ScanRowRead[], inProcess);
    // The session logs give one row per model call.
    expect(rows.length).toBeGreaterThan(byFile.size);
    expect(compared).toBeGreaterThan(0);
  });
});
