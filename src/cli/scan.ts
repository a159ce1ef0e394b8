/**
 * `scan PATH...`: every request of many files into one Parquet (issue 40, docs/scan.md), then the
 * fleet's report by SQL over it. Files, folders (recursive), globs and `s3://bucket/prefix`; each
 * file read once, in a worker pool; resumable; `--shard I/N` for one of N machines. PATHs that are
 * all `.parquet` are not scanned: the report is made over them (e.g. every shard's output).
 */
import { isPolicyId, POLICIES } from '../model/evict/registry.ts';
import type { PolicyId } from '../model/evict/types.ts';
import { DEFAULT_BUDGETS, type ScanBudget, type ScanSource } from '../model/scan/rows.ts';
import { overshootNote, type ScanReport } from '../model/scan/report.ts';
import { clipArg, intFlag, parseArgs, UsageError } from './args.ts';
import { EXIT_UNREADABLE, EXIT_VALID, type CliIO } from './io.ts';
import { openPool, type ScanPool } from './scan/pool.ts';
import type { PackedResult, ScanTask } from './scan/worker.ts';
import { Progress } from './scan/progress.ts';
import { NO_WORDS, reportSql, wordsSql, type ReportWords } from './scan/report.ts';
import { plural } from './words.ts';
import { inShard, listTargets, SCAN_EXTENSIONS_WORDS, type Shard } from './scan/sources.ts';
import { cutKinds } from './scan/packed.ts';
import { connect, RowStore, scannedFiles } from './scan/store.ts';

/** Exit code of a scan stopped by Ctrl-C (128 + SIGINT). */
export const EXIT_INTERRUPTED = 130;

/** `--policies a,b` → policy ids (default: every policy). @throws UsageError for an unknown one */
export function policiesFlag(v: string | true | undefined): PolicyId[] {
  if (v === undefined) return [...POLICIES];
  if (v === true) throw new UsageError(`--policies needs a list (of ${POLICIES.join(', ')})`);
  return v.split(',').map((p) => {
    if (!isPolicyId(p))
      throw new UsageError(`unknown policy "${clipArg(p)}"; known: ${POLICIES.join(', ')}`);
    return p;
  });
}

/**
 * `--budgets 10%,50%` (of each request's tokens), `0.25` (a fraction) or `8000` (tokens).
 * @throws UsageError for anything else or a percentage outside (0, 100]
 */
export function budgetsFlag(v: string | true | undefined): ScanBudget[] {
  if (v === undefined) return [...DEFAULT_BUDGETS];
  if (v === true) throw new UsageError('--budgets needs a list such as 10%,50%,90% or 4000,8000');
  return v.split(',').map((b) => {
    const pct = /^(\d+(?:\.\d+)?)%$/.exec(b);
    if (pct) {
      const f = Number(pct[1]) / 100;
      if (f <= 0 || f > 1) throw new UsageError(`--budgets: ${clipArg(b)} is not in (0 %, 100 %]`);
      return { fraction: f };
    }
    if (/^0?\.\d+$/.test(b)) return { fraction: Number(b) };
    const n = intFlag('budgets', b, 1);
    return { tokens: n as number };
  });
}

/** `--shard I/N` (I from 0) → the shard. @throws UsageError unless 0 ≤ I < N */
export function shardFlag(v: string | true | undefined): Shard | null {
  if (v === undefined) return null;
  const m = typeof v === 'string' ? /^(\d+)\/(\d+)$/.exec(v) : null;
  const i = Number(m?.[1]);
  const n = Number(m?.[2]);
  if (!m || n < 1 || i >= n) throw new UsageError('--shard needs I/N with 0 ≤ I < N (e.g. 0/4)');
  return { i, n };
}

const pct = (x: number) => `${(x * 100).toFixed(1)} %`;

/**
 * The report in words. @param words the first unreadable files, each named with its error under
 * the totals, and the files whose lines were skipped (`wordsSql`)
 */
