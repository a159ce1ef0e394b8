/**
 * What the browser benches share (scripts/benchBrowser.ts, scripts/benchLoad.ts,
 * scripts/benchKeys.ts): the generated inputs, the production build on a preview server, a
 * Chromium, and the in-page helpers (a frame recorder, a first-rows watcher) with the waits
 * on the page's state.
 */
import { systemChromium } from './chromium.ts';
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { chromium, type Browser, type Page } from '@playwright/test';
import { preview, type PreviewServer } from 'vite';
import { generate } from './gen.ts';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const dataDir = path.join(root, 'bench-data');
export const buildDir = path.join(root, 'node_modules/.tmp/bench-dist');

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
export const PAGE_HELPERS = `
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

export async function openPage(page: Page, url: string): Promise<void> {
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

/**
 * In-page: `window.__busy` turns true at the first change of the app that shows a load under way
 * (`data-ready` false, or the progress bar), caught by a MutationObserver so that no transition
 * is missed between two polls. A pick reads the file's head before the page changes, so the
 * previous document is still shown "ready" for a while after the input's `change`.
 */
export const BUSY_WATCH = `
window.__busy = false;
(() => {
  const busy = () => document.querySelector('[data-testid=app]')?.getAttribute('data-ready') !== 'true' ||
    !!document.querySelector('[data-testid=load-progress]');
  const seen = new MutationObserver(() => {
    if (busy()) { window.__busy = true; seen.disconnect(); }
  });
  seen.observe(document.body, { subtree: true, childList: true, attributes: true, attributeFilter: ['data-ready'] });
})();
`;

/**
 * Pick `file` in the page's file input and wait until its complete analysis is shown: the page
 * went busy after the pick, then ready with no progress bar (never the previous document's
 * "ready").
 */
export async function pickAndWait(page: Page, file: string, timeout: number): Promise<void> {
  await page.evaluate(BUSY_WATCH);
  await page.locator('[data-testid=file-input]').setInputFiles(file);
  await waitLoaded(page, timeout);
}

/** Wait until the load that `BUSY_WATCH` saw start has ended (see `pickAndWait`). */
export async function waitLoaded(page: Page, timeout: number): Promise<void> {
  await page.waitForFunction(
    () =>
      (window as unknown as { __busy?: boolean }).__busy === true &&
      document.querySelector('[data-testid=app]')?.getAttribute('data-ready') === 'true' &&
      !document.querySelector('[data-testid=load-progress]'),
    undefined,
    { timeout, polling: 100 },
  );
}

/** A count as the page prints it (`67,302`) as a number. */
export const shownCount = (text: string | null) => Number((text ?? '').replace(/,/g, '')) || NaN;

/** Frames longer than 50 ms. */
export const longFrames = (frames: number[]) => frames.filter((f) => f > 50).length;
export const share = (frames: number[]) => (frames.length ? longFrames(frames) / frames.length : 0);
export const worst = (frames: number[]) => frames.reduce((a, b) => Math.max(a, b), 0);

/**
 * The production build in `node_modules/.tmp/bench-dist` (unminified, `-profile`, when profiling;
 * rebuilt unless `skipBuild` and it exists) on a preview server at 127.0.0.1:$BENCH_PORT (any
 * free port when unset: agents sharing a machine each pass their own).
 */
export async function serveBuild(profile: boolean, skipBuild: boolean): Promise<PreviewServer> {
  const outDir = profile ? `${buildDir}-profile` : buildDir;
  if (!skipBuild || !existsSync(outDir))
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
        ...(profile ? ['--minify', 'false'] : []),
      ],
      { cwd: root, stdio: 'inherit' },
    );
  const port = Number(process.env.BENCH_PORT ?? 0);
  return preview({
    root,
    logLevel: 'error',
    build: { outDir },
    preview: { port, host: '127.0.0.1', strictPort: port > 0 },
  });
}

/** Stop a preview server. */
export function closeServer(server: PreviewServer): Promise<void> {
  return new Promise<void>((r) => server.httpServer.close(() => r()));
}

/** A Chromium (`systemChromium`, else Playwright's own) with precise `performance.memory`. */
export function launchChromium(): Promise<Browser> {
  const executablePath = systemChromium();
  return chromium.launch({
    ...(executablePath ? { executablePath } : {}),
    args: [
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
      '--enable-precise-memory-info',
    ],
  });
}
