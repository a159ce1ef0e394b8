/**
 * Benchmarks (issue 7): `npm run bench` prints one line per figure, `name: value unit`.
 *
 * - pipeline_vs_json_parse_*: parse + pair + group + validate ÷ JSON.parse of the same bytes
 *   (for JSONL: JSON.parse of every line), for a generated 50 MB Anthropic body and a 50 MB
 *   Claude Code log (target ≤ 2.0). Median of 9 runs, each a JSON.parse then a pipeline back to
 *   back (so both see the same load on a shared machine), in a child process that collects the
 *   heap before each timed section.
 * - slider_step_ms_100k: one slider step on 100,000 messages — the `message` and `exchange`
 *   policies at one budget, each with the full validation of what it keeps (target ≤ 16 ms);
 *   median and worst of 200 random budgets. sweep_ms_100k: every cut of every policy (target
 *   ≤ 250 ms); sweep_first_five_policies_ms_100k the same for the five policies before issue 39
 *   alone, in the same run (its baseline on a loaded machine). Each also as a ratio to a plain
 *   pass over the same messages (touch every block).
 * - peak_heap_vs_file: peak V8 heap while loading the 50 MB Anthropic body ÷ its size (target
 *   ≤ 4), measured in a fresh process, sampled after each stage and at every allocation-heavy
 *   step; peak_rss_vs_file likewise from the process's max RSS.
 * - check_vs_stringify_* / checked_fetch_vs_stringify_*: the library in the request path, per
 *   request at 10, 100 and 1,000 messages of each API the checked fetch knows ÷ JSON.stringify of
 *   the same body, in CPU time (target ≤ 1; scripts/benchCheck.ts, in a fresh process; `--only
 *   check` runs just these).
 * - checked_fetch_passthrough_overhead: a 300 MB stream and a 50 MB Blob POSTed to a URL that
 *   is no provider endpoint, through the checked fetch ÷ through the bare fetch, time to the upload
 *   done and peak RSS (target ≤ 1.05; scripts/benchFetch.ts, fresh processes; `--only fetch`).
 * - cli_check_vs_node_json_parse_100mb: `node dist-cli/cli.js check` of a 100 MB Anthropic body ÷
 *   `node -e` JSON.parse of it, both whole processes (target ≤ 1.5; scripts/benchCli.ts, `--only
 *   cli`).
 *
 * - diff_vs_check_100k: `diff` of a 100,000-message request and its message-level cut ÷ one
 *   `check` of it, both from text (target ≤ 3; scripts/benchDiff.ts, `--only diff`).
 * - scan_vs_json_parse_fleet, scan_requests_per_s: `scan` of about 200 MB of session logs ÷
 *   JSON.parse of every line of them (target ≤ 1.5; scripts/benchScan.ts, `--only scan`); in
 *   the same runs its floors, scan_read_floor_vs_json_parse_fleet (the pool reading, decoding and
 *   parsing every line, nothing else) and scan_write_floor_vs_json_parse_fleet (the scan's rows,
 *   in memory, through the store into Parquet, nothing else).
 *
 * - load_500mb_heap_vs_file: the browser tab's peak heap ÷ the file's size while a generated
 *   500 MB Claude Code log loads until fully analysed (target ≤ 2.5; scripts/benchLoad500.ts, last
 *   of the browser figures; `--only load500` runs it alone).
 *
 * Generated data goes to bench-data/ (gitignored) and is reused across runs.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { cutMarkers } from '../src/model/evict/cuts.ts';
import {
  type EvictionContext,
  POLICIES,
  prepareEviction,
  simulatePolicy,
} from '../src/model/evict/policies.ts';
import { sweepContext } from '../src/model/evict/sweep.ts';
import { analyze } from '../src/model/analyze.ts';
import { parseTranscript } from '../src/model/parse/index.ts';
import { parserFor } from '../src/model/parse/registry.ts';
import { countTokens, type TokenTable } from '../src/model/tokens.ts';
import type { Transcript } from '../src/model/types.ts';
import { generate, type GenFormat } from './gen.ts';
import { line } from './benchLine.ts';
import { benchCheck } from './benchCheck.ts';
import { benchCli } from './benchCli.ts';
import { benchDiff } from './benchDiff.ts';
import { benchScan } from './benchScan.ts';
import { benchFetch } from './benchFetch.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = path.join(root, 'bench-data');

function median(xs: number[]): number {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] as number;
}

function time<T>(f: () => T): [number, T] {
  const t0 = performance.now();
  const v = f();
  return [performance.now() - t0, v];
}

/** Generate once into bench-data/ and reuse. */
function dataFile(
  name: string,
  format: GenFormat,
  opts: { messages: number; mb?: number; broken?: number },
): string {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, name);
  if (!existsSync(file)) writeFileSync(file, generate({ format, seed: 7, ...opts }));
  return file;
}