export function reportText(r: ScanReport, words: ReportWords = NO_WORDS): string {
  const { unreadable, skipped } = words;
  const lines = [`files ${r.files} · requests ${r.requests} · unreadable ${r.unreadable}`];
  for (const u of unreadable)
    lines.push(
      `  unreadable: ${u.file}${u.line !== null && !u.error.includes(`line ${u.line}`) ? ` (line ${u.line})` : ''}: ${u.error}`,
    );
  if (r.unreadable > unreadable.length)
    lines.push(`  … and ${r.unreadable - unreadable.length} more (the rows with an error)`);
  if (skipped.files > 0)
    lines.push(
      `skipped lines: ${plural(skipped.files, 'file')} with lines that are not valid JSON, skipped as the page skips them (the rows' broken_lines)`,
    );
  for (const f of skipped.first)
    lines.push(
      `  ${f.file}: ${f.lines.length === 1 ? 'line' : 'lines'} ${f.lines.slice(0, 20).join(', ')}${f.lines.length > 20 ? ', …' : ''}`,
    );
  if (skipped.files > skipped.first.length)
    lines.push(`  … and ${skipped.files - skipped.first.length} more`);
  lines.push(`invalid: ${r.invalid.count} requests get a 400 (${pct(r.invalid.share)})`);
  if (r.signatures.length > 0) {
    lines.push('signatures (first error: rule, catalogue code, requests, example files):');
    for (const s of r.signatures)
      lines.push(`  ${s.rule} ${s.mechanism}  ${s.count}  e.g. ${s.examples.join(', ')}`);
  }
  if (r.policies.length > 0) {
    lines.push('policies (share of cuts that give a 400; mean overshoot):');
    for (const p of r.policies)
      lines.push(
        `  ${p.policy}: ${pct(p.share400)}${p.meanOvershoot !== null ? `; ${p.meanOvershoot.toFixed(2)}×${overshootNote(p.meanOvershoot) ? ` (${overshootNote(p.meanOvershoot)})` : ''}` : ''}`,
      );
  }
  const { compactShare, breakShare, sessionShare } = r.rates;
  lines.push(
    `rates: sessions that compact ${pct(compactShare)} × cuts that break ${pct(breakShare)} = ${pct(sessionShare)} of sessions get a 400`,
  );
  return lines.join('\n') + '\n';
}

/**
 * Where a scan's time went, in milliseconds: summed over the files in the workers (reading and
 * decoding, making the rows, packing them), and on the main thread (appending them to DuckDB).
 */
interface Stages {
  readMs: number;
  rowsMs: number;
  packMs: number;
  appendMs: number;
}

/**
 * Scan the files in the pool, the rows into the store, until done or Ctrl-C (SIGINT): then the
 * files in flight are dropped (the pool is stopped) and what finished stays in the store.
 * @returns files and bytes read, and whether the scan was interrupted
 */
async function scanTargets(
  todo: readonly ScanSource[],
  pool: ScanPool,
  taskOf: (s: ScanSource) => ScanTask,
  store: RowStore,
  progress: Progress,
): Promise<{ filesRead: number; bytesRead: number; interrupted: boolean; stages: Stages }> {
  let interrupted = false;
  let onSigint = () => {};
  const stopped = new Promise<void>((resolve) => {
    onSigint = () => {
      interrupted = true;
      resolve();
    };
  });
  process.once('SIGINT', onSigint);
  let filesRead = 0;
  let bytesRead = 0;
  const stages: Stages = { readMs: 0, rowsMs: 0, packMs: 0, appendMs: 0 };
  // The files finished but not yet appended: a file's rows go to the store once every file
  // before it in `todo` has (its order is the Parquet's, so the store need not sort them).
  const held = new Map<number, PackedResult>();
  let appended = 0;
  const append = (r: PackedResult) => {
    const t0 = performance.now();
    store.add(r.packed);
    stages.appendMs += performance.now() - t0;
  };
  try {
    let next = 0;
    const lane = async () => {
      while (!interrupted && next < todo.length) {
        const k = next++;
        const t = todo[k] as ScanSource;
        let r;
        try {
          r = await pool.run(taskOf(t));
        } catch (e) {
          if (interrupted) return; // the pool was stopped under it
          throw e;
        }
        if (interrupted) return;
        held.set(k, r);
        for (let h = held.get(appended); h !== undefined; h = held.get(appended)) {
          held.delete(appended++);
          append(h);
        }
        stages.readMs += r.stages.readMs;
        stages.rowsMs += r.stages.rowsMs;
        stages.packMs += r.stages.packMs;
        filesRead++;
        bytesRead += r.bytesRead;
        progress.tick(t.size);
      }
    };
    const lanes = Promise.all(Array.from({ length: pool.width }, lane));
    lanes.catch(() => {}); // rethrown below when not interrupted
    await Promise.race([lanes, stopped]);
    if (!interrupted) await lanes;
    // Interrupted: the files that finished after one still in flight, in their order.
    for (const k of [...held.keys()].sort((a, b) => a - b)) append(held.get(k) as PackedResult);
  } finally {
    process.removeListener('SIGINT', onSigint);
    progress.end();
    await pool.close().catch(() => {});
  }
  return { filesRead, bytesRead, interrupted, stages };
}

