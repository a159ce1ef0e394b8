/**
 * The figures of a full load of the 100,000-line generated Claude Code log (≈ 115 MB, 67,302
 * messages; issue 20), printed by scripts/benchBrowser.ts:
 *
 * - full_load_vs_json_parse_100mb: file picked (the input's `change` event, in the page) → the
 *   complete analysis shown (the app ready, no progress bar: the first frame that shows it), ÷
 *   the time a fresh page of the same browser takes to `JSON.parse` every line of the same text,
 *   keeping the values as a loader must (median of 3). Target ≤ 2.0.
 * - load_heap_vs_file_100mb: the most V8 heap the tab used while loading (page + worker, used
 *   heap plus ArrayBuffer backing stores, sampled every 100 ms over CDP) ÷ the file's size.
 *   Target ≤ 2.5. The note gives the peak in the second after (the exact token count runs then)
 *   and the heap once the load settled.
 * - nav_long_frame_share_100k: frames over 50 ms while moving through the loaded log with the
 *   keyboard: J×30, K×30, j×30, one press a frame (scripts/benchKeys.ts' method), all presses
 *   together. Target ≤ 0.01.
 *
 * With `--profile DIR` the worker's thread is CPU-profiled over the load too
 * (DIR/load-worker.cpuprofile), and the functions that fill it are printed. With the environment
 * variable BENCH_HEAP_SERIES=FILE, every heap sample of the load (page, workers) and the worker's
 * stage marks are written to FILE as JSON ({t0, marks, series}, epoch ms): where the peak falls.
 */
import { mkdirSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, CDPSession, Page } from '@playwright/test';
import { pressRun, RECORDER, type PressFigures } from './benchKeys.ts';
import { floors } from './benchFloor.ts';
import { BUSY_WATCH } from './benchPage.ts';
import { line } from './benchLine.ts';
import type { CpuProfile, Phases } from './benchTrace.ts';

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

/** The two baselines of a load, each round in ms. */
export interface Baselines {
  /** `JSON.parse` of every line of the text already in memory (the issue's denominator). */
  parse: number[];
  /**
   * The least a loader of the file does in a worker: stream it, decode it and `JSON.parse`
   * every line (kept), nothing else.
   */
  floor: number[];
  /** The same split by whole lines over `threads` workers at once (`benchFloor.ts`). */
  parallel: number[];
  threads: number;
}

/**
 * The baselines of `file` in a fresh blank page of `browser` (3 rounds each, the heap collected
 * before each when the page can): `JSON.parse` of every line of its text, and the floor.
 */
export async function pageBaselines(browser: Browser, file: string): Promise<Baselines> {
  const page = await browser.newPage();
  try {
    await page.setContent('<input type="file" id="f">');
    await page.locator('#f').setInputFiles(file);
    const parse = (await page.evaluate(async () => {
      const f = (document.getElementById('f') as HTMLInputElement).files?.[0];
      if (!f) return [];
      const text = await f.text();
      const times: number[] = [];
      for (let k = 0; k < 3; k++) {
        const values: unknown[] = [];
        const t = performance.now();
        let start = 0;
        while (start < text.length) {
          let end = text.indexOf('\n', start);
          if (end < 0) end = text.length;
          if (end > start) values.push(JSON.parse(text.slice(start, end)));
          start = end + 1;
        }
        times.push(performance.now() - t);
        // Read after the clock stops: the values live through the whole parse.
        if (values.length === 0) return [];
        await new Promise((r) => setTimeout(r, 300));
      }
      return times;
    })) as number[];
    const { single: floor, parallel, threads } = await floors(page);
    return { parse, floor, parallel, threads };
  } finally {
    await page.close();
  }
}

/**
 * The page's CDP session with its dedicated workers attached (the older, unflattened protocol:
 * Playwright's CDPSession routes no child sessions), to read their heaps and profile them. The
 * tab runs several workers (the inspect worker, and others the page starts: diff, share copy,
 * parse helpers); the load's stages and profile are the inspect worker's (`self.name`,
 * engine/client.ts `spawnWorker(…, 'inspect')`), its heap is every worker's.
 */
