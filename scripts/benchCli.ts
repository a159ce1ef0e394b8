/**
 * The CLI as a user runs it (issue 20): `node dist-cli/cli.js check FILE` on a generated 100 MB
 * Anthropic body, a whole process from start to exit, ÷ a whole `node -e` process that does
 * `JSON.parse(fs.readFileSync(FILE, 'utf8'))` of the same file (target ≤ 1.5). Median of 5 runs,
 * each a baseline then a check back to back, so both see the same load on a shared machine.
 *
 * Wall time is the figure the issue names; on Linux the note adds the CPU time of both (user +
 * system, read from /proc after each child is reaped), which a busy machine disturbs far less.
 * `npm run bench -- --only cli` runs this section alone.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { line } from './benchLine.ts';

/** The ratio the whole-process check must stay under (issue 20). */
const TARGET = 1.5;
const RUNS = 5;

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

/** CPU seconds of this process's reaped children (Linux), or NaN where /proc is missing. */
function childrenCpu(): number {
  if (!existsSync('/proc/self/stat')) return NaN;
  const stat = readFileSync('/proc/self/stat', 'utf8');
  // Fields after the command name (which may hold spaces) start at field 3; cutime, cstime are 16, 17.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(fields[13]) + Number(fields[14])) / 100; // USER_HZ
}

/** Wall and CPU seconds of one whole process; throws when it exits outside `codes`. */
function timed(args: string[], root: string, codes: number[]): { wall: number; cpu: number } {
  const cpu0 = childrenCpu();
  const t0 = performance.now();
  const r = spawnSync(process.execPath, args, { cwd: root, stdio: ['ignore', 'ignore', 'pipe'] });
  const wall = (performance.now() - t0) / 1000;
  if (r.status === null || !codes.includes(r.status))
    throw new Error(`${args.join(' ')}: exit ${r.status}: ${String(r.stderr).slice(0, 500)}`);
  return { wall, cpu: childrenCpu() - cpu0 };
}

/**
 * Print `cli_check_vs_node_json_parse_100mb` (and the two times it divides).
 * @param root the repository; @param file the 100 MB Anthropic body
 */
export function benchCli(root: string, file: string): void {
  execFileSync(process.execPath, [path.join(root, 'scripts', 'buildCli.js')], { cwd: root });
  const cli = path.join(root, 'dist-cli', 'cli.js');
  const parse = `JSON.parse(require('fs').readFileSync(${JSON.stringify(file)}, 'utf8'))`;
  const base: { wall: number; cpu: number }[] = [];
  const check: { wall: number; cpu: number }[] = [];
  for (let i = 0; i < RUNS; i++) {
    base.push(timed(['-e', parse], root, [0]));
    // The generated body plants broken pairs: exit 1 (invalid) is the expected verdict.
    check.push(timed([cli, 'check', file], root, [0, 1]));
  }
  const [bw, cw] = [median(base.map((r) => r.wall)), median(check.map((r) => r.wall))];
  const [bc, cc] = [median(base.map((r) => r.cpu)), median(check.map((r) => r.cpu))];
  const cpu = Number.isNaN(bc)
    ? ''
    : `; CPU ${cc.toFixed(2)} s ÷ ${bc.toFixed(2)} s = ${(cc / bc).toFixed(2)}`;
  line(
    'cli_check_vs_node_json_parse_100mb',
    cw / bw,
    '×',
    `whole processes, wall: node dist-cli/cli.js check ${cw.toFixed(2)} s ÷ node -e JSON.parse(readFileSync) ${bw.toFixed(2)} s${cpu}; median of ${RUNS}; target ≤ ${TARGET}`,
  );
}
