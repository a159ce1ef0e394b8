/**
 * Browser benchmarks (issue 7), from a real Chromium driven by Playwright. Prints one line per
 * figure, `name: value unit`:
 *
 * - first_paint_vs_json_parse: a generated 20 MB Claude Code log picked in the page's file input
 *   → the first rows of that log drawn (a requestAnimationFrame watcher in the page), ÷ the time
 *   the same page takes to JSON.parse the same text (every line, median of 3). Target ≤ 3.
 *   Also first_paint_ms, full_load_ms (→ the complete analysis shown) and json_parse_ms.
 * - load_long_frame_share_100k / load_max_frame_ms_100k: frames > 50 ms while the 100,000-message
 *   log (≈ 115 MB) loads (the page must stay responsive), and load_ms_100k;
 *   exact_tokens_max_frame_ms_100k: the worst frame after that until the exact token count is
 *   shown (the simulator re-derives its context then).
 * - rows_mounted_max: most timeline rows in the DOM in any frame while scrolling from the top to
 *   the bottom of the 100,000-message log (target < 150).
 * - scroll_long_frame_share / slider_long_frame_share: share of frames > 50 ms during that scroll
 *   and during a mouse drag of the budget slider across its range (target 0), with the worst frame.
 *
 * Runs the production build (vite build into node_modules/.tmp/bench-dist) on a local preview
 * server. Chromium: $CHROMIUM_PATH / $PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH, else `chromium` on
 * PATH, else Playwright's own (as playwright.config.ts). Inputs are generated into bench-data/.
 *
 * `--profile DIR` (with `--only large`): an unminified build, and a Chromium CPU profile of the
 * page's thread per phase (load, exact tokens, scroll, slider) written to DIR/<phase>.cpuprofile
 * (open in Chromium's DevTools), with the busy stretches over 50 ms and the functions that fill
 * them printed after the figures.
 *
 *   npx tsx scripts/benchBrowser.ts [--skip-build] [--only first-paint|large] [--profile DIR]
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { chromium, type CDPSession, type Page } from '@playwright/test';
import { preview } from 'vite';
import { generate } from './gen.ts';
import { line } from './benchLine.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = path.join(root, 'bench-data');
const buildDir = path.join(root, 'node_modules/.tmp/bench-dist');

/** The same discovery as playwright.config.ts. */
export function systemChromium(): string | undefined {
  for (const env of ['CHROMIUM_PATH', 'PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH']) {
    const p = process.env[env];
    if (p && existsSync(p)) return p;
  }
  for (const name of ['chromium', 'chromium-browser']) {
    try {
      const p = execFileSync('which', [name], { encoding: 'utf8' }).trim();
      if (p) return p;
    } catch {
      // not on PATH
    }
  }
  return undefined;
}

/** A generated Claude Code log in bench-data/ (made once, reused). */
export function claudeCodeLog(name: string, messages: number, mb?: number): string {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, name);
  if (!existsSync(file))
    writeFileSync(
      file,
      generate({ format: 'claude-code-jsonl', seed: 7, messages, ...(mb ? { mb } : {}) }),
    );
  return file;
}

/** A generated Anthropic Messages body in bench-data/ (made once, reused). */
export function anthropicBody(name: string, messages: number): string {
  mkdirSync(dataDir, { recursive: true });
  const file = path.join(dataDir, name);
  if (!existsSync(file))
    writeFileSync(file, generate({ format: 'anthropic-messages', seed: 7, messages }));
  return file;
}