export class TabSession {
  private workers: string[] = [];
  private inspectSession: string | null = null;
  private nextId = 1;
  private readonly waiting = new Map<number, (v: unknown) => void>();
  readonly cdp: CDPSession;
  private constructor(cdp: CDPSession) {
    this.cdp = cdp;
  }
  static async open(page: Page): Promise<TabSession> {
    const s = new TabSession(await page.context().newCDPSession(page));
    s.cdp.on('Target.attachedToTarget', (e) => {
      if (e.targetInfo.type === 'worker') s.workers.push(e.sessionId);
    });
    s.cdp.on('Target.detachedFromTarget', (e) => {
      s.workers = s.workers.filter((w) => w !== e.sessionId);
      if (s.inspectSession === e.sessionId) s.inspectSession = null;
    });
    s.cdp.on('Target.receivedMessageFromTarget', (e) => {
      const m = JSON.parse(e.message) as { id?: number; result?: unknown };
      const w = m.id === undefined ? undefined : s.waiting.get(m.id);
      if (m.id !== undefined && w) {
        s.waiting.delete(m.id);
        w(m.result);
      }
    });
    await s.cdp.send('Target.setAutoAttach', {
      autoAttach: true,
      waitForDebuggerOnStart: false,
      flatten: false,
    });
    return s;
  }
  /** Send a CDP command to one worker; null when it ended or did not answer within 5 s. */
  async call<T>(session: string, method: string, params: object = {}): Promise<T | null> {
    const id = this.nextId++;
    const answer = new Promise<unknown>((r) => {
      this.waiting.set(id, r);
      setTimeout(() => {
        if (this.waiting.delete(id)) r(null);
      }, 5000);
    });
    try {
      await this.cdp.send('Target.sendMessageToTarget', {
        sessionId: session,
        message: JSON.stringify({ id, method, params }),
      });
    } catch {
      this.waiting.delete(id);
      return null;
    }
    return (await answer) as T | null;
  }
  /** The inspect worker's session (the worker named `inspect`), or null when there is none. */
  async inspectWorker(): Promise<string | null> {
    if (this.inspectSession && this.workers.includes(this.inspectSession))
      return this.inspectSession;
    for (const w of [...this.workers]) {
      const r = await this.call<{ result: { value?: string } }>(w, 'Runtime.evaluate', {
        expression: 'self.name',
        returnByValue: true,
      });
      if (r?.result.value === 'inspect') return (this.inspectSession = w);
    }
    return null;
  }
  /** Send a CDP command to the inspect worker; null when there is none. */
  async worker<T>(method: string, params: object = {}): Promise<T | null> {
    const session = await this.inspectWorker();
    return session ? this.call<T>(session, method, params) : null;
  }
  /**
   * Bytes of V8 heap in use now (used heap + backing stores): the page's, and every worker's of
   * the tab together (`workers`: how many answered).
   */
  async heap(): Promise<{ page: number; worker: number; workers: number }> {
    type Usage = { usedSize: number; backingStorageSize?: number };
    const size = (u: Usage | null) => (u ? u.usedSize + (u.backingStorageSize ?? 0) : 0);
    const page = (await this.cdp.send('Runtime.getHeapUsage')) as Usage;
    const each = await Promise.all(
      [...this.workers].map((w) => this.call<Usage>(w, 'Runtime.getHeapUsage')),
    );
    return {
      page: size(page),
      worker: each.reduce((s, u) => s + size(u), 0),
      workers: each.filter((u) => u !== null).length,
    };
  }
}

/** Peaks of the tab's heap (bytes): of page + workers together, and of each side alone. */
export interface HeapPeaks {
  total: number;
  page: number;
  /** All the tab's workers together. */
  worker: number;
  /** Most workers alive at one sample. */
  workers: number;
}

/** One heap sample: [epoch ms, page bytes, all workers' bytes, how many workers answered]. */
export type HeapSample = [number, number, number, number];

/**
 * Samples `TabSession.heap` every `ms` until stopped, each sample also pushed to `series` when
 * given; @returns the peaks.
 */
export function sampleHeap(
  tab: TabSession,
  ms = 100,
  series: HeapSample[] | null = null,
): () => Promise<HeapPeaks> {
  const peak: HeapPeaks = { total: 0, page: 0, worker: 0, workers: 0 };
  let on = true;
  const loop = (async () => {
    while (on) {
      try {
        const h = await tab.heap();
        series?.push([Date.now(), h.page, h.worker, h.workers]);
        peak.total = Math.max(peak.total, h.page + h.worker);
        peak.page = Math.max(peak.page, h.page);
        peak.worker = Math.max(peak.worker, h.worker);
        peak.workers = Math.max(peak.workers, h.workers);
      } catch {
        // a worker restarting between the two calls: the next sample counts
      }
      await new Promise((r) => setTimeout(r, ms));
    }
  })();
  return async () => {
    on = false;
    await loop;
    return peak;
  };
}

