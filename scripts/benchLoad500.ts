/**
 * `load_500mb_heap_vs_file` (issue 38): a generated 500 MB Claude Code log (bench-data/, made
 * once by scripts/gen.ts as the 100 MB one, reused) picked in the page's file input, and the most
 * V8 heap the tab used (page + all its workers, used heap plus ArrayBuffer backing stores,
 * sampled every 100 ms: `timedLoad` and `sampleHeap` of scripts/benchLoad.ts, as the 100 MB
 * figure) from the pick until the complete analysis is shown — verdict, rows and token counts
 * (the page's own busy state, `pickAndWait`; then the simulator's cards and sweep, then the exact
 * token count) — ÷ the file's size. Target ≤ 2.5, with the log fully analysed and no crash: a
 * refused file or a crashed tab prints the figure as NaN with the reason.
 *
 *   npx tsx scripts/benchBrowser.ts --only load500
 */
import { statSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Page } from '@playwright/test';
import { line } from './benchLine.ts';
import { sampleHeap, TabSession, timedLoad, type LoadFigures } from './benchLoad.ts';
import { claudeCodeLog, openPage, pickAndWait, shownCount } from './benchPage.ts';

/** Target of `load_500mb_heap_vs_file` (issue 38). */
const TARGET = 2.5;
/** The longest a 500 MB load may take on a shared 2-core machine before it counts as failed. */
const TIMEOUT_MS = 30 * 60_000;

/** The generated 500 MB Claude Code log (made once, reused). */
export function log500(): string {
  return claudeCodeLog('browser-claude-code-500mb.jsonl', 1, 500);
}

/** Why the page did not show the analysis: a refusal or parse error shown, or the tab crashed. */
function failureOf(page: Page): Promise<string> {
  return new Promise((resolve) => {
    page.once('crash', () => resolve('the tab crashed'));
    // A file refused from its size (LoadStatus), or one that did not parse (ParseErrorBanner).
    const shown = page.locator('[data-testid=load-refused], [data-testid=parse-error]').first();
    shown
      .waitFor({ timeout: TIMEOUT_MS })
      .then(async () => {
        const text = await shown.textContent();
        resolve(`the page refused it: ${(text ?? '').replace(/\s+/g, ' ').slice(0, 300)}`);
      })
      .catch(() => undefined);
  });
}

/**
 * Print `load_500mb_heap_vs_file` for `file` on a fresh page at `url`.
 * @param page a new page of the bench's browser; @param url the preview server's
 */
export async function benchLoad500(page: Page, url: string, file = log500()): Promise<void> {
  const size = statSync(file).size;
  const name = `${path.basename(file)} (${(size / 1e6).toFixed(0)} MB)`;
  await openPage(page, url);
  const failed = failureOf(page);
  // A wait that throws (the tab gone, a timeout) is a failure too, never an unhandled rejection.
  const why = (e: unknown) =>
    `it failed: ${(e instanceof Error ? e.message : String(e)).split('\n')[0]}`;
  const load = await Promise.race([
    timedLoad(page, () => pickAndWait(page, file, TIMEOUT_MS), null).catch(why),
    failed,
  ]);
  if (typeof load === 'string') {
    line(
      'load_500mb_heap_vs_file',
      NaN,
      '×',
      `${name}: not analysed — ${load}; target ≤ ${TARGET}`,
    );
    return;
  }
  // Token counts: the exact count follows the answer; the heap is sampled until it is shown.
  const tab = await TabSession.open(page);
  const stop = sampleHeap(tab);
  const exact = await Promise.race([
    page
      .waitForFunction(
        () =>
          !/chars\/4/.test(
            document.querySelector('[data-testid=token-basis]')?.textContent ?? 'chars/4',
          ),
        undefined,
        { timeout: TIMEOUT_MS, polling: 200 },
      )
      .then(() => '', why),
    failed,
  ]);
  const tokens = await stop();
  await tab.cdp.detach().catch(() => undefined);
  if (exact) {
    line(
      'load_500mb_heap_vs_file',
      NaN,
      '×',
      `${name}: ${exact} after the answer; target ≤ ${TARGET}`,
    );
    return;
  }
  report(name, size, load, tokens.total, {
    messages: shownCount(await page.locator('[data-testid=count-messages]').textContent()),
    verdict: ((await page.locator('[data-testid=verdict]').first().textContent()) ?? '?')
      .replace(/\s+/g, ' ')
      .slice(0, 80),
  });
}

/** Print the figure: the peak over the load and the token count after it, ÷ the file's size. */
function report(
  name: string,
  size: number,
  load: LoadFigures,
  tokensPeak: number,
  shown: { messages: number; verdict: string },
): void {
  const mib = (b: number) => `${(b / 2 ** 20).toFixed(0)} MiB`;
  const peak = Math.max(load.peak.total, load.after.total, tokensPeak);
  line(
    'load_500mb_heap_vs_file',
    peak / size,
    '×',
    `${name}: peak V8 heap (used + array buffers) of page + all its workers ${mib(peak)}, sampled every 100 ms from the pick to the exact token count shown (until the analysis: ${mib(load.peak.total)}, page alone ${mib(load.peak.page)}, workers ${mib(load.peak.worker)}, up to ${load.peak.workers} at once; then ${mib(Math.max(load.after.total, tokensPeak))}); settled: page ${mib(load.settled.page)}, workers ${mib(load.settled.worker)}; analysis shown after ${(load.ms / 1000).toFixed(1)} s, simulator ${(load.simMs / 1000).toFixed(1)} s; ${shown.messages} messages, verdict "${shown.verdict}"; load average ${os.loadavg()[0]?.toFixed(1)}; target ≤ ${TARGET}`,
  );
}
