/**
 * Keyboard stepping on a large log (issue 16: "pressing J 30 times on a 67,000-message log drops
 * frames, 12 % over 50 ms"), from a real Chromium driven by Playwright. Prints one line per
 * figure, `name: value unit`:
 *
 * - keys_j30_long_frame_share: share of animation frames longer than 50 ms (rAF deltas) while J
 *   (next exchange) is pressed 30 times, one press per frame, on the 100,000-line generated
 *   Claude Code log (≈ 67,000 messages once an assistant reply's lines merge); target 0. Also the
 *   worst frame, the long animation frames Chromium reports (PerformanceObserver
 *   `long-animation-frame`, ≥ 50 ms) and the longest page-thread task in thread time.
 *   Also the page thread's time per press, steadier than frame lengths on a busy machine.
 * - keys_k30_*: the same for K (previous exchange) back up, and keys_j30_row_*: j (next message).
 *
 * Reuses the production build of scripts/benchBrowser.ts (node_modules/.tmp/bench-dist) and its
 * generated input in bench-data/.
 *
 * `--rounds R` repeats the three runs R times on the same page and prints medians (the load of the
 * log takes minutes; the runs seconds).
 *
 *   npx tsx scripts/benchKeys.ts [--skip-build] [--profile DIR] [--messages N] [--rounds R]
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Page } from '@playwright/test';
import { claudeCodeLog, closeServer, launchChromium, serveBuild } from './benchPage.ts';
import { Phases } from './benchTrace.ts';
import { line } from './benchLine.ts';

/** In-page recorder: rAF deltas and long animation frames between start() and stop(). */
export const RECORDER = `
window.__keys = {
  frames: [], loaf: [], on: false, obs: null,
  start() {
    this.frames = []; this.loaf = []; this.on = true;
    try {
      this.obs = new PerformanceObserver((l) => { for (const e of l.getEntries()) this.loaf.push(e.duration); });
      this.obs.observe({ type: 'long-animation-frame' });
    } catch { this.obs = null; }
    let last = performance.now();
    const tick = (t) => { if (!this.on) return; this.frames.push(t - last); last = t; requestAnimationFrame(tick); };
    requestAnimationFrame(tick);
  },
  stop() { this.on = false; this.obs?.disconnect(); return { frames: this.frames, loaf: this.loaf }; },
};
`;

const nextFrame = 'new Promise((r) => requestAnimationFrame(r))';

async function waitIdle(page: Page, timeout: number): Promise<void> {
  await page.waitForFunction(
    () =>
      document.querySelector('[data-testid=app]')?.getAttribute('data-ready') === 'true' &&
      !document.querySelector('[data-testid=load-progress]') &&
      !/chars\/4/.test(
        document.querySelector('[data-testid=token-basis]')?.textContent ?? 'chars/4',
      ),
    undefined,
    { timeout, polling: 500 },
  );
}

export interface PressFigures {
  long: number;
  frames: number;
  maxFrame: number;
  loaf: number;
  worstLoaf: number;
  maxTaskCpu: number;
  cpuPerPress: number;
}

/** Press `key` `times` times, one press per frame, recording frames and the page's thread time. */
export async function pressRun(
  page: Page,
  phases: Phases,
  name: string,
  key: string,
  times: number,
): Promise<PressFigures> {
  const rec = await phases.run(page, name, async () => {
    await page.evaluate('window.__keys.start()');
    for (let i = 0; i < times; i++) {
      await page.keyboard.press(key);
      await page.evaluate(nextFrame);
    }
    await page.evaluate(`${nextFrame}.then(() => ${nextFrame})`);
    return (await page.evaluate('window.__keys.stop()')) as { frames: number[]; loaf: number[] };
  });
  return {
    long: rec.frames.filter((f) => f > 50).length,
    frames: rec.frames.length,
    maxFrame: Math.max(0, ...rec.frames),
    loaf: rec.loaf.length,
    worstLoaf: Math.max(0, ...rec.loaf),
    maxTaskCpu: phases.lastMaxTaskCpu,
    cpuPerPress: phases.lastTotalTaskCpu / times,
  };
}

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