/**
 * In-page: the `change` of the file input → the first frame showing the complete analysis
 * (`t1`), then → the first frame showing the simulator's two policy cards and its sweep
 * (`t2`: the eviction parts and the first sweep follow the answer, issue 38).
 */
const LOAD_WATCH = `
window.__load = { t0: 0, t1: 0, t2: 0, tf: 0 };
document.addEventListener('change', (e) => {
  if (!e.target?.matches?.('[data-testid=file-input]')) return;
  window.__load.t0 = performance.now();
  // First paint: the first frame showing rows of the new file (its preview's, or the whole's).
  const before = document.querySelector('[data-testid=count-messages]')?.textContent ?? '';
  const rowsTick = () => {
    const now = document.querySelector('[data-testid=count-messages]')?.textContent ?? '';
    const rows = document.querySelectorAll('[data-testid=timeline] [data-message-index]').length;
    if (now !== before && rows > 0) window.__load.tf = performance.now();
    else requestAnimationFrame(rowsTick);
  };
  requestAnimationFrame(rowsTick);
  // The previous document stays shown, ready, until the file's head is read: first the load's
  // own busy state (window.__busy, set by BUSY_WATCH's observer), then the first ready frame.
  const tick = () => {
    const ready = document.querySelector('[data-testid=app]')?.getAttribute('data-ready') === 'true';
    if (window.__busy && ready && !document.querySelector('[data-testid=load-progress]')) {
      window.__load.t1 = performance.now();
      requestAnimationFrame(simTick);
    } else requestAnimationFrame(tick);
  };
  const simTick = () => {
    const sim = document.querySelector('[data-testid=simulator]');
    const cards = sim ? sim.querySelectorAll('[data-testid=policy-card]').length : 0;
    const swept = sim && !sim.querySelector('[data-testid=sweep-pending]') &&
      sim.querySelector('[data-testid=sweep-chart], [data-testid=sweep-table], [data-testid=sweep-skipped]');
    if (cards >= 2 && swept) window.__load.t2 = performance.now();
    else requestAnimationFrame(simTick);
  };
  requestAnimationFrame(tick);
}, { capture: true, once: true });
`;

/** A timed load: ms, the heap's peaks, and the heap (bytes) a second after. */
export interface LoadFigures {
  ms: number;
  /** File picked → the simulator's cards and sweep shown (ms). */
  simMs: number;
  /** File picked → the first rows of it drawn (ms; -1 when not seen). */
  firstMs: number;
  /** The machine's 1-minute load average when the load ended. */
  loadAverage: number;
  peak: HeapPeaks;
  /** Peaks in the second after the analysis was shown (the exact token count runs then). */
  after: HeapPeaks;
  settled: { page: number; worker: number; workers: number };
  /** Where the time went: each worker stage's ms, in order, then the page's after the last. */
  stages: [string, number][];
}

/** In-page and in-worker: the load's clock readings as epoch ms (the two clocks differ). */
const PAGE_CLOCK = `[window.__load.t0, window.__load.t1, window.__load.t2].map((t) => performance.timeOrigin + t)`;
const WORKER_MARKS = `JSON.stringify(performance.getEntriesByType('mark')
  .filter((m) => m.name.startsWith('load:'))
  .map((m) => [m.name.slice(5), performance.timeOrigin + m.startTime]))`;

/**
 * The stages of the load (engine/runState.ts `stage` marks): file picked → the worker's start,
 * each stage's ms, the page's own work until the analysis was shown ("page → answer"), then the
 * stages after it and the page's until the simulator was shown ("page → simulator").
 */
async function loadStages(page: Page, tab: TabSession): Promise<[string, number][]> {
  const [t0, t1, t2] = (await page.evaluate(PAGE_CLOCK)) as [number, number, number];
  const r = await tab.worker<{ result: { value?: string } }>('Runtime.evaluate', {
    expression: WORKER_MARKS,
    returnByValue: true,
  });
  const marks = JSON.parse(r?.result.value ?? '[]') as [string, number][];
  const out: [string, number][] = [];
  let last = t0;
  let answered = false;
  for (const [name, at] of marks) {
    if (!answered && at > t1) {
      out.push(['page → answer', t1 - last]);
      answered = true;
      last = t1;
    }
    if (at > t2) break;
    out.push([name === 'start' ? 'to the worker' : name, at - last]);
    last = at;
  }
  if (!answered) {
    out.push(['page → answer', t1 - last]);
    last = t1;
  }
  out.push(['page → simulator', t2 - last]);
  return out;
}