/**
 * Where a scan's time went (ms): the process's start-up, then DuckDB, the listing and the resume
 * check (while the pool starts), the scan's wall time and its stages summed over the files, the
 * Parquet, the report; and the CPU time of the whole process (its threads included).
 * @param marks `performance.now()` at the start, the pool ready, the scan done, the Parquet written, the report made
 */
function timingOf(marks: readonly number[], stages: Stages): Record<string, number> {
  const [start, pool, scan, write, report] = marks as [number, number, number, number, number];
  const ms = (x: number) => Math.round(x);
  const cpu = process.cpuUsage();
  return {
    beforeScanMs: ms(start),
    dbListResumeMs: ms(pool - start),
    scanMs: ms(scan - pool),
    ...Object.fromEntries(Object.entries(stages).map(([k, v]) => [k, ms(v)])),
    writeMs: ms(write - scan),
    reportMs: ms(report - write),
    // CPU time of the whole process, every thread (the wall times above stretch with the load).
    cpuMs: ms((cpu.user + cpu.system) / 1000),
  };
}

/** Say which files of a folder were not scanned, not being named as transcripts are. */
function notePassed(io: CliIO, passed: readonly string[]): void {
  if (passed.length === 0) return;
  const some = `${passed.slice(0, 3).join(', ')}${passed.length > 3 ? ', …' : ''}`;
  io.err(
    `note: ${plural(passed.length, 'file')} not scanned, not named as a transcript (${SCAN_EXTENSIONS_WORDS}): ${some}; name one as an argument to scan it anyway\n`,
  );
}

/** The report on stdout: JSON with what this run read and its timing, or words. */
function printResult(
  io: CliIO,
  json: boolean,
  report: ScanReport,
  words: ReportWords,
  summary: { out: string; filesRead: number; bytesRead: number; skipped: number },
  timing: Record<string, number>,
): void {
  const { filesRead, bytesRead, skipped, out } = summary;
  const line = `scanned ${plural(filesRead, 'file')} (${(bytesRead / 1e6).toFixed(1)} MB)${skipped ? `, ${skipped} skipped (already in ${out})` : ''} → ${out}\n`;
  if (json) {
    io.out(JSON.stringify({ ...report, scan: { ...summary, timing } }, null, 2) + '\n');
    // Where the rows went, said where a script reading the JSON does not look (newcomer: the
    // default scan.parquet was written into the working folder without a word).
    io.err(`scan: ${line}`);
    return;
  }
  io.out(line);
  io.out(reportText(report, words));
}

/**
 * `scan`: scan, write the Parquet, print the report (`--json`: the report with `scan`, what this
 * run read). Ctrl-C stops the scan and writes what finished.
 * @returns 0, 2 on bad usage or no file, 130 when interrupted
 */