/** In-page helpers: a frame recorder and a watcher for "rows of the new file are drawn". */
const PAGE_HELPERS = `
window.__bench = {
  frames: [], recording: false, t0: 0, firstRows: 0, before: '',
  record() {
    this.frames = []; this.recording = true;
    let last = performance.now();
    const tick = (t) => { if (!this.recording) return; this.frames.push(t - last); last = t; requestAnimationFrame(tick); };
    requestAnimationFrame(tick);
  },
  stop() { this.recording = false; return this.frames; },
  async scrollThrough(steps) {
    const el = document.querySelector('[data-testid=timeline]');
    const frame = () => new Promise((r) => requestAnimationFrame(r));
    const frames = [];
    let maxRows = 0;
    el.scrollTop = 0;
    let last = await frame();
    for (let i = 1; i <= steps; i++) {
      el.scrollTop = ((el.scrollHeight - el.clientHeight) * i) / steps;
      const t = await frame();
      frames.push(t - last);
      last = t;
      maxRows = Math.max(maxRows, el.querySelectorAll('.row').length);
    }
    // Measured rows change the total height: keep going until the bottom is on screen.
    for (let k = 0; k < 60 && el.scrollTop + el.clientHeight < el.scrollHeight - 2; k++) {
      el.scrollTop = el.scrollHeight;
      const t = await frame();
      frames.push(t - last);
      last = t;
      maxRows = Math.max(maxRows, el.querySelectorAll('.row').length);
    }
    return { frames, maxRows, bottom: el.scrollTop + el.clientHeight >= el.scrollHeight - 2 };
  },
  watchFirstRows() {
    this.before = document.querySelector('[data-testid=count-messages]')?.textContent ?? '';
    this.firstRows = 0; this.t0 = 0;
    document.addEventListener('change', (e) => {
      if (e.target && e.target.matches && e.target.matches('[data-testid=file-input]')) { this.t0 = performance.now(); this.file = e.target.files[0]; }
    }, { capture: true, once: true });
    const tick = () => {
      const now = document.querySelector('[data-testid=count-messages]')?.textContent ?? '';
      const rows = document.querySelectorAll('[data-testid=timeline] [data-message-index]').length;
      if (this.t0 > 0 && now !== this.before && rows > 0) { this.firstRows = performance.now(); return; }
      requestAnimationFrame(tick);
    };
    requestAnimationFrame(tick);
  },
};
`;

async function openPage(page: Page, url: string): Promise<void> {
  await page.goto(url);
  await page.locator('[data-testid=app][data-ready=true]').waitFor({ timeout: 60_000 });
  // Drop into an idle page: the sample's exact token count (the BPE's first load) is done.
  await page.waitForFunction(
    () =>
      !/chars\/4/.test(
        document.querySelector('[data-testid=token-basis]')?.textContent ?? 'chars/4',
      ),
    undefined,
    { timeout: 60_000 },
  );
  await page.waitForTimeout(500);
  await page.evaluate(PAGE_HELPERS);
}

async function waitLoaded(page: Page, timeout: number): Promise<void> {
  await page.waitForFunction(
    () =>
      document.querySelector('[data-testid=app]')?.getAttribute('data-ready') === 'true' &&
      !document.querySelector('[data-testid=load-progress]'),
    undefined,
    { timeout, polling: 100 },
  );
}

/** A count as the page prints it (`67,302`) as a number. */
const shownCount = (text: string | null) => Number((text ?? '').replace(/,/g, '')) || NaN;

/** Frames longer than 50 ms. */
const longFrames = (frames: number[]) => frames.filter((f) => f > 50).length;
const share = (frames: number[]) => (frames.length ? longFrames(frames) / frames.length : 0);
const worst = (frames: number[]) => frames.reduce((a, b) => Math.max(a, b), 0);

async function firstPaint(page: Page, url: string, file: string): Promise<void> {
  await openPage(page, url);
  await page.evaluate('window.__bench.watchFirstRows()');
  const start = Date.now();
  await page.locator('[data-testid=file-input]').setInputFiles(file);
  await page.waitForFunction('window.__bench.firstRows > 0', undefined, { timeout: 120_000 });
  const firstPaintMs = (await page.evaluate(
    'window.__bench.firstRows - window.__bench.t0',
  )) as number;
  await waitLoaded(page, 300_000);
  const fullMs = Date.now() - start;
  const parseMs = (await page.evaluate(async () => {
    // The input is cleared after a pick: the watcher kept the File.
    const f = (window as unknown as { __bench: { file?: File } }).__bench.file;
    if (!f) return -1;
    const text = await f.text();
    const times: number[] = [];
    for (let k = 0; k < 3; k++) {
      const t = performance.now();
      let start = 0;
      while (start < text.length) {
        let end = text.indexOf('\n', start);
        if (end < 0) end = text.length;
        if (end > start) JSON.parse(text.slice(start, end));
        start = end + 1;
      }
      times.push(performance.now() - t);
    }
    return times.sort((a, b) => a - b)[1] as number;
  })) as number;
  line(
    'first_paint_ms',
    firstPaintMs,
    'ms',
    `${path.basename(file)}: file picked → first rows of it drawn`,
  );
  line('full_load_ms', fullMs, 'ms', 'file picked → complete analysis shown (wall clock)');
  if (parseMs > 0) {
    line(
      'json_parse_ms',
      parseMs,
      'ms',
      'JSON.parse of every line of the same text, same page, median of 3',
    );
    line('first_paint_vs_json_parse', firstPaintMs / parseMs, '×', 'target ≤ 3');
  }
}

