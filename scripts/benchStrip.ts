/**
 * strip_load_overhead_100mb (issue 33): the full load of the 100,000-line generated Claude Code
 * log (≈ 115 MB, 27,957 model calls; the same file as full_load_vs_json_parse_100mb) with the
 * request strip ÷ without it. Without: the harness sets the worker request's `strip: false`
 * (engine/protocol.ts), so the worker reads no session calls and the page draws no strip; with:
 * the page as shipped. Each load is file picked → complete analysis shown (no progress bar, the
 * app ready), wall clock, in a fresh page; the two alternate, 3 rounds, median of each. The
 * strip's calls are sent just after the answer and drawn a moment later (its time is in the
 * note); their verdicts are judged after the exact token count (runRequests.ts). Target ≤ 1.1.
 * Printed by scripts/benchBrowser.ts (`--only strip` runs it alone).
 */
import path from 'node:path';
import type { Browser } from '@playwright/test';
import { line } from './benchLine.ts';
import { openPage, pickAndWait } from './benchPage.ts';

/** In the page: every request to a worker carries `strip: false` while `window.__noStrip`. */
const NO_STRIP = `
const post = Worker.prototype.postMessage;
Worker.prototype.postMessage = function (m, ...rest) {
  if (window.__noStrip && m && typeof m === 'object' && 'req' in m) m = { ...m, strip: false };
  return post.call(this, m, ...rest);
};
`;

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)] ?? NaN;

/** One load of `file` in a fresh page, with or without the strip; ms and the strip's marks. */
async function load(browser: Browser, url: string, file: string, strip: boolean) {
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
  try {
    await page.addInitScript(NO_STRIP);
    await openPage(page, url);
    await page.evaluate(`window.__noStrip = ${strip ? 'false' : 'true'}`);
    const start = Date.now();
    await pickAndWait(page, file, 600_000);
    const ms = Date.now() - start;
    if (!strip) return { ms, marks: await page.getByTestId('request-mark').count(), drawn: 0 };
    // The strip's calls follow the answer: when they are drawn (not part of the load's time).
    await page.getByTestId('request-mark').first().waitFor({ timeout: 600_000 });
    const drawn = Date.now() - start;
    return { ms, marks: await page.getByTestId('request-mark').count(), drawn };
  } finally {
    await page.close();
  }
}

/** Print strip_load_overhead_100mb for `file` (the 100,000-line log). */
export async function benchStrip(browser: Browser, url: string, file: string): Promise<void> {
  const withStrip: number[] = [];
  const without: number[] = [];
  let marks = 0;
  const drawn: number[] = [];
  for (let k = 0; k < 3; k++) {
    const a = await load(browser, url, file, false);
    if (a.marks !== 0) throw new Error('the baseline load drew a strip');
    without.push(a.ms);
    const b = await load(browser, url, file, true);
    if (b.marks === 0) throw new Error('the load with the strip drew none');
    marks = b.marks;
    drawn.push(b.drawn);
    withStrip.push(b.ms);
  }
  const w = median(withStrip);
  const wo = median(without);
  line(
    'strip_load_ms_100mb',
    w,
    'ms',
    `${path.basename(file)}: load with the strip, median of 3; the strip (${marks} marks) drawn at ${drawn.join(', ')} ms`,
  );
  line(
    'no_strip_load_ms_100mb',
    wo,
    'ms',
    `the same load without it: ${without.join(', ')} ms; with: ${withStrip.join(', ')} ms`,
  );
  line('strip_load_overhead_100mb', w / wo, '×', 'target ≤ 1.1');
}