export async function runScan(argv: string[], io: CliIO): Promise<number> {
  const args = parseArgs(argv, ['out', 'policies', 'budgets', 'shard', 'tokens', 'jobs'], ['json']);
  const paths = args.positionals;
  if (paths.length === 0)
    throw new UsageError('scan needs a PATH (file, folder, glob or s3://bucket/prefix)');
  const json = args.flags.json === true;
  if (paths.every((p) => p.endsWith('.parquet'))) {
    io.doing = 'opening DuckDB';
    const con = await connect();
    io.doing = 'reporting over the Parquet files';
    const report = await reportSql(con, paths);
    io.out(json ? JSON.stringify(report, null, 2) + '\n' : reportText(report, await wordsSql(con)));
    return EXIT_VALID;
  }
  const policies = policiesFlag(args.flags.policies);
  const budgets = budgetsFlag(args.flags.budgets);
  const shard = shardFlag(args.flags.shard);
  const tokens = args.flags.tokens ?? 'estimate';
  if (tokens !== 'estimate' && tokens !== 'exact')
    throw new UsageError('--tokens is estimate or exact');
  const jobs = intFlag('jobs', args.flags.jobs);
  const out = typeof args.flags.out === 'string' ? args.flags.out : 'scan.parquet';
  // The pool's threads start (each loads the worker's bundle) while this thread loads DuckDB and
  // lists the files.
  const tStart = performance.now();
  const poolReady = openPool(jobs);
  let pool: ScanPool | null = null;
  try {
    io.doing = 'opening DuckDB';
    // Rows past DuckDB's memory limit spill beside the output, not into the working directory.
    const con = await connect(`${out}.spill`);
    io.doing = 'listing the files';
    let targets;
    const passed: string[] = [];
    try {
      targets = (await listTargets(paths, passed)).filter((t) => inShard(t, shard));
    } catch (e) {
      io.err(`error: ${(e as Error).message}\n`);
      return EXIT_UNREADABLE;
    }
    notePassed(io, passed);
    io.doing = `reading ${out}`;
    const done = await scannedFiles(con, out);
    // In the Parquet's order (by file, as DuckDB orders VARCHARs: by their UTF-8 bytes), so that
    // the rows reach the store in it.
    const todo = targets
      .filter((t) => done.get(t.file) !== `${t.size}|${t.version}`)
      .sort((a, b) => Buffer.compare(Buffer.from(a.file), Buffer.from(b.file)));
    const again = new Set(todo.map((t) => t.file));
    const keepOld = new Set([...done.keys()].filter((f) => !again.has(f)));
    const store = await RowStore.open(con, cutKinds(policies, budgets));
    const progress = new Progress(
      io,
      todo.length,
      todo.reduce((s, t) => s + t.size, 0),
    );
    io.doing = 'scanning';
    pool = await poolReady;
    const tPool = performance.now();
    const ran = await scanTargets(
      todo,
      pool,
      (source) => ({
        source,
        policies,
        budgets,
        exact: tokens === 'exact',
      }),
      store,
      progress,
    );
    const { filesRead, bytesRead, interrupted } = ran;
    const tScan = performance.now();
    io.doing = `writing ${out}`;
    await store.write(out, keepOld);
    const tWrite = performance.now();
    const summary = {
      out,
      filesRead,
      bytesRead,
      skipped: targets.length - todo.length,
      interrupted,
      ...(shard ? { shard: `${shard.i}/${shard.n}` } : {}),
    };
    if (interrupted)
      io.err(
        `interrupted: ${filesRead} of ${todo.length} files scanned; ${out} holds what finished (scan again to resume)\n`,
      );
    io.doing = `reporting over ${out}`;
    const report = await reportSql(con, [out]);
    const timing = timingOf([tStart, tPool, tScan, tWrite, performance.now()], ran.stages);
    printResult(io, json, report, json ? NO_WORDS : await wordsSql(con), summary, timing);
    return interrupted ? EXIT_INTERRUPTED : EXIT_VALID;
  } finally {
    // scanTargets stops the pool it ran; one that never ran (bad input, a failure) stops here.
    if (!pool) await poolReady.then((p) => p.close()).catch(() => {});
  }
}
