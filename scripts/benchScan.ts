/**
 * The fleet scan (issue 40): `node dist-cli/cli.js scan DIR` over about 200 MB of generated
 * Claude Code session logs (200 files of 1 MB) with the default policies and budgets, a whole
 * process with its worker pool, ÷ one `node` process that reads every file and `JSON.parse`s
 * every line (target ≤ 1.5): `scan_vs_json_parse_fleet`. `scan_requests_per_s`: requests scanned
 * per second of the scan's wall time. Median of 3 runs, each a baseline then a scan back to back
 * (a fresh output each time, so nothing is resumed). `npm run bench -- --only scan`.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import os from 'node:os';
import { line } from './benchLine.ts';
import { generate } from './gen.ts';

const TARGET = 1.5;
const RUNS = 3;
const FILES = 200;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

/** The fleet under bench-data/scan-fleet (made once, reused). */
function fleet(dataDir: string): string {
  const dir = path.join(dataDir, 'scan-fleet');
  if (existsSync(dir) && readdirSync(dir).length === FILES) return dir;
  mkdirSync(dir, { recursive: true });
  for (let i = 0; i < FILES; i++)
    writeFileSync(
      path.join(dir, `session-${String(i).padStart(3, '0')}.jsonl`),
      generate({ messages: 1, mb: 1, format: 'claude-code-jsonl', seed: 1000 + i }),
    );
  return dir;
}

/** Wall seconds of one whole process. @throws when it fails */
function timed(args: string[], root: string): { wall: number; out: string } {
  const t0 = performance.now();
  const r = spawnSync(process.execPath, args, { cwd: root, encoding: 'utf8', maxBuffer: 1 << 26 });
  const wall = (performance.now() - t0) / 1000;
  if (r.status !== 0)
    throw new Error(`${args.join(' ')}: exit ${r.status}: ${r.stderr.slice(0, 500)}`);
  return { wall, out: r.stdout };
}

/** Print `scan_vs_json_parse_fleet` and `scan_requests_per_s`. */
export function benchScan(root: string, dataDir: string): void {
  execFileSync(process.execPath, [path.join(root, 'scripts', 'buildCli.js')], { cwd: root });
  const dir = fleet(dataDir);
  const out = path.join(dataDir, 'scan-fleet.parquet');
  const parse = `const fs = require('fs'), p = require('path'); const d = ${JSON.stringify(dir)};
for (const f of fs.readdirSync(d)) for (const l of fs.readFileSync(p.join(d, f), 'utf8').split('\\n')) if (l) JSON.parse(l);`;
  const base: number[] = [];
  const scan: number[] = [];
  const timings: Record<string, number>[] = [];
  const load0 = os.loadavg();
  let requests = 0;
  let mb = 0;
  for (let i = 0; i < RUNS; i++) {
    base.push(timed(['-e', parse], root).wall);
    rmSync(out, { force: true });
    const r = timed(
      [path.join(root, 'dist-cli', 'cli.js'), 'scan', dir, '--out', out, '--json'],
      root,
    );
    scan.push(r.wall);
    const j = JSON.parse(r.out) as {
      requests: number;
      scan: { bytesRead: number; timing: Record<string, number> };
    };
    timings.push(j.scan.timing);
    requests = j.requests;
    mb = j.scan.bytesRead / 1e6;
  }
  rmSync(out, { force: true });
  const [b, s] = [median(base), median(scan)];
  // Where the median scan's time went (ms; the workers' stages summed over the files), and the
  // machine's load averages (1, 5, 15 min) before and after.
  const timing = timings[scan.indexOf(s)] ?? {};
  const load1 = os.loadavg();
  const loads = (l: number[]) => l.map((x) => x.toFixed(1)).join(' ');
  line(
    'scan_vs_json_parse_fleet',
    s / b,
    '×',
    `scan ${s.toFixed(2)} s (pool of ${os.availableParallelism()}) ÷ JSON.parse of every line ${b.toFixed(2)} s, ${FILES} files, ${mb.toFixed(0)} MB; target ≤ ${TARGET}`,
  );
  line(
    'scan_requests_per_s',
    requests / s,
    'requests/s',
    `${requests} requests in ${s.toFixed(2)} s`,
  );
  console.log(
    `  scan stages (ms): ${Object.entries(timing)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')}; load ${loads(load0)} → ${loads(load1)}`,
  );
}
