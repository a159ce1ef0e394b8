/**
 * Two builds' eviction step and first sweep on the same loaded log, alternated in one process
 * (issue 38): what the worker does after its answer for the simulator (`sendEviction`: the
 * eviction parts, the cut markers and their post, then the sweep of every policy), with the
 * model code of this checkout ("new") and of another checkout ("base", e.g. a detached worktree
 * of the commit before), each its own module graph. The log is loaded once by a third checkout
 * (`--load DIR`, any commit: another detached worktree), so that neither build's code is warmed
 * by the load (the load runs its own checkout's eviction step). Times are the main
 * thread's CPU time (Linux /proc/thread-self/schedstat; the collector's helper threads left
 * out), steadier than wall time on a shared machine; round 1 is each build's first (cold) run,
 * as in a browser load.
 *
 * `npx tsx scripts/benchEvictionAB.ts --base DIR --load DIR [--rounds R] [--first base|new] [FILE]`
 * (FILE: default the 115 MB Claude Code log in bench-data/).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { fileLoadRequest, threadCpuMs } from './benchWorkerLoad.ts';
import type * as Prepare from '../src/model/evict/prepare.ts';
import type * as Cuts from '../src/model/evict/cuts.ts';
import type * as Sweep from '../src/model/evict/sweep.ts';
import type * as Registry from '../src/model/evict/registry.ts';
import type * as Parts from '../src/engine/evictionParts.ts';
import type * as Run from '../src/engine/run.ts';
import type * as RunState from '../src/engine/runState.ts';
import type { Analysis } from '../src/model/analyze.ts';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const args = process.argv.slice(2);
const opt = (name: string): string | undefined => {
  const at = args.indexOf(name);
  return at >= 0 ? args[at + 1] : undefined;
};
const base = opt('--base');
if (!base) throw new Error('--base DIR: the checkout to compare with');
const load = opt('--load');
if (!load) throw new Error('--load DIR: a third checkout that loads the log (warms neither build)');
const rounds = Number(opt('--rounds') ?? 5);
const first = opt('--first') === 'new' ? 'new' : 'base';
const file =
  args.find((a, i) => !a.startsWith('--') && !(args[i - 1] ?? '').startsWith('--')) ??
  path.join(root, 'bench-data', 'browser-claude-code-100k.jsonl');

interface Build {
  prep: typeof Prepare;
  cuts: typeof Cuts;
  sweep: typeof Sweep;
  reg: typeof Registry;
  parts: typeof Parts;
}

const from = async <T>(dir: string, rel: string): Promise<T> =>
  (await import(pathToFileURL(path.join(dir, rel)).href)) as T;

async function build(dir: string): Promise<Build> {
  return {
    prep: await from(dir, 'src/model/evict/prepare.ts'),
    cuts: await from(dir, 'src/model/evict/cuts.ts'),
    sweep: await from(dir, 'src/model/evict/sweep.ts'),
    reg: await from(dir, 'src/model/evict/registry.ts'),
    parts: await from(dir, 'src/engine/evictionParts.ts'),
  };
}

const cpu = threadCpuMs;

const median = (xs: number[]) => [...xs].sort((x, y) => x - y)[Math.floor(xs.length / 2)] ?? NaN;

async function main(): Promise<void> {
  const builds: Record<'base' | 'new', Build> = {
    base: await build(base as string),
    new: await build(root),
  };
  const { resetRun, runRequest } = await from<typeof Run>(load as string, 'src/engine/run.ts');
  const { run } = await from<typeof RunState>(load as string, 'src/engine/runState.ts');
  resetRun();
  const bytes = readFileSync(file);
  await runRequest(fileLoadRequest(file, bytes, 1), () => {});
  const held = run.held;
  // The analysis the worker answered with (InspectStages keeps it; private to TypeScript).
  const analysis = (run.stages as unknown as { lastAnalysis: { analysis: Analysis } | null })
    .lastAnalysis?.analysis;
  const table = held ? [...held.tables.values()][0]?.table : undefined;
  if (!held || !analysis || !table) throw new Error('the load held no eviction parts');
  run.held = null;
  const t = analysis.transcript;
  const order: ('base' | 'new')[] = first === 'base' ? ['base', 'new'] : ['new', 'base'];
  const times = {
    base: {
      eviction: [] as number[],
      sweep: [] as number[],
      policies: new Map<string, number[]>(),
    },
    new: { eviction: [] as number[], sweep: [] as number[], policies: new Map<string, number[]>() },
  };
  for (let r = 0; r < rounds; r++)
    for (const name of order) {
      const b = builds[name];
      const c0 = cpu();
      const parts = b.prep.prepareEvictionParts(
        t,
        analysis.provider,
        {},
        {
          validation: analysis.validation,
          grouping: analysis.grouping,
        },
      );
      if (parts.cuts.fast) b.cuts.cutMarkers(parts.cuts);
      // The post's structured clone (the worker copies the parts: it keeps them).
      structuredClone(b.parts.packEvictionParts(parts, true).packed);
      const c1 = cpu();
      const ctx = b.prep.assembleEviction(parts, t, table);
      const sweeps = b.reg.POLICIES.map((p) => {
        const p0 = cpu();
        const s = b.sweep.sweepPolicy(ctx, p, {});
        const list = times[name].policies.get(p) ?? [];
        list.push(cpu() - p0);
        times[name].policies.set(p, list);
        return s;
      });
      structuredClone(sweeps);
      const c2 = cpu();
      times[name].eviction.push(c1 - c0);
      times[name].sweep.push(c2 - c1);
    }
  const f = (xs: number[]) => xs.map((x) => x.toFixed(0)).join('/');
  for (const name of order) {
    const s = times[name];
    const both = s.eviction.map((e, i) => e + (s.sweep[i] ?? 0));
    process.stdout.write(
      `${name}: eviction ${f(s.eviction)} (median ${median(s.eviction).toFixed(1)}), sweep ${f(s.sweep)} (median ${median(s.sweep).toFixed(1)}), both median ${median(both).toFixed(1)} ms CPU\n  ` +
        [...s.policies]
          .map(([p, xs]) => `${p} ${(xs[0] ?? NaN).toFixed(0)}|${median(xs).toFixed(1)}`)
          .join(', ') +
        '  (first|median)\n',
    );
  }
}

await main();