function pipeline(text: string, name: string): Transcript {
  const r = parseTranscript(text, { name });
  if (!r.ok) throw new Error(`${name}: ${r.error.message}`);
  analyze(r.value.transcript);
  return r.value.transcript;
}

/**
 * The baseline: JSON.parse of the same bytes, keeping what it parsed. For one JSON document the
 * result is necessarily held until the parse ends; for JSON Lines the lines' values are kept in
 * an array too, as any loader must — a baseline that dropped each line's value at once would
 * never promote it out of V8's young generation and would measure less work than a load.
 */
function jsonParseSameBytes(text: string, jsonl: boolean): unknown {
  if (!jsonl) return JSON.parse(text);
  const values: unknown[] = [];
  let start = 0;
  while (start < text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    if (end > start) values.push(JSON.parse(text.slice(start, end)));
    start = end + 1;
  }
  return values;
}

/**
 * Runs in a child process started with --expose-gc: the heap is collected before each timed
 * section, so neither the baseline nor the pipeline pays for the garbage of the run before it
 * (a 50 MB transcript's worth, an artifact of timing back to back in one process; a real load
 * starts in a fresh worker).
 */
function pipelineChild(label: string, file: string, jsonl: boolean): void {
  const gc = (globalThis as { gc?: () => void }).gc ?? (() => {});
  const text = readFileSync(file, 'utf8');
  const name = path.basename(file);
  const jp: number[] = [];
  const pp: number[] = [];
  let t: Transcript | null = null;
  for (let i = 0; i < 9; i++) {
    gc();
    jp.push(time(() => jsonParseSameBytes(text, jsonl))[0]);
    gc();
    const [ms, tr] = time(() => pipeline(text, name));
    pp.push(ms);
    t = tr;
  }
  const mb = statSync(file).size / 1e6;
  line(`json_parse_ms_${label}`, median(jp), 'ms', `${mb.toFixed(1)} MB`);
  line(`pipeline_ms_${label}`, median(pp), 'ms', `${t?.messages.length ?? 0} messages`);
  line(`pipeline_vs_json_parse_${label}`, median(pp) / median(jp), '×', 'target ≤ 2.0');
}

function plainPass(t: Transcript): number {
  let s = 0;
  for (const m of t.messages) for (const b of m.blocks) s += b.type.length;
  return s;
}

/**
 * Slider steps on the 100k transcript: 200 random budgets, message + exchange policies with full
 * validation, then 50 that also list the kept indices. Returns how many steps produced a 400.
 */
function benchSliderSteps(ctx: EvictionContext, total: number, plain: number): number {
  let seed = 12345;
  const rand = () => (seed = (seed * 1103515245 + 12345) >>> 0) / 2 ** 32;
  const steps: number[] = [];
  let invalidSteps = 0;
  for (let i = 0; i < 200; i++) {
    const budget = Math.round(total * (0.05 + 0.9 * rand()));
    const [ms, bad] = time(() => {
      let bad = 0;
      for (const p of ['message', 'exchange'] as const) {
        const r = simulatePolicy(ctx, p, budget);
        if (!r.validation.valid) bad++;
      }
      return bad;
    });
    steps.push(ms);
    invalidSteps += bad;
  }
  const withLists: number[] = [];
  for (let i = 0; i < 50; i++) {
    const budget = Math.round(total * (0.05 + 0.9 * rand()));
    withLists.push(
      time(() =>
        ['message', 'exchange'].forEach(
          (p) => simulatePolicy(ctx, p as 'message', budget).kept.length,
        ),
      )[0],
    );
  }
  line(
    'slider_step_with_index_lists_ms_100k',
    median(withLists),
    'ms',
    'the same, also listing kept/evicted indices (lazy; the timeline can grey rows from the cut instead)',
  );
  const step = median(steps);
  line(
    'slider_step_ms_100k',
    step,
    'ms',
    `median of 200 budgets, message + exchange with full validation; worst ${Math.max(...steps).toFixed(1)} ms; target ≤ 16`,
  );
  line('slider_step_vs_plain_pass_100k', step / plain, '×');
  return invalidSteps;
}

