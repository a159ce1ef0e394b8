/**
 * `scan` over a generated fleet (issue 40): thousands of small files — the samples, generated
 * sessions of three formats (some gzipped, some with a pairing broken, some compacted), an
 * archive of three requests, four unreadable files — scanned by the built CLI with its worker
 * pool. Every row agrees with `check` (and, with exact tokens, with `simulate`) on that file and
 * request; the shards' union is the whole; a resumed scan reads nothing; Ctrl-C leaves a valid
 * Parquet; the report by SQL equals the page's `reportOf` and is the same over the shards.
 */
import { execFileSync, spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { DuckDBConnection } from '@duckdb/node-api';
import { runCli } from './commands.ts';
import { readInput } from './read.ts';
import { makeFleet, type Fleet } from '../../scripts/genFleet.ts';
import { connect, sqlString } from './scan/store.ts';
import { POLICIES } from '../model/evict/registry.ts';
import { reportOf, type ScanRecord } from '../model/scan/report.ts';
import { expectRowsAgreeWithCheck, plainNumbers } from './testing/scan.ts';

const root = path.resolve(import.meta.dirname, '../..');
const bundle = path.join(root, 'dist-cli', 'cli.js');
let tmp: string;
let fleet: Fleet;
let con: DuckDBConnection;

/** The built CLI as a process. */
function run(args: string[]): { code: number; out: string; err: string } {
  const r = spawnSync(process.execPath, [bundle, 'scan', ...args], {
    cwd: root,
    encoding: 'utf8',
    env: { ...process.env, CI: '1' },
  });
  return { code: r.status ?? -1, out: r.stdout, err: r.stderr };
}

/** `scan --json`'s answer. */
function scanJson(args: string[]) {
  const r = run([...args, '--json']);
  expect(r.err).not.toMatch(/^error/m);
  expect(r.code).toBe(0);
  return JSON.parse(r.out) as Record<string, unknown> & {
    files: number;
    scan: { filesRead: number; skipped: number };
  };
}

/** A Parquet's rows, in file and request order. */
async function rowsOf(files: string | string[]): Promise<ScanRecord[]> {
  const list = (Array.isArray(files) ? files : [files]).map(sqlString).join(', ');
  const r = await con.runAndReadAll(
    `SELECT * FROM read_parquet([${list}]) ORDER BY file, request NULLS FIRST`,
  );
  return r.getRowObjectsJS().map(plainNumbers) as ScanRecord[];
}

/** The CLI in-process on real files. */
async function inProcess(args: string[]) {
  let out = '';
  let err = '';
  const code = await runCli(args, {
    read: (f) => readInput(f),
    out: (s) => (out += s),
    err: (s) => (err += s),
  });
  return { code, out, err };
}

const all = () => path.join(tmp, 'all.parquet');

beforeAll(async () => {
  execFileSync(process.execPath, [path.join(root, 'scripts', 'buildCli.js')], { cwd: root });
  tmp = mkdtempSync(path.join(tmpdir(), 'scan-'));
  fleet = makeFleet(path.join(tmp, 'fleet'), 2000);
  con = await connect();
  scanJson([fleet.dir, '--out', all()]);
}, 600_000);

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

// Whole processes over thousands of files on a shared machine: minutes under load, not a measure.
describe('scan connection', () => {
  it('spills rows past the memory limit into the directory it is given (beside the output)', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'scan-spill-'));
    try {
      const c = await connect(path.join(dir, 'out.parquet.spill'));
      const r = await c.runAndReadAll("SELECT current_setting('temp_directory')");
      expect(r.getRows()[0]?.[0]).toBe(path.join(dir, 'out.parquet.spill'));
      const d = await connect();
      const def = await d.runAndReadAll("SELECT current_setting('temp_directory')");
      expect(def.getRows()[0]?.[0]).toBe('.tmp');
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('scan over a generated fleet', { timeout: 600_000 }, () => {
  it('has a row per request and an error row per unreadable file', async () => {
    const rows = await rowsOf(all());
    expect(new Set(rows.map((r) => r.file)).size).toBe(fleet.files);
    const bad = rows.filter((r) => r.error !== null);
    expect(bad.map((r) => r.path).sort()).toEqual([
      'bad/binary.json',
      'bad/broken.json',
      'bad/cut.jsonl.gz',
      'bad/empty.json',
    ]);
    // The truncated .gz says the line its text stops at; the bad JSON its line.
    expect(bad.find((r) => r.path === 'bad/cut.jsonl.gz')?.error_line).toBeGreaterThan(1);
    expect(bad.find((r) => r.path === 'bad/cut.jsonl.gz')?.error).toMatch(/truncated.*line \d+/);
    expect(bad.find((r) => r.path === 'bad/broken.json')?.error_line).toBe(1);
    const archive = rows.filter((r) => r.path === 'archive.json');
    expect(archive.map((r) => r.request)).toEqual([0, 1, 2]);
    expect(rows.some((r) => (r.compactions ?? 0) > 0)).toBe(true);
    expect(rows.some((r) => r.valid === false)).toBe(true);
    // Default: every policy at 10 %…90 % of the request's own tokens.
    const one = rows.find((r) => r.error === null) as ScanRecord;
    expect(one.cuts.length).toBe(POLICIES.length * 9);
    expect(one.cuts[0]?.budget).toBe(Math.floor(Number(one.tokens) * 0.1));
  });

  it('agrees with check on every file and request', async () => {
    const rows = await rowsOf(all());
    const byFile = new Map<string, ScanRecord[]>();
    for (const r of rows) byFile.set(r.file, [...(byFile.get(r.file) ?? []), r]);
    let compared = 0;
    for (const [file, of] of byFile)
      compared += await expectRowsAgreeWithCheck(file, of, inProcess);
    expect(compared).toBeGreaterThan(2000);
    // A session log is one row per model call, not one per file.
    expect(rows.length).toBeGreaterThan(byFile.size + 2);
  });

  it('agrees with simulate on each policy × budget (exact tokens, as simulate counts)', async () => {
    const out = path.join(tmp, 'exact.parquet');
    scanJson([
      `${fleet.dir}/team-1/day-1/*`,
      fleet.dir + '/archive.json',
      '--out',
      out,
      '--tokens',
      'exact',
      '--budgets',
      '20%,55%,90%',
    ]);
    const rows = (await rowsOf(out)).filter((r) => r.error === null).slice(0, 8);
    expect(rows.length).toBe(8);
    for (const r of rows)
      for (const c of r.cuts) {
        const s = await inProcess([
          'simulate',
          r.file,
          '--policy',
          c.policy,
          '--budget',
          String(c.budget),
          '--json',
          '--request',
          String(Number(r.request) + 1),
        ]);
        const j = JSON.parse(s.out) as {
          valid: boolean;
          overshoot: number | null;
          tokensBefore: number;
        };
        expect(j.tokensBefore).toBe(Number(r.tokens));
        expect(
          { gives400: c.gives400, overshoot: c.overshoot },
          `${r.file} ${c.policy} ${c.budget}`,
        ).toEqual({
          gives400: !j.valid,
          overshoot: j.overshoot,
        });
      }
  });

  it('reports by SQL what the page computes from the rows', async () => {
    const r = scanJson([path.join(tmp, 'all.parquet')]);
    const js = reportOf(await rowsOf(all()));
    expect(r).toEqual(JSON.parse(JSON.stringify(js)));
    expect(r.files).toBe(fleet.files);
  });

  it('in words, names each unreadable file with its error (newcomer: "unreadable 1", but which?)', async () => {
    const r = run([all()]);
    expect(r.code).toBe(0);
    const lines = r.out.split('\n').filter((l) => l.startsWith('  unreadable: '));
    // The four, by name (file is the name the fleet gave: the path under the folder scanned).
    expect(lines).toHaveLength(4);
    for (const name of ['binary.json', 'broken.json', 'cut.jsonl.gz', 'empty.json'])
      expect(lines.some((l) => l.includes(name))).toBe(true);
    expect(lines.find((l) => l.includes('cut.jsonl.gz'))).toMatch(/truncated.*line \d+/);
    // What is wrong with each file, not what to pass instead (newcomer: a scan's binary file said
    // "Pass a .json … - to read stdin, or the page's link", `check`'s advice).
    expect(lines.find((l) => l.includes('binary.json'))).toMatch(/not a text file/);
    for (const l of lines) expect(l).not.toMatch(/Pass a|Drop a|stdin/);
    // The JSON answer is the report as specified (no list of files in it).
    expect(scanJson([all()])).not.toHaveProperty('unreadableFiles');
  });

  it('a folder with nothing to scan, or a path that names nothing, is bad input: exit 2 and why (newcomer: an empty folder exited 0)', async () => {
    const empty = path.join(tmp, 'empty');
    mkdirSync(path.join(empty, 'sub'), { recursive: true });
    writeFileSync(path.join(empty, 'sub', 'notes.md'), '# not a log');
    const out = path.join(tmp, 'none.parquet');
    const r = await inProcess(['scan', empty, '--out', out]);
    expect(r.code).toBe(2);
    expect(r.err).toContain(`no file to scan in ${empty} (looked for .jsonl, .ndjson, .json,`);
    expect(existsSync(out)).toBe(false);
    const missing = await inProcess(['scan', path.join(tmp, 'nothere'), '--out', out]);
    expect(missing.code).toBe(2);
    expect(missing.err).toContain(`no such file or folder: ${path.join(tmp, 'nothere')}`);
    expect(missing.err).not.toContain('ENOENT');
  });

  it('says which files of a folder it did not scan, and where --json put the rows (newcomer: junk.bin skipped without a word, scan.parquet written unsaid)', async () => {
    const dir = path.join(tmp, 'mixed');
    mkdirSync(dir, { recursive: true });
    writeFileSync(path.join(dir, 'junk.bin'), 'not a log');
    writeFileSync(
      path.join(dir, 'a.jsonl'),
      readFileSync(path.join(fleet.dir, 'samples', 'claude-code-session.jsonl'), 'utf8'),
    );
    const out = path.join(tmp, 'mixed.parquet');
    const r = await inProcess(['scan', dir, '--out', out, '--json']);
    expect(r.code).toBe(0);
    expect(r.err).toContain(`note: 1 file not scanned, not named as a transcript (`);
    expect(r.err).toContain(path.join(dir, 'junk.bin'));
    expect(r.err).toContain(`scan: scanned 1 file (`);
    expect(r.err).toContain(`→ ${out}`);
    expect(JSON.parse(r.out).scan.filesRead).toBe(1);
  });

  it('in words, names the files whose lines it skipped (newcomer: a corrupted line dropped without a word)', async () => {
    const dir = path.join(tmp, 'badline');
    mkdirSync(dir, { recursive: true });
    const log = readFileSync(path.join(fleet.dir, 'samples', 'claude-code-session.jsonl'), 'utf8');
    const lines = log.split('\n');
    lines.splice(2, 0, '{"type": "user", "message": {');
    writeFileSync(path.join(dir, 'bad.jsonl'), lines.join('\n'));
    writeFileSync(path.join(dir, 'good.jsonl'), log);
    const out = path.join(tmp, 'badline.parquet');
    const r = await inProcess(['scan', dir, '--out', out]);
    expect(r.code).toBe(0);
    expect(r.out).toContain(
      "skipped lines: 1 file with lines that are not valid JSON, skipped as the page skips them (the rows' broken_lines)\n" +
        `  ${path.join(dir, 'bad.jsonl')}: line 3\n`,
    );
    // Over the Parquet alone, the same words; none for a scan with no such line.
    expect(run([out]).out).toContain(`  ${path.join(dir, 'bad.jsonl')}: line 3\n`);
    expect(run([all()]).out).not.toContain('skipped lines');
  });

  it('splits into shards whose union is the whole scan, and reports over them alike', async () => {
    const shards = [0, 1, 2].map((i) => path.join(tmp, `shard-${i}.parquet`));
    const counts = shards.map(
      (out, i) => scanJson([fleet.dir, '--out', out, '--shard', `${i}/3`]).scan.filesRead,
    );
    expect(counts.every((n) => n > 0)).toBe(true);
    expect(counts.reduce((a, b) => a + b, 0)).toBe(fleet.files);
    expect(await rowsOf(shards)).toEqual(await rowsOf(all()));
    // The report as one SQL over every shard's Parquet.
    expect(scanJson(shards)).toEqual(scanJson([all()]));
  });

  it('resumes: files already in --out (same path, size and mtime) are not read again', async () => {
    const out = path.join(tmp, 'resume.parquet');
    const first = scanJson([`${fleet.dir}/team-2`, '--out', out]);
    expect(first.scan.filesRead).toBeGreaterThan(100);
    const before = await rowsOf(out);
    const again = scanJson([`${fleet.dir}/team-2`, '--out', out]);
    expect(again.scan).toMatchObject({ filesRead: 0, skipped: first.scan.filesRead });
    expect(await rowsOf(out)).toEqual(before);
    // A changed file is read again, and only it.
    const changed = before.find((r) => r.path.endsWith('.json')) as ScanRecord;
    writeFileSync(changed.file, '{"messages": []}');
    const third = scanJson([`${fleet.dir}/team-2`, '--out', out]);
    expect(third.scan.filesRead).toBe(1);
    const after = await rowsOf(out);
    expect(after.find((r) => r.file === changed.file)?.messages).toBe(0);
    expect(after.length).toBe(before.length);
  });

  it('Ctrl-C leaves a valid Parquet of what finished, and a scan again finishes the rest', async () => {
    const out = path.join(tmp, 'stopped.parquet');
    const child = spawn(
      process.execPath,
      [bundle, 'scan', fleet.dir, '--out', out, '--jobs', '1', '--json'],
      {
        cwd: root,
        env: { ...process.env, CI: '1' },
      },
    );
    let err = '';
    let stdout = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    const code = await new Promise<number | null>((resolve) => {
      child.stderr.on('data', (d: Buffer) => {
        err += d.toString();
        // The first progress line: a file has finished.
        if (/scan: \d+\//.test(err) && !child.killed) child.kill('SIGINT');
      });
      child.on('exit', (c) => resolve(c));
    });
    expect(code).toBe(130);
    expect(err).toMatch(/interrupted: \d+ of \d+ files scanned/);
    expect(existsSync(out)).toBe(true);
    const done = JSON.parse(stdout) as { scan: { filesRead: number; interrupted: boolean } };
    expect(done.scan.interrupted).toBe(true);
    const rows = await rowsOf(out);
    const files = new Set(rows.map((r) => r.file)).size;
    expect(files).toBe(done.scan.filesRead);
    expect(files).toBeLessThan(fleet.files);
    const rest = scanJson([fleet.dir, '--out', out]);
    expect(rest.scan.filesRead).toBe(fleet.files - files);
    expect(rest.files).toBe(fleet.files);
  });
});
