/**
 * A Node replay of the worker's load of a file (`runRequest` with a fake `post`, no exact BPE
 * count), timing the stages after the answer that the simulator waits for: `eviction` (the
 * eviction parts, cut markers and their post) and `sweep` (the first sweep of every policy).
 * Each `load:` mark (runState.ts `stage`) records wall time and the main thread's CPU time
 * (steadier than wall time on a shared machine; the collector's helper threads left out).
 *
 * `npx tsx scripts/benchEvictionReplay.ts [--rounds R] [--stages] [FILE]` (default the 115 MB
 * Claude Code log in bench-data/): R loads in one process (default 3), each line of output one
 * load; `--stages` adds a line per load with every stage's CPU time, from the request's start
 * (read, parse, messages, analyse, lists, answer, eviction, sweep, calls, release, …).
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { resetRun, runRequest } from '../src/engine/run.ts';
import type { WorkerResponse } from '../src/engine/protocol.ts';
import { fileLoadRequest, threadCpuMs } from './benchWorkerLoad.ts';

const root = path.dirname(path.dirname(fileURLToPath(import.meta.url)));
const args = process.argv.slice(2);
const roundsAt = args.indexOf('--rounds');
const rounds = roundsAt >= 0 ? Number(args[roundsAt + 1]) : 3;
const everyStage = args.includes('--stages');
const file =
  args.find((a, i) => !a.startsWith('--') && args[i - 1] !== '--rounds') ??
  path.join(root, 'bench-data', 'browser-claude-code-100k.jsonl');

const marks: { name: string; wall: number; cpu: number }[] = [];
const cpuMs = threadCpuMs;
const realMark = performance.mark.bind(performance);
performance.mark = ((name: string, opts?: PerformanceMarkOptions) => {
  marks.push({ name, wall: performance.now(), cpu: cpuMs() });
  return realMark(name, opts);
}) as typeof performance.mark;

const bytes = readFileSync(file);
for (let round = 0; round < rounds; round++) {
  resetRun();
  marks.length = 0;
  let sweepOk = false;
  const post = (m: WorkerResponse) => {
    if (m.kind === 'sweep') sweepOk = m.sweeps !== null;
  };
  await runRequest(fileLoadRequest(file, bytes, round + 1), post);
  const at = (name: string) => marks.find((m) => m.name === `load:${name}`);
  const answer = at('answer');
  const eviction = at('eviction');
  const sweep = at('sweep');
  if (!answer || !eviction || !sweep || !sweepOk) throw new Error('no eviction or sweep stage');
  const f = (x: number) => x.toFixed(1);
  process.stdout.write(
    `round ${round + 1}: eviction cpu ${f(eviction.cpu - answer.cpu)} wall ${f(eviction.wall - answer.wall)} ms; ` +
      `sweep cpu ${f(sweep.cpu - eviction.cpu)} wall ${f(sweep.wall - eviction.wall)} ms; ` +
      `both cpu ${f(sweep.cpu - answer.cpu)} wall ${f(sweep.wall - answer.wall)} ms\n`,
  );
  if (everyStage) {
    const start = at('start');
    const parts = marks
      .filter((m, i) => i > 0 && start && m.wall >= start.wall)
      .map((m, i, all) => {
        const prev = i === 0 ? (start as (typeof marks)[number]) : (all[i - 1] as typeof m);
        return `${m.name.replace('load:', '')} ${f(m.cpu - prev.cpu)}`;
      });
    process.stdout.write(`round ${round + 1} stages cpu ms: ${parts.join(' · ')}\n`);
  }
}