/** A Chromium CPU profile (CDP `Profiler`) as written to a .cpuprofile file. */
interface CpuProfile {
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
interface TraceEvent {
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

async function large(
  page: Page,
  url: string,
  file: string,
  scrollFile: string,
  phases: Phases,
): Promise<void> {
  await openPage(page, url);
  let start = Date.now();
  let loadMs = 0;
  let loadFrames: number[] = [];
  // Frames are recorded inside each phase: starting a trace pauses the page once.
  await phases.run(page, 'load', async () => {
    await page.evaluate('window.__bench.record()');
    start = Date.now();
    await page.locator('[data-testid=file-input]').setInputFiles(file);
    await waitLoaded(page, 600_000);
    loadMs = Date.now() - start;
    loadFrames = (await page.evaluate('window.__bench.stop()')) as number[];
  });
  line(
    'load_ms_100k',
    loadMs,
    'ms',
    `${path.basename(file)}: file picked → complete analysis shown`,
  );
  line(
    'load_long_frame_share_100k',
    share(loadFrames),
    '',
    `${longFrames(loadFrames)} frames > 50 ms while loading, of ${loadFrames.length}`,
  );
  line('load_max_frame_ms_100k', worst(loadFrames), 'ms', 'worst frame while loading');
  line(
    'load_max_task_cpu_ms_100k',
    phases.lastMaxTaskCpu,
    'ms',
    "longest page-thread task while loading, in thread time (the CPU it used; other jobs' share excluded)",
  );
  // After the answer: the exact token count arrives and the simulator re-derives its context.
  let exactFrames: number[] = [];
  await phases.run(page, 'exact-tokens', async () => {
    await page.evaluate('window.__bench.record()');
    await page.waitForFunction(
      () =>
        !/chars\/4/.test(
          document.querySelector('[data-testid=token-basis]')?.textContent ?? 'chars/4',
        ),
      undefined,
      { timeout: 600_000, polling: 200 },
    );
    await page.evaluate(
      () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))),
    );
    exactFrames = (await page.evaluate('window.__bench.stop()')) as number[];
  });
  line(
    'exact_tokens_max_frame_ms_100k',
    worst(exactFrames),
    'ms',
    `worst frame from the analysis shown to the exact token count shown (${exactFrames.length} frames)`,
  );
  line(
    'exact_tokens_max_task_cpu_ms_100k',
    phases.lastMaxTaskCpu,
    'ms',
    'longest page-thread task meanwhile, thread time',
  );
  line(
    'messages_100mb_log',
    shownCount(await page.locator('[data-testid=count-messages]').textContent()),
    'messages',
    'assistant lines of one reply merge into one message',
  );
  // Scroll and slider on exactly 100,000 messages (an Anthropic body of that many).
  await page.locator('[data-testid=file-input]').setInputFiles(scrollFile);
  await waitLoaded(page, 600_000);
  await page.waitForFunction(
    () =>
      !/chars\/4/.test(
        document.querySelector('[data-testid=token-basis]')?.textContent ?? 'chars/4',
      ),
    undefined,
    { timeout: 600_000, polling: 500 },
  );
  const messages = shownCount(await page.locator('[data-testid=count-messages]').textContent());

  // Scroll from top to bottom in 600 frames (every frame shows new rows), counting mounted rows.
  const scroll = (await phases.run(page, 'scroll', () =>
    page.evaluate('window.__bench.scrollThrough(600)'),
  )) as {
    frames: number[];
    maxRows: number;
    bottom: boolean;
  };
  line(
    'rows_mounted_max',
    scroll.maxRows,
    'rows',
    `${messages} messages, 600-frame scroll top → bottom${scroll.bottom ? '' : ' (did not reach the bottom!)'}; target < 150`,
  );
  line(
    'scroll_long_frame_share',
    share(scroll.frames),
    '',
    `${longFrames(scroll.frames)} frames > 50 ms of ${scroll.frames.length}; target 0`,
  );
  line('scroll_max_frame_ms', worst(scroll.frames), 'ms');
  line('scroll_max_task_cpu_ms', phases.lastMaxTaskCpu, 'ms', 'thread time');

  // Drag the budget slider across its range with the mouse.
  const slider = page.locator('[data-testid=budget-slider]');
  if ((await slider.count()) === 0) {
    process.stdout.write('# slider_long_frame_share: skipped (no budget slider on the page)\n');
    return;
  }
  await slider.scrollIntoViewIfNeeded();
  const box = await slider.boundingBox();
  if (!box) return;
  const y = box.y + box.height / 2;
  await page.mouse.move(box.x + box.width - 2, y);
  await page.mouse.down();
  const moves = 120;
  let drag: number[] = [];
  await phases.run(page, 'slider', async () => {
    await page.evaluate('window.__bench.record()');
    for (let i = moves; i >= 0; i--) {
      await page.mouse.move(box.x + 2 + ((box.width - 4) * i) / moves, y);
      await page.evaluate('new Promise((r) => requestAnimationFrame(r))');
    }
    await page.mouse.up();
    await page.evaluate(
      () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))),
    );
    drag = (await page.evaluate('window.__bench.stop()')) as number[];
  });
  line(
    'slider_long_frame_share',
    share(drag),
    '',
    `${longFrames(drag)} frames > 50 ms of ${drag.length} during a ${moves}-step drag; target 0`,
  );
  line('slider_max_frame_ms', worst(drag), 'ms');
  line('slider_max_task_cpu_ms', phases.lastMaxTaskCpu, 'ms', 'thread time');
}

