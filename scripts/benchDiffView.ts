/**
 * The diff view at 100,000 messages a side (issue 33), in Chromium: a batch of two Anthropic
 * requests of one tool-using conversation, the second the first (100,000 messages) with 1,000
 * more (`diffBatch`), pasted (a picked file that large is streamed, and the page leaves a streamed
 * file's diff to the CLI); "Diff with previous" on the second. Prints:
 *
 * - diff_view_first_draw_ms_100k: the click → the first diff row in the DOM (wall clock; the
 *   diff is made in the worker and sent over).
 * - diff_view_scroll_long_frame_share_100k / diff_view_scroll_max_frame_ms_100k: frames > 50 ms
 *   while scrolling the rows' pane from top to bottom in 600 frames (every frame shows new rows),
 *   and the worst frame (target: no long frame; per-frame work follows the rows shown).
 * - diff_view_scroll_task_cpu_ms_per_frame_100k / diff_view_scroll_max_task_cpu_ms_100k: the
 *   page thread's task time over that scroll per frame, and its longest task, in thread time
 *   (what a frame costs, less stretched than frame lengths on a loaded machine).
 * - diff_view_rows_mounted_max / diff_view_arcs_mounted_max: most rows and arc paths in the DOM
 *   in any frame of that scroll (both bounded by the pane, not by the 101,000 rows).
 *
 * Run by scripts/benchBrowser.ts (`--only diff-view` runs it alone).
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Browser } from '@playwright/test';
import { line } from './benchLine.ts';
import type { Phases } from './benchTrace.ts';
import { BUSY_WATCH, longFrames, openPage, share, waitLoaded, worst } from './benchPage.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const MESSAGES = 100_000;
const MORE = 1_000;

/**
 * `n` messages of a tool-using conversation, from exchange `start`: a question, a call, its
 * result, an answer (short texts: the view's cost is in rows and arcs, not in text).
 */
function conversation(n: number, start: number): unknown[] {
  const out: unknown[] = [];
  for (let k = start; out.length < n; k++) {
    const id = `toolu_${String(k).padStart(7, '0')}`;
    out.push(
      { role: 'user', content: `Question ${k}: what does file ${k} hold?` },
      {
        role: 'assistant',
        content: [{ type: 'tool_use', id, name: 'read', input: { path: `f${k}.txt` } }],
      },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: id, content: `line ${k}` }] },
      { role: 'assistant', content: `File ${k} holds one line.` },
    );
  }
  return out.slice(0, n);
}

/**
 * The batch in bench-data/ (made once, reused): two Anthropic requests of one conversation, the
 * second 1,000 messages further (100,000 and 101,000 messages; 101,000 rows, 25,250 arcs on the
 * right).
 */
export function diffBatch(): string {
  const dir = path.join(root, 'bench-data');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'browser-diff-batch-100k.json');
  if (existsSync(file)) return file;
  const head = {
    model: 'claude-sonnet-4-5',
    max_tokens: 1024,
    tools: [{ name: 'read', input_schema: { type: 'object' } }],
  };
  const all = conversation(MESSAGES + MORE, 0);
  const requests = [
    { custom_id: 'before', params: { ...head, messages: all.slice(0, MESSAGES) } },
    { custom_id: 'after', params: { ...head, messages: all } },
  ];
  writeFileSync(file, JSON.stringify({ requests }));
  return file;
}

/** In the page: scroll the diff rows' pane top → bottom in `steps` frames, counting mounted rows and arcs. */
const SCROLL = (steps: number) => `(async () => {
  const el = document.querySelector('.diff-scroll');
  const frame = () => new Promise((r) => requestAnimationFrame(r));
  const frames = [];
  let maxRows = 0, maxArcs = 0;
  el.scrollTop = 0;
  let last = await frame();
  for (let i = 1; i <= ${steps}; i++) {
    el.scrollTop = ((el.scrollHeight - el.clientHeight) * i) / ${steps};
    const t = await frame();
    frames.push(t - last);
    last = t;
    maxRows = Math.max(maxRows, el.querySelectorAll('[data-testid=diff-row]').length);
    maxArcs = Math.max(maxArcs, el.querySelectorAll('.diff-arcs path').length);
  }
  return { frames, maxRows, maxArcs, bottom: el.scrollTop + el.clientHeight >= el.scrollHeight - 2 };
})()`;

/** Print the diff view's figures. */
export async function benchDiffView(browser: Browser, url: string, phases: Phases): Promise<void> {
  const file = diffBatch();
  const page = await browser.newPage({ viewport: { width: 1400, height: 900 }, bypassCSP: true });
  try {
    await openPage(page, url);
    // Pasted: a picked file over 2 MB is streamed, and the page compares a streamed file's
    // requests in the command line only.
    await page.evaluate(BUSY_WATCH);
    await page.evaluate(
      (t) => {
        const dt = new DataTransfer();
        dt.setData('text/plain', t);
        document.body.dispatchEvent(
          new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }),
        );
      },
      readFileSync(file, 'utf8'),
    );
    await waitLoaded(page, 600_000);
    await page.getByTestId('request-mark').nth(1).click();
    await page
      .locator('[data-testid=request-mark][aria-current="true"][data-index="1"]')
      .waitFor({ timeout: 600_000 });
    await page.locator('[data-testid=app][data-ready=true]').waitFor({ timeout: 600_000 });
    const start = Date.now();
    await page.getByTestId('diff-previous').click();
    await page.locator('[data-testid=diff-row]').first().waitFor({ timeout: 600_000 });
    const firstDraw = Date.now() - start;
    const rows = (await page.locator('.diff-table').getAttribute('aria-rowcount')) ?? '?';
    await page.waitForTimeout(1000);
    const s = (await phases.run(page, 'diff-scroll', () => page.evaluate(SCROLL(600)))) as {
      frames: number[];
      maxRows: number;
      maxArcs: number;
      bottom: boolean;
    };
    line(
      'diff_view_first_draw_ms_100k',
      firstDraw,
      'ms',
      `${path.basename(file)}: ${MESSAGES.toLocaleString('en-US')} vs ${(MESSAGES + MORE).toLocaleString('en-US')} messages, ${Number(rows) - 1} rows; Diff with previous → first row`,
    );
    line(
      'diff_view_scroll_long_frame_share_100k',
      share(s.frames),
      '',
      `${longFrames(s.frames)} frames > 50 ms of ${s.frames.length}, rows' pane top → bottom${s.bottom ? '' : ' (did not reach the bottom!)'}; target 0`,
    );
    line('diff_view_scroll_max_frame_ms_100k', worst(s.frames), 'ms');
    // The page thread's own time (not the wall clock a loaded machine stretches): what a frame costs.
    line(
      'diff_view_scroll_task_cpu_ms_per_frame_100k',
      phases.lastTotalTaskCpu / s.frames.length,
      'ms',
      `page-thread task time over the scroll ÷ ${s.frames.length} frames, thread time`,
    );
    line('diff_view_scroll_max_task_cpu_ms_100k', phases.lastMaxTaskCpu, 'ms', 'thread time');
    line('diff_view_rows_mounted_max', s.maxRows, 'rows');
    line('diff_view_arcs_mounted_max', s.maxArcs, 'paths');
  } finally {
    await page.close();
  }
}