/** The sweep of every policy over every cut, each on a fresh context (as after a load). */
function benchSweep(t: Transcript, table: TokenTable, plain: number): void {
  const sweeps: number[] = [];
  const before: number[] = [];
  // The five policies before issue 39 (the providers' and libraries' ones came then): the sweep
  // as it was, measured in the same run so that a loaded machine shows in both figures.
  const cutPolicies = POLICIES.filter((p) =>
    ['message', 'message-keep-task', 'exchange', 'turn-pair', 'summary'].includes(p),
  );
  let shares = '';
  for (let i = 0; i < 3; i++) {
    // A fresh context each time: the first sweep after loading is the one a user waits for.
    const fresh = prepareEviction(t, table, 'anthropic');
    const [ms, s] = time(() => sweepContext(fresh, POLICIES));
    sweeps.push(ms);
    shares = s.policies.map((p) => `${p.policy} ${(p.share400 * 100).toFixed(1)}%`).join(', ');
    const again = prepareEviction(t, table, 'anthropic');
    before.push(time(() => sweepContext(again, cutPolicies))[0]);
  }
  line(
    'sweep_first_five_policies_ms_100k',
    median(before),
    'ms',
    `the ${cutPolicies.length} policies before issue 39 alone (${cutPolicies.join(', ')}), every cut: the baseline of sweep_ms_100k`,
  );
  const sw = median(sweeps);
  line(
    'sweep_ms_100k',
    sw,
    'ms',
    `all ${POLICIES.length} policies, every cut; 400 share: ${shares}; target ≤ 250`,
  );
  line('sweep_vs_plain_pass_100k', sw / plain, '×');
}

/**
 * Eviction on a generated 100k-message Anthropic transcript: prepare, plans, slider steps, the
 * sweep and cut markers, each against a plain pass over every block.
 */
function benchEviction(): void {
  // No planted broken pairs here: the 400s measured are the ones the cuts make.
  const file = dataFile('anthropic-100k-clean.json', 'anthropic-messages', {
    messages: 100_000,
    broken: 0,
  });
  const parsed = parseTranscript(readFileSync(file, 'utf8'));
  if (!parsed.ok) throw new Error(parsed.error.message);
  const t = parsed.value.transcript;
  const table = countTokens(t, 'anthropic');
  const plain = median(Array.from({ length: 9 }, () => time(() => plainPass(t))[0]));
  line(
    'plain_pass_ms_100k',
    plain,
    'ms',
    `${t.messages.length} messages, every block touched once`,
  );
  const [prep, ctx] = time(() => prepareEviction(t, table, 'anthropic'));
  line(
    'eviction_prepare_ms_100k',
    prep,
    'ms',
    'once per transcript/provider/tokenizer: full validation + tables',
  );
  // The page builds each shown policy's plan once (memoised in the context), not per step.
  const [plansMs] = time(() => {
    simulatePolicy(ctx, 'message', table.total);
    simulatePolicy(ctx, 'exchange', table.total);
  });
  line('eviction_plans_ms_100k', plansMs, 'ms', 'cut plans of message + exchange, built once');
  const invalidSteps = benchSliderSteps(ctx, table.total, plain);
  benchSweep(t, table, plain);
  const freshCuts = prepareEviction(t, table, 'anthropic').cuts;
  const [cm] = time(() => cutMarkers(freshCuts));
  line('cut_markers_ms_100k', cm, 'ms', 'every cut point, safe or not, on a fresh context');
  if (invalidSteps === 0)
    process.stdout.write('# note: no slider step produced a 400 in this sample\n');
}

/** Child mode: load a file and report peak heap / RSS relative to its size, as JSON. */
function peakChild(file: string): void {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const base = process.memoryUsage().heapUsed;
  let peak = 0;
  const sample = () => (peak = Math.max(peak, process.memoryUsage().heapUsed - base));
  const text = readFileSync(file, 'utf8');
  sample();
  const r = parseTranscript(text, { name: path.basename(file) });
  sample();
  if (!r.ok) throw new Error(r.error.message);
  const a = analyze(r.value.transcript);
  sample();
  countTokens(a.transcript, a.provider);
  sample();
  const size = statSync(file).size;
  process.stdout.write(
    JSON.stringify({ heap: peak / size, rss: (process.resourceUsage().maxRSS * 1024) / size }),
  );
}

