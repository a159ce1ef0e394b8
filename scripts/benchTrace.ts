/**
 * Chromium traces and CPU profiles for the browser benches (scripts/benchBrowser.ts,
 * scripts/benchKeys.ts): the page thread's long tasks with the functions inside them, its
 * tasks' thread time, and `Phases`, which traces (and with a directory profiles) one phase of a
 * run at a time.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { CDPSession, Page } from '@playwright/test';

/** A Chromium CPU profile (CDP `Profiler`) as written to a .cpuprofile file. */
export interface CpuProfile {
  nodes: {
    id: number;
    callFrame: { functionName: string; url: string; lineNumber: number };
    children?: number[];
  }[];
  /** Microseconds, on the trace clock. */
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** The trace events `longTasks` reads. */
export interface TraceEvent {
  name: string;
  ph: string;
  pid: number;
  tid: number;
  ts: number;
  dur?: number;
  /** Thread time (µs): the time the thread ran, not waited. */
  tdur?: number;
  args?: { name?: string };
}

/** One task of the page's thread longer than 50 ms, with the functions that fill it. */
export interface LongTask {
  /** Start (ms since the profile started) and length (ms). */
  at: number;
  ms: number;
  /** Inclusive sampled time per function (ms), longest first. */
  inclusive: [string, number][];
  /** Self sampled time per function (ms), longest first. */
  self: [string, number][];
}

/**
 * The page thread's tasks over 50 ms (trace `RunTask` events on `CrRendererMain`) and, from the
 * CPU profile recorded at the same time (same clock, µs), the functions sampled inside each.
 */
export function longTasks(events: TraceEvent[], prof: CpuProfile, top = 12): LongTask[] {
  const mains = new Set(
    events
      .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  const tasks = events
    .filter(
      (e) =>
        e.ph === 'X' &&
        (e.name === 'ThreadControllerImpl::RunTask' || e.name === 'RunTask') &&
        (e.dur ?? 0) > 50_000 &&
        mains.has(`${e.pid}:${e.tid}`),
    )
    .sort((a, b) => a.ts - b.ts);
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const label = (id: number) => {
    const f = byId.get(id)?.callFrame;
    if (!f) return '?';
    const file = f.url.split('/').pop() ?? '';
    return `${f.functionName || '(anonymous)'} ${file}:${f.lineNumber + 1}`;
  };
  const times: number[] = [];
  let t = prof.startTime;
  for (const d of prof.timeDeltas) times.push((t += d));
  const out: LongTask[] = [];
  let i = 0;
  for (const task of tasks) {
    const end = task.ts + (task.dur ?? 0);
    const inc = new Map<string, number>();
    const self = new Map<string, number>();
    while (i < times.length && (times[i] as number) < task.ts) i++;
    for (let k = i; k < times.length && (times[k] as number) < end; k++) {
      const dt = ((times[k + 1] ?? end) - (times[k] as number)) / 1000;
      const leaf = prof.samples[k] as number;
      self.set(label(leaf), (self.get(label(leaf)) ?? 0) + dt);
      const seen = new Set<string>();
      for (let n: number | undefined = leaf; n !== undefined; n = parent.get(n)) {
        const l = label(n);
        if (l.startsWith('(root)') || seen.has(l)) continue;
        seen.add(l);
        inc.set(l, (inc.get(l) ?? 0) + dt);
      }
    }
    const sorted = (m: Map<string, number>) =>
      [...m.entries()].sort((a, b) => b[1] - a[1]).slice(0, top);
    out.push({
      at: (task.ts - prof.startTime) / 1000,
      ms: (task.dur ?? 0) / 1000,
      inclusive: sorted(inc),
      self: sorted(self),
    });
  }
  return out;
}

/**
 * The longest thread time (ms) of a task on the page's thread (`RunTask` on `CrRendererMain`,
 * its `tdur`), among the tasks that began after tracing started (and after `notBefore`, µs on
 * the trace clock: with `--profile`, the profile's start, so the task in which the page starts its
 * CPU profiler, 0.2–0.5 s, is not counted as the app's). Thread time does not count the
 * time the thread waited for a core, so it is steadier than frame lengths on a busy machine.
 */
export function maxTaskCpu(events: TraceEvent[], notBefore = -Infinity): number {
  return taskCpu(events, notBefore).max;
}

/** `maxTaskCpu`, and the thread time of all those tasks together (ms). */
export function taskCpu(
  events: TraceEvent[],
  notBefore = -Infinity,
): { max: number; total: number } {
  const mains = new Set(
    events
      .filter((e) => e.ph === 'M' && e.name === 'thread_name' && e.args?.name === 'CrRendererMain')
      .map((e) => `${e.pid}:${e.tid}`),
  );
  let start = Infinity;
  for (const e of events)
    if (e.ph !== 'X' && e.ph !== 'M' && e.ts > 0) start = Math.min(start, e.ts);
  start = Math.max(start, notBefore);
  let max = 0;
  let total = 0;
  for (const e of events)
    if (
      e.ph === 'X' &&
      (e.name === 'ThreadControllerImpl::RunTask' || e.name === 'RunTask') &&
      e.ts >= start &&
      mains.has(`${e.pid}:${e.tid}`)
    ) {
      const ms = (e.tdur ?? e.dur ?? 0) / 1000;
      max = Math.max(max, ms);
      total += ms;
    }
  return { max, total };
}

/**
 * Profiles each phase of `large` into `dir` when set (a CPU profile and a trace of the page's
 * tasks); prints the long tasks at the end.
 */
export class Phases {
  private cdp: CDPSession | null = null;
  private report: string[] = [];
  private readonly dir: string | null;
  constructor(dir: string | null) {
    this.dir = dir;
  }
  /** Worst page-thread task of the last phase run: thread CPU time (ms), -1 when not traced. */
  lastMaxTaskCpu = -1;
  /** Thread time of all the page-thread tasks of the last phase run (ms), -1 when not traced. */
  lastTotalTaskCpu = -1;
  async run<T>(page: Page, name: string, fn: () => Promise<T>): Promise<T> {
    this.lastMaxTaskCpu = -1;
    this.lastTotalTaskCpu = -1;
    const browser = page.context().browser();
    if (!browser) return fn();
    // Always traced (the tasks' thread time); profiled only with a directory.
    await browser.startTracing(page, { categories: ['toplevel', '__metadata'] });
    if (this.dir) {
      this.cdp ??= await page.context().newCDPSession(page);
      await this.cdp.send('Profiler.enable');
      await this.cdp.send('Profiler.setSamplingInterval', { interval: 500 });
      await this.cdp.send('Profiler.start');
    }
    const r = await fn();
    const profile = this.cdp
      ? ((await this.cdp.send('Profiler.stop')) as unknown as { profile: CpuProfile }).profile
      : null;
    const trace = JSON.parse((await browser.stopTracing()).toString('utf8')) as {
      traceEvents: TraceEvent[];
    };
    const cpu = taskCpu(trace.traceEvents, profile?.startTime);
    this.lastMaxTaskCpu = cpu.max;
    this.lastTotalTaskCpu = cpu.total;
    if (!this.dir || !profile) return r;
    mkdirSync(this.dir, { recursive: true });
    writeFileSync(path.join(this.dir, `${name}.cpuprofile`), JSON.stringify(profile));
    writeFileSync(path.join(this.dir, `${name}.trace.json`), JSON.stringify(trace));
    for (const task of longTasks(trace.traceEvents, profile)) {
      this.report.push(`## ${name}: task of ${task.ms.toFixed(0)} ms at ${task.at.toFixed(0)} ms`);
      for (const [f, ms] of task.self)
        this.report.push(`  self ${ms.toFixed(0).padStart(5)} ms  ${f}`);
      for (const [f, ms] of task.inclusive)
        this.report.push(`   inc ${ms.toFixed(0).padStart(5)} ms  ${f}`);
    }
    return r;
  }
  print(): void {
    if (this.dir) process.stdout.write(`${this.report.join('\n')}\n`);
  }
}