/** Run the browser figures. */
export async function benchBrowser(args: string[] = []): Promise<void> {
  const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
  const profileDir = args.includes('--profile')
    ? path.resolve(args[args.indexOf('--profile') + 1] ?? 'bench-profile')
    : null;
  const phases = new Phases(profileDir);
  // Profiles want readable names: an unminified build of its own.
  const outDir = profileDir ? `${buildDir}-profile` : buildDir;
  const small = claudeCodeLog('browser-claude-code-20mb.jsonl', 1000, 20);
  const big =
    only === 'first-paint' ? '' : claudeCodeLog('browser-claude-code-100k.jsonl', 100_000);
  const body = only === 'first-paint' ? '' : anthropicBody('browser-anthropic-100k.json', 100_000);
  if (!args.includes('--skip-build') || !existsSync(outDir))
    execFileSync(
      'npx',
      [
        'vite',
        'build',
        '--outDir',
        outDir,
        '--emptyOutDir',
        '--logLevel',
        'error',
        ...(profileDir ? ['--minify', 'false'] : []),
      ],
      {
        cwd: root,
        stdio: 'inherit',
      },
    );
  const server = await preview({
    root,
    logLevel: 'error',
    build: { outDir },
    preview: { port: 0, host: '127.0.0.1', strictPort: false },
  });
  const url = server.resolvedUrls?.local[0] ?? '';
  const executablePath = systemChromium();
  const browser = await chromium.launch({
    ...(executablePath ? { executablePath } : {}),
    args: [
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--enable-precise-memory-info',
    ],
  });
  // bypassCSP: the harness injects its frame recorder as a string (the page itself is unchanged).
  process.stdout.write(
    `# browser: ${browser.version()}; machine: ${os.cpus()[0]?.model ?? '?'} × ${os.cpus().length}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GB\n`,
  );
  try {
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 }, bypassCSP: true });
    if (only !== 'large') await firstPaint(page, url, small);
    if (only !== 'first-paint')
      await large(
        await browser.newPage({ viewport: { width: 1400, height: 900 }, bypassCSP: true }),
        url,
        big,
        body,
        phases,
      );
    phases.print();
  } finally {
    await browser.close();
    await new Promise<void>((r) => server.httpServer.close(() => r()));
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  benchBrowser(process.argv.slice(2)).catch((e: unknown) => {
    process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
    process.exit(1);
  });
}