function benchPipeline(label: string, file: string, jsonl: boolean): void {
  const script = fileURLToPath(import.meta.url);
  const out = execFileSync(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', script, '--pipeline-child', label, file, String(jsonl)],
    { cwd: root, encoding: 'utf8', maxBuffer: 1 << 20 },
  );
  process.stdout.write(out);
}

/** The request-path figures in a fresh process: not next to the eviction section's heap. */
function benchCheckChild(): void {
  const script = fileURLToPath(import.meta.url);
  execFileSync(process.execPath, ['--import', 'tsx', script, '--check-child'], {
    cwd: root,
    stdio: 'inherit',
  });
}

function benchPeak(file: string): void {
  const script = fileURLToPath(import.meta.url);
  const out = execFileSync(
    process.execPath,
    ['--expose-gc', '--import', 'tsx', script, '--peak-child', file],
    { cwd: root, encoding: 'utf8', maxBuffer: 1 << 20 },
  );
  const { heap, rss } = JSON.parse(out) as { heap: number; rss: number };
  line(
    'peak_heap_vs_file',
    heap,
    '×',
    `${path.basename(file)}: V8 heap sampled after read, parse, analyse and token count; target ≤ 4`,
  );
  line('peak_rss_vs_file', rss, '×', 'max RSS of the whole process (node itself included)');
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  const pipeAt = args.indexOf('--pipeline-child');
  if (pipeAt >= 0) {
    const [label, file, jsonl] = args.slice(pipeAt + 1, pipeAt + 4) as [string, string, string];
    pipelineChild(label, file, jsonl === 'true');
    return;
  }
  if (args.includes('--check-child')) {
    await benchCheck();
    return;
  }
  const peakAt = args.indexOf('--peak-child');
  if (peakAt >= 0) {
    peakChild(args[peakAt + 1] as string);
    return;
  }
  const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
  if (only === 'eviction') {
    benchEviction();
    return;
  }
  if (only === 'check') {
    await benchCheck();
    return;
  }
  if (only === 'diff') {
    benchDiff();
    return;
  }
  const anth100 = () =>
    dataFile('anthropic-100mb.json', 'anthropic-messages', { messages: 1, mb: 100 });
  if (only === 'cli') {
    benchCli(root, anth100());
    return;
  }
  if (only === 'scan') {
    benchScan(root, dataDir);
    return;
  }
  if (only === 'fetch') {
    benchFetch(root);
    return;
  }
  if (only === 'load500') {
    execFileSync(
      process.execPath,
      ['--import', 'tsx', path.join(root, 'scripts/benchBrowser.ts'), '--only', 'load500'],
      { cwd: root, stdio: 'inherit' },
    );
    return;
  }
  const cpu = (os.cpus()[0]?.model ?? 'unknown').trim();
  process.stdout.write(
    `# machine: ${os.availableParallelism()} cores (nproc), ${cpu}, node ${process.version}\n`,
  );
  const anth = dataFile('anthropic-50mb.json', 'anthropic-messages', { messages: 1, mb: 50 });
  benchPipeline('anthropic_50mb', anth, false);
  if (parserFor('claude-code-jsonl'))
    benchPipeline(
      'claude_code_50mb',
      dataFile('claude-code-50mb.jsonl', 'claude-code-jsonl', { messages: 1, mb: 50 }),
      true,
    );
  else
    process.stdout.write(
      '# skipped pipeline_vs_json_parse_claude_code_50mb: no claude-code-jsonl parser registered\n',
    );
  benchEviction();
  benchDiff();
  benchCheckChild();
  benchFetch(root);
  benchCli(root, anth100());
  benchScan(root, dataDir);
  benchPeak(anth);
  // --- Browser figures (issue 7, scripts/benchBrowser.ts): Chromium via Playwright. ---
  if (only !== 'node' && !args.includes('--no-browser')) {
    process.stdout.write('# browser figures (scripts/benchBrowser.ts)\n');
    execFileSync(
      process.execPath,
      ['--import', 'tsx', path.join(root, 'scripts/benchBrowser.ts')],
      { cwd: root, stdio: 'inherit' },
    );
  }
}

await main();
