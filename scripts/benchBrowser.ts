/**
 * Browser benchmarks (issues 7 and 20), from a real Chromium driven by Playwright. Prints one
 * line per figure, `name: value unit`:
 *
 * - first_paint_vs_json_parse: a generated 20 MB Claude Code log picked in the page's file input
 *   → the first rows of that log drawn (a requestAnimationFrame watcher in the page), ÷ the time
 *   the same page takes to JSON.parse the same text (every line, median of 3). Target ≤ 3.
 *   Also first_paint_ms, full_load_ms (→ the complete analysis shown) and json_parse_ms.
 * - full_load_vs_json_parse_100mb, load_heap_vs_file_100mb, nav_long_frame_share_100k: the full
 *   load of the 100,000-line log (≈ 115 MB) against a page's JSON.parse of it, the tab's heap
 *   meanwhile, and keyboard navigation through it (scripts/benchLoad.ts).
 * - load_long_frame_share_100k / load_max_frame_ms_100k: frames > 50 ms while that log loads (the
 *   page must stay responsive), and load_ms_100k; exact_tokens_max_frame_ms_100k: the worst
 *   frame after that until the exact token count is shown (the simulator re-derives its context).
 * - rows_mounted_max: most timeline rows in the DOM in any frame while scrolling from the top to
 *   the bottom of 100,000 messages (target < 150).
 * - scroll_long_frame_share / slider_long_frame_share: share of frames > 50 ms during that scroll
 *   and during a mouse drag of the budget slider across its range (target 0), with the worst frame.
 *
 * Runs the production build (scripts/benchPage.ts) on a local preview server (port $BENCH_PORT,
 * else any free one). Chromium: $CHROMIUM_PATH / $PLAYWRIGHT_CHROMIUM_EXECUTABLE_PATH, else
 * `chromium` on PATH, else Playwright's own (as playwright.config.ts). Inputs go to bench-data/.
 *
 * `--profile DIR` (with `--only large|load`): an unminified build, and a Chromium CPU profile of
 * the page's thread per phase (load, exact tokens, keys, scroll, slider) written to
 * DIR/<phase>.cpuprofile (open in Chromium's DevTools), the worker's over the load, with the busy
 * stretches over 50 ms and the functions that fill them printed after the figures.
 * `--only load`: the large log's figures without the scroll and the slider.
 * - strip_load_overhead_100mb: the same log's load with the request strip ÷ without it
 *   (scripts/benchStrip.ts; `--only strip` runs it alone).
 * - diff_view_*_100k: the diff view of two requests of 100,000 and 101,000 messages, its first
 *   draw and a 600-frame scroll of its rows (scripts/benchDiffView.ts; `--only diff-view`).
 *
 * - load_500mb_heap_vs_file: the tab's peak heap ÷ the file's size while a generated 500 MB log
 *   loads until fully analysed (scripts/benchLoad500.ts; last in the run; `--only load500` alone).
 *
 *   npx tsx scripts/benchBrowser.ts [--skip-build] [--only first-paint|large|load|strip|diff-view|load500] [--profile DIR]
 */
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Browser, Page } from '@playwright/test';
import { line } from './benchLine.ts';
import { navFigures, pageBaselines, reportLoad, timedLoad, type Baselines } from './benchLoad.ts';
import {
  anthropicBody,
  claudeCodeLog,
  closeServer,
  launchChromium,
  longFrames,
  openPage,
  serveBuild,
  share,
  shownCount,
  BUSY_WATCH,
  pickAndWait,
  waitLoaded,
  worst,
} from './benchPage.ts';
import { Phases } from './benchTrace.ts';
import { benchDiffView } from './benchDiffView.ts';
import { benchStrip } from './benchStrip.ts';
import { benchLoad500, log500 } from './benchLoad500.ts';

