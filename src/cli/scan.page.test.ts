/**
 * The page's own scan of a dropped folder (issue 40) gives the report the CLI's scan gives: the
 * same files read by `scanFleetFiles` (the page's pool; here, without a Worker, on the calling
 * thread — the same `answerFleetScanJob` a worker runs) and reported by `reportOf`, and by the
 * built CLI (`scan --json`: workers, DuckDB, the SQL of docs/scan.md). A fixture fleet: the
 * samples, generated sessions of three formats (some gzipped, broken, compacted), an archive of
 * three requests and four unreadable files.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { makeFleet, type Fleet } from '../../scripts/genFleet.ts';
import { scanFleetFiles, type FleetFile, type FleetScanProgress } from '../engine/client.ts';
import { reportOf, type ScanReport } from '../model/scan/report.ts';
import { SCAN_EXTENSIONS } from '../model/scan/rows.ts';

const root = path.resolve(import.meta.dirname, '../..');
let tmp: string;
let fleet: Fleet;

/** Every file a folder scan picks, by its path under `dir`, as a dropped folder's Files. */
function dropped(dir: string, under = ''): FleetFile[] {
  const out: FleetFile[] = [];
  for (const e of readdirSync(path.join(dir, under), { withFileTypes: true })) {
    const rel = under ? `${under}/${e.name}` : e.name;
    if (e.isDirectory()) out.push(...dropped(dir, rel));
    else if (SCAN_EXTENSIONS.test(e.name)) {
      const p = path.join(dir, rel);
      out.push({
        path: rel,
        file: new File([readFileSync(p)], e.name, { lastModified: statSync(p).mtimeMs }),
      });
    }
  }
  return out;
}

beforeAll(() => {
  execFileSync(process.execPath, [path.join(root, 'scripts', 'buildCli.js')], { cwd: root });
  tmp = mkdtempSync(path.join(tmpdir(), 'scan-page-'));
  fleet = makeFleet(path.join(tmp, 'fleet'), 60);
}, 300_000);

afterAll(() => {
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

describe("the page's scan of a dropped folder", { timeout: 300_000 }, () => {
  it('reports the numbers the CLI reports by SQL over its Parquet', async () => {
    const r = spawnSync(
      process.execPath,
      [
        path.join(root, 'dist-cli', 'cli.js'),
        'scan',
        fleet.dir,
        '--out',
        path.join(tmp, 'fleet.parquet'),
        '--json',
      ],
      { cwd: root, encoding: 'utf8', env: { ...process.env, CI: '1' } },
    );
    expect(r.status, r.stderr).toBe(0);
    const { scan, ...cli } = JSON.parse(r.stdout) as ScanReport & { scan: { filesRead: number } };
    // The CLI names a file by its path as scanned; the page by its path under the folder.
    const prefix = `${fleet.dir}${path.sep}`;
    for (const s of cli.signatures)
      s.examples = s.examples.map((f) => (f.startsWith(prefix) ? f.slice(prefix.length) : f));

    const files = dropped(fleet.dir);
    // The page picks the files the CLI reads from the folder.
    expect(scan.filesRead).toBe(files.length);
    const seen: FleetScanProgress[] = [];
    const rows = await scanFleetFiles(files, (p) => seen.push(p));
    const page = JSON.parse(JSON.stringify(reportOf(rows))) as ScanReport;

    expect(page).toEqual(cli);
    expect(page.files).toBe(fleet.files);
    expect(page.unreadable).toBe(fleet.unreadable);
    expect(page.signatures.length).toBeGreaterThan(0);
    expect(page.rates.compactShare).toBeGreaterThan(0);
    // Progress: from none to every file and byte.
    expect(seen[0]).toMatchObject({ files: files.length, filesDone: 0, bytesDone: 0 });
    expect(seen.at(-1)).toMatchObject({ filesDone: files.length, bytesDone: seen[0]?.bytes });
  });

  it('stops handing out files when stopped, keeping the rows of the files done', async () => {
    const files = dropped(fleet.dir).slice(0, 12);
    const stop = new AbortController();
    const rows = await scanFleetFiles(
      files,
      (p) => {
        if (p.filesDone === 3) stop.abort();
      },
      stop.signal,
    );
    expect(new Set(rows.map((r) => r.file)).size).toBe(3);
  });
});
