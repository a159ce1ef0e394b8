/**
 * The fleet scan (issue 40): `node dist-cli/cli.js scan DIR` over about 200 MB of generated
 * Claude Code session logs (200 files of 1 MB) with the default policies and budgets, a whole
 * process with its worker pool, ÷ one `node` process that reads every file and `JSON.parse`s
 * every line (target ≤ 1.5): `scan_vs_json_parse_fleet`. `scan_requests_per_s`: requests scanned
 * per second of the scan's wall time. Median of 3 runs, each a baseline then a scan back to back
 * (a fresh output each time, so nothing is resumed). `npm run bench -- --only scan`.
 *
 * In the same runs, the floors that bound the figure, each ÷ the same `JSON.parse` (what is ours
 * and what is the engine's): `scan_read_floor_vs_json_parse_fleet`, a whole process whose pool
 * of the same threads reads, decodes and `JSON.parse`s every line of the fleet (the worker's
 * `readFloor`) and nothing else; `scan_write_floor_vs_json_parse_fleet`, the scan's own rows,
 * loaded in memory packed as the workers hand them over, appended and written to Parquet through
 * the scan's store and nothing else (scripts/benchScanWrite.ts; DuckDB's start included).
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

/**
 * A process that runs the worker's `readFloor` on every file of `dir` in a pool of the scan's
 * threads (piscina, as src/cli/scan/pool.ts opens it), as many files in flight as the scan keeps.
 */
function readFloorScript(root: string, dir: string): string {
  const worker = path.join(root, 'dist-cli', 'scanWorker.js');
  return `import { Piscina } from 'piscina';
import fs from 'node:fs'; import p from 'node:path'; import os from 'node:os';
const d = ${JSON.stringify(dir)};
const threads = os.availableParallelism();
const pool = new Piscina({ filename: ${JSON.stringify(worker)}, minThreads: threads, maxThreads: threads });
const files = fs.readdirSync(d).map((f) => p.join(d, f));
let next = 0, lines = 0;
const lane = async () => { while (next < files.length) { const file = files[next++]; const st = fs.statSync(file);
  const r = await pool.run({ source: { file, path: p.basename(file), size: st.size, version: String(st.mtimeMs) } }, { name: 'readFloor' });
  lines += r.lines; } };
await Promise.all(Array.from({ length: threads * 2 }, lane));
await pool.destroy();
process.stdout.write(String(lines));`;
}

/** Print `scan_vs_json_parse_fleet` and `scan_requests_per_s`, and the read and write floors. */
export function benchScan(root: string, dataDir: string): void {
  execFileSync(process.execPath, [path.join(root, 'scripts', 'buildCli.js')], { cwd: root });
  const dir = fleet(dataDir);
  const out = path.join(dataDir, 'scan-fleet.parquet');
  const parse = `const fs = require('fs'), p = require('path'); const d = ${JSON.stringify(dir)};
for (const f of fs.readdirSync(d)) for (const l of fs.readFileSync(p.join(d, f), 'utf8').split('\\n')) if (l) JSON.parse(l);`;
  const base: number[] = [];
  const scan: number[] = [];
  const readFloor: number[] = [];
  const writeFloor: number[] = [];
  const writeStages: Record<string, number>[] = [];
  const written = path.join(dataDir, 'scan-fleet-floor.parquet');
  const readScript = readFloorScript(root, dir);
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
    readFloor.push(timed(['--input-type=module', '-e', readScript], root).wall);
    // The write floor: this run's rows, in memory, through the store (its own timing, in ms).
    const w = timed(
      ['--import', 'tsx', path.join(root, 'scripts', 'benchScanWrite.ts'), out, written],
      root,
    );
    const ws = JSON.parse(w.out) as Record<string, number>;
    writeFloor.push((ws.ms as number) / 1000);
    writeStages.push(ws);
  }
  rmSync(out, { force: true });
  rmSync(written, { force: true });
  const [b, s] = [median(base), median(scan)];
  const loads = (l: number[]) => l.map((x) => x.toFixed(1)).join(' ');
  // Where the median scan's time went (ms; the workers' stages summed over the files), and the
  // machine's load averages (1, 5, 15 min) before and after.
  const timing = timings[scan.indexOf(s)] ?? {};
  const load1 = os.loadavg();
  line(
    'scan_vs_json_parse_fleet',
    s / b,
    '×',
    `scan ${s.toFixed(2)} s (pool of ${os.availableParallelism()}) ÷ JSON.parse of every line ${b.toFixed(2)} s, ${FILES} files, ${mb.toFixed(0)} MB; target ≤ ${TARGET}`,
  );
  const [rf, wf] = [median(readFloor), median(writeFloor)];
  const ws = writeStages[writeFloor.indexOf(wf)] ?? {};
  line(
    'scan_read_floor_vs_json_parse_fleet',
    rf / b,
    '×',
    `a process whose pool of ${os.availableParallelism()} reads, decodes and JSON.parses every line, nothing else: ${rf.toFixed(2)} s ÷ ${b.toFixed(2)} s; load ${loads(os.loadavg())}`,
  );
  line(
    'scan_write_floor_vs_json_parse_fleet',
    wf / b,
    '×',
    `the scan's ${ws.rows} rows (${ws.cuts} cuts) in memory → the store → Parquet, nothing else: ${wf.toFixed(2)} s (open ${ws.openMs}, append ${ws.appendMs}, write ${ws.writeMs} ms) ÷ ${b.toFixed(2)} s; load ${loads(os.loadavg())}`,
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