/** first_paint_vs_json_parse and the figures it divides (20 MB log). */
async function firstPaint(page: Page, url: string, file: string): Promise<void> {
  await openPage(page, url);
  await page.evaluate('window.__bench.watchFirstRows()');
  await page.evaluate(BUSY_WATCH);
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

/** The 100,000-line log's figures (see the file comment), then scroll and slider on 100,000 messages. */
async function large(
  page: Page,
  url: string,
  file: string,
  scrollFile: string,
  phases: Phases,
  opts: { parse: Baselines; profileDir: string | null; onlyLoad: boolean },
): Promise<void> {
  await openPage(page, url);
  let start = Date.now();
  let loadMs = 0;
  let loadFrames: number[] = [];
  // Frames are recorded inside each phase: starting a trace pauses the page once.
  const timed = await phases.run(page, 'load', async () => {
    await page.evaluate('window.__bench.record()');
    const t = await timedLoad(
      page,
      async () => {
        start = Date.now();
        await pickAndWait(page, file, 600_000);
        loadMs = Date.now() - start;
      },
      opts.profileDir,
    );
    loadFrames = (await page.evaluate('window.__bench.stop()')) as number[];
    return t;
  });
  reportLoad(file, timed, opts.parse);
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
  await exactTokens(page, phases);
  line(
    'messages_100mb_log',
    shownCount(await page.locator('[data-testid=count-messages]').textContent()),
    'messages',
    'assistant lines of one reply merge into one message',
  );
  await navFigures(page, phases);
  if (!opts.onlyLoad) await scrollAndSlider(page, scrollFile, phases);
}

/** After the answer: the exact token count arrives and the simulator re-derives its context. */
async function exactTokens(page: Page, phases: Phases): Promise<void> {
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
}

/** Scroll and slider on exactly 100,000 messages (an Anthropic body of that many). */
async function scrollAndSlider(page: Page, scrollFile: string, phases: Phases): Promise<void> {
  await pickAndWait(page, scrollFile, 600_000);
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
  const small = claudeCodeLog('browser-claude-code-20mb.jsonl', 1000, 20);
  const big =
    only === 'first-paint' || only === 'diff-view'
      ? ''
      : claudeCodeLog('browser-claude-code-100k.jsonl', 100_000);
  const body =
    only === 'first-paint' || only === 'load' || only === 'diff-view'
      ? ''
      : anthropicBody('browser-anthropic-100k.json', 100_000);
  // Profiles want readable names: an unminified build of its own.
  const server = await serveBuild(profileDir !== null, args.includes('--skip-build'));
  const url = server.resolvedUrls?.local[0] ?? '';
  let browser: Browser | null = null;
  try {
    browser = await launchChromium();
    process.stdout.write(
      `# browser: ${browser.version()}; machine: ${os.cpus()[0]?.model ?? '?'} × ${os.cpus().length}, ${(os.totalmem() / 2 ** 30).toFixed(0)} GB; load average ${os
        .loadavg()
        .map((l) => l.toFixed(1))
        .join(' ')}\n`,
    );
    // bypassCSP: the harness injects its frame recorder as a string (the page itself is unchanged).
    const newPage = () =>
      (browser as Browser).newPage({ viewport: { width: 1400, height: 900 }, bypassCSP: true });
    if (only === 'load500') {
      await benchLoad500(await newPage(), url, log500());
      return;
    }
    if (only === 'strip') {
      await benchStrip(browser, url, big);
      return;
    }
    if (only === 'diff-view') {
      await benchDiffView(browser, url, phases);
      return;
    }
    if (only !== 'large' && only !== 'load') await firstPaint(await newPage(), url, small);
    if (only !== 'first-paint') {
      // The baseline first, in a fresh page: no heap of the app's beside it.
      const parse = await pageBaselines(browser, big);
      await large(await newPage(), url, big, body, phases, {
        parse,
        profileDir,
        onlyLoad: only === 'load',
      });
      await benchStrip(browser, url, big);
      if (only !== 'large' && only !== 'load') await benchDiffView(browser, url, phases);
    }
    // Last: the 500 MB log's heap, in a page of its own (minutes; made once in bench-data/).
    if (only === undefined) await benchLoad500(await newPage(), url);
    phases.print();
  } finally {
    await browser?.close();
    await closeServer(server);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  benchBrowser(process.argv.slice(2)).catch((e: unknown) => {
    process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
    process.exit(1);
  });
}