/**
 * Pick `file` in the page (its `change` → the analysis shown, in-page clock) while sampling the
 * tab's heap; with `profileDir`, profile the worker meanwhile. `pick` sets the file and waits.
 * @returns the load's time (ms) and the heap's peak and settled size (bytes)
 */
export async function timedLoad(
  page: Page,
  pick: () => Promise<void>,
  profileDir: string | null,
): Promise<LoadFigures> {
  const tab = await TabSession.open(page);
  await page.evaluate(BUSY_WATCH);
  await page.evaluate(LOAD_WATCH);
  if (profileDir) {
    await tab.worker('Profiler.enable');
    await tab.worker('Profiler.setSamplingInterval', { interval: 500 });
    await tab.worker('Profiler.start');
  }
  // BENCH_HEAP_SERIES=FILE: every heap sample and the worker's stage marks, as JSON, to FILE.
  const series: HeapSample[] | null = process.env.BENCH_HEAP_SERIES ? [] : null;
  const stop = sampleHeap(tab, 100, series);
  await pick();
  await page.waitForFunction('window.__load.t1 > 0', undefined, { timeout: 600_000 });
  const ms = (await page.evaluate('window.__load.t1 - window.__load.t0')) as number;
  // The heap's peak covers the simulator's preparation too (it follows the answer).
  await page.waitForFunction('window.__load.t2 > 0', undefined, { timeout: 600_000 });
  const peak = await stop();
  const [simMs, firstMs] = (await page.evaluate(
    '[window.__load.t2 - window.__load.t0, window.__load.tf > 0 ? window.__load.tf - window.__load.t0 : -1]',
  )) as [number, number];
  const loadAverage = os.loadavg()[0] ?? NaN;
  if (profileDir) {
    const r = await tab.worker<{ profile: CpuProfile }>('Profiler.stop');
    if (r) {
      mkdirSync(profileDir, { recursive: true });
      writeFileSync(path.join(profileDir, 'load-worker.cpuprofile'), JSON.stringify(r.profile));
      process.stdout.write(`${profileTable('load (worker thread)', r.profile).join('\n')}\n`);
    }
  }
  const stopAfter = sampleHeap(tab, 100, series);
  await page.waitForTimeout(1000);
  const after = await stopAfter();
  const settled = await tab.heap();
  const stages = await loadStages(page, tab);
  if (series && process.env.BENCH_HEAP_SERIES) {
    const [t0] = (await page.evaluate(PAGE_CLOCK)) as [number];
    const r = await tab.worker<{ result: { value?: string } }>('Runtime.evaluate', {
      expression: WORKER_MARKS,
      returnByValue: true,
    });
    const marks = JSON.parse(r?.result.value ?? '[]') as [string, number][];
    writeFileSync(process.env.BENCH_HEAP_SERIES, JSON.stringify({ t0, marks, series }));
  }
  await tab.cdp.detach();
  return { ms, simMs, firstMs, loadAverage, peak, after, settled, stages };
}

/** The `top` functions of a CPU profile by inclusive and by self time (ms), as lines. */
export function profileTable(title: string, prof: CpuProfile, top = 30): string[] {
  const byId = new Map(prof.nodes.map((n) => [n.id, n]));
  const parent = new Map<number, number>();
  for (const n of prof.nodes) for (const c of n.children ?? []) parent.set(c, n.id);
  const label = (id: number) => {
    const f = byId.get(id)?.callFrame;
    if (!f) return '?';
    return `${f.functionName || '(anonymous)'} ${f.url.split('/').pop() ?? ''}:${f.lineNumber + 1}`;
  };
  const inc = new Map<string, number>();
  const self = new Map<string, number>();
  prof.samples.forEach((leaf, k) => {
    const dt = (prof.timeDeltas[k + 1] ?? 0) / 1000;
    self.set(label(leaf), (self.get(label(leaf)) ?? 0) + dt);
    const seen = new Set<string>();
    for (let n: number | undefined = leaf; n !== undefined; n = parent.get(n)) {
      const l = label(n);
      if (seen.has(l)) continue;
      seen.add(l);
      inc.set(l, (inc.get(l) ?? 0) + dt);
    }
  });
  const rows = (m: Map<string, number>, kind: string) =>
    [...m.entries()]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([f, ms]) => `  ${kind} ${ms.toFixed(0).padStart(6)} ms  ${f}`);
  return [`## ${title}`, ...rows(inc, ' inc'), ...rows(self, 'self')];
}