/** Print the figures of `runs` (one per round) as `name_*`: medians, every round in the note. */
function report(name: string, what: string, runs: PressFigures[]): void {
  const all = (f: (r: PressFigures) => number, digits = 0) =>
    runs.length > 1 ? ` (rounds: ${runs.map((r) => f(r).toFixed(digits)).join(', ')})` : '';
  const share = (r: PressFigures) => (r.frames ? r.long / r.frames : 0);
  const first = runs[0];
  line(
    `${name}_long_frame_share`,
    median(runs.map(share)),
    '',
    `frames > 50 ms while ${what}${first ? `: ${first.long} of ${first.frames}` : ''}${all(share, 3)}; target 0`,
  );
  line(
    `${name}_max_frame_ms`,
    median(runs.map((r) => r.maxFrame)),
    'ms',
    all((r) => r.maxFrame),
  );
  line(
    `${name}_loaf_count`,
    median(runs.map((r) => r.loaf)),
    'frames',
    `long animation frames (≥ 50 ms) reported by Chromium${all((r) => r.loaf)}`,
  );
  line(
    `${name}_max_task_cpu_ms`,
    median(runs.map((r) => r.maxTaskCpu)),
    'ms',
    `longest page-thread task, thread time${all((r) => r.maxTaskCpu, 1)}`,
  );
  line(
    `${name}_cpu_per_press_ms`,
    median(runs.map((r) => r.cpuPerPress)),
    'ms',
    `page-thread time of the run ÷ presses (other jobs' share excluded)${all((r) => r.cpuPerPress, 1)}`,
  );
}

export async function benchKeys(args: string[] = []): Promise<void> {
  const profileDir = args.includes('--profile')
    ? path.resolve(args[args.indexOf('--profile') + 1] ?? 'bench-profile')
    : null;
  const messages = args.includes('--messages')
    ? Number(args[args.indexOf('--messages') + 1])
    : 100_000;
  const rounds = args.includes('--rounds') ? Number(args[args.indexOf('--rounds') + 1]) : 1;
  const file = claudeCodeLog(
    messages === 100_000 ? 'browser-claude-code-100k.jsonl' : `keys-claude-code-${messages}.jsonl`,
    messages,
  );
  const server = await serveBuild(profileDir !== null, args.includes('--skip-build'));
  const browser = await launchChromium();
  try {
    // bypassCSP: the recorder is injected as a string (the page itself is unchanged).
    const page = await browser.newPage({ viewport: { width: 1400, height: 900 }, bypassCSP: true });
    await page.goto(server.resolvedUrls?.local[0] ?? '');
    await waitIdle(page, 120_000);
    const sample = await page.locator('[data-testid=count-messages]').textContent();
    await page.locator('[data-testid=file-input]').setInputFiles(file);
    await page.waitForFunction(
      (before) => document.querySelector('[data-testid=count-messages]')?.textContent !== before,
      sample,
      { timeout: 600_000, polling: 1000 },
    );
    await waitIdle(page, 900_000);
    const shown = await page.locator('[data-testid=count-messages]').textContent();
    process.stdout.write(`# ${path.basename(file)}: ${shown ?? '?'} messages shown\n`);
    await page.evaluate(RECORDER);
    // Select the first message (j with nothing selected), then let the page settle.
    await page.locator('[data-testid=timeline]').focus();
    await page.keyboard.press('j');
    await page.evaluate(`${nextFrame}.then(() => ${nextFrame})`);
    const phases = new Phases(profileDir);
    const runs: Record<'J' | 'K' | 'j', PressFigures[]> = { J: [], K: [], j: [] };
    for (let r = 0; r < rounds; r++) {
      runs.J.push(await pressRun(page, phases, 'keys_j30', 'J', 30));
      runs.K.push(await pressRun(page, phases, 'keys_k30', 'K', 30));
      runs.j.push(await pressRun(page, phases, 'keys_j30_row', 'j', 30));
      // Back to the first message for the next round (not recorded).
      for (let i = 0; i < 30; i++) await page.keyboard.press('k');
    }
    report('keys_j30', 'J (next exchange) is pressed 30× from the first message', runs.J);
    report('keys_k30', 'K (previous exchange) is pressed 30× back', runs.K);
    report('keys_j30_row', 'j (next message) is pressed 30×', runs.j);
    phases.print();
  } finally {
    await browser.close();
    await closeServer(server);
  }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  benchKeys(process.argv.slice(2)).catch((e: unknown) => {
    process.stderr.write(`${e instanceof Error ? e.stack : String(e)}\n`);
    process.exit(1);
  });
}