/** Print the load figures (`ms`, heap, stages) against the baselines (ms, each round). */
export function reportLoad(file: string, load: LoadFigures, baselines: Baselines): void {
  const size = statSync(file).size;
  const parse = baselines.parse;
  const base = median(parse);
  line(
    'full_load_vs_json_parse_100mb',
    load.ms / base,
    '×',
    `${path.basename(file)} (${(size / 1e6).toFixed(0)} MB): file picked → complete analysis shown ${load.ms.toFixed(0)} ms ÷ JSON.parse of every line (kept) in a fresh page ${base.toFixed(0)} ms (rounds ${parse.map((p) => p.toFixed(0)).join(', ')}); load average ${load.loadAverage.toFixed(1)} at the load's end; target ≤ 2.0`,
  );
  if (load.firstMs >= 0)
    line(
      'first_paint_vs_json_parse_100mb',
      load.firstMs / base,
      '×',
      `file picked → the first rows of it drawn ${load.firstMs.toFixed(0)} ms ÷ the same JSON.parse; target ≤ 0.5`,
    );
  const floor = median(baselines.floor);
  line(
    'load_floor_vs_json_parse_100mb',
    floor / base,
    '×',
    `a bare worker streaming the file, decoding it and JSON.parse-ing every line (kept), nothing else: ${floor.toFixed(0)} ms (rounds ${baselines.floor.map((p) => p.toFixed(0)).join(', ')}) ÷ the same JSON.parse; the least any single-threaded load of this file costs here`,
  );
  const parallel = median(baselines.parallel);
  line(
    'load_floor_parallel_vs_json_parse_100mb',
    parallel / base,
    '×',
    `the same split by whole lines over ${baselines.threads} workers at once (one per core), the values left in them: ${parallel.toFixed(0)} ms (rounds ${baselines.parallel.map((p) => p.toFixed(0)).join(', ')}) ÷ the same JSON.parse; the least a load that parses in parallel costs here, before it joins, normalises or analyses anything`,
  );
  line(
    'simulator_ready_vs_json_parse_100mb',
    load.simMs / base,
    '×',
    `file picked → the simulator's two policy cards and its sweep shown ${load.simMs.toFixed(0)} ms ÷ the same JSON.parse; target ≤ 3.0`,
  );
  line(
    'load_stages_100k',
    load.ms,
    'ms',
    `where the load's time went (worker stages, then the page's own work): ${load.stages.map(([n, ms]) => `${n} ${ms.toFixed(0)}`).join(' · ')}`,
  );
  const mib = (b: number) => `${(b / 2 ** 20).toFixed(0)} MiB`;
  line(
    'load_heap_vs_file_100mb',
    load.peak.total / size,
    '×',
    `peak V8 heap (used + array buffers) of page + all its workers together while loading ${mib(load.peak.total)}, sampled every 100 ms (peaks alone: page ${mib(load.peak.page)} = ${(load.peak.page / size).toFixed(2)} ×, workers ${mib(load.peak.worker)}, up to ${load.peak.workers} at once); in the second after (the exact token count) peak ${mib(load.after.total)}, then page ${mib(load.settled.page)}, workers ${mib(load.settled.worker)}; target ≤ 2.5`,
  );
}

/**
 * J×30, K×30 and j×30 (one press a frame) on the loaded page, from its first message:
 * `nav_long_frame_share_100k` over all presses.
 */
export async function navFigures(page: Page, phases: Phases): Promise<void> {
  await page.evaluate(RECORDER);
  await page.locator('[data-testid=timeline]').focus();
  await page.keyboard.press('j');
  await page.evaluate('new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r)))');
  const runs: [string, PressFigures][] = [];
  for (const key of ['J', 'K', 'j'])
    runs.push([key, await pressRun(page, phases, `nav_${key}`, key, 30)]);
  const long = runs.reduce((s, [, r]) => s + r.long, 0);
  const frames = runs.reduce((s, [, r]) => s + r.frames, 0);
  const each = runs
    .map(
      ([k, r]) =>
        `${k} ${r.long}/${r.frames} (worst ${r.maxFrame.toFixed(0)} ms, task ${r.maxTaskCpu.toFixed(0)} ms)`,
    )
    .join(', ');
  line(
    'nav_long_frame_share_100k',
    frames ? long / frames : 0,
    '',
    `frames > 50 ms while J×30, K×30, j×30 are pressed, one a frame: ${each}; target ≤ 0.01`,
  );
}
