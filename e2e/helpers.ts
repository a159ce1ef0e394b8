/**
 * Shared e2e steps: open the app and wait until it shows an analysed transcript, paste or drop
 * text as a user would, save what a button downloads. Data the specs feed in lives in ./fixtures.ts.
 */
import { readFileSync } from 'node:fs';
import { expect, type Page } from '@playwright/test';

/**
 * Open a URL and wait until the page shows an analysed transcript (`data-ready` on the app).
 * @param url a path with an optional hash (a permalink), relative to the baseURL
 */
export async function openApp(page: Page, url = '/'): Promise<void> {
  await page.goto(url);
  await expect(page.getByTestId('app')).toHaveAttribute('data-ready', 'true');
}

/** Open the app on its default sample (the invoice session: one exchange), analysed. */
export async function openDefault(page: Page): Promise<void> {
  await openApp(page);
  await expect(page.getByTestId('count-exchanges')).toHaveText('1');
}

/**
 * Wait until the file `name` just picked or dropped is the transcript shown, read whole and
 * drawn. The page reads a file's first bytes before it switches to it, so right after the pick
 * `data-ready` (and no progress bar) may still be the previous transcript's: the Sample menu
 * naming the file (the source shown, its preview's included) comes first, then the end of the
 * load, then `data-ready`.
 * @param name the file's name as picked (without a `.gz` the page drops)
 * @param timeout for each of the three waits (a large file on a busy machine takes long)
 */
export async function fileShown(page: Page, name: string, timeout = 60_000): Promise<void> {
  await expect(page.getByTestId('sample-select')).toHaveAttribute('title', `(file: ${name})`, {
    timeout,
  });
  await expect(page.getByTestId('load-progress')).toHaveCount(0, { timeout });
  await expect(page.getByTestId('app')).toHaveAttribute('data-ready', 'true', { timeout });
}

/** Paste text as the user would with Ctrl/Cmd+V outside any text field. */
export async function paste(page: Page, text: string): Promise<void> {
  await page.evaluate((t) => {
    const dt = new DataTransfer();
    dt.setData('text/plain', t);
    document.body.dispatchEvent(
      new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }),
    );
  }, text);
}

/**
 * Drop a file on the page (a real DataTransfer carrying a File).
 * @param content the file's text, or its bytes as numbers 0–255
 */
export async function dropFile(
  page: Page,
  name: string,
  content: string | number[],
): Promise<void> {
  const dt = await page.evaluateHandle(
    ([n, c]) => {
      const dt = new DataTransfer();
      const data = typeof c === 'string' ? c : new Uint8Array(c);
      dt.items.add(new File([data], n, { type: 'application/octet-stream' }));
      return dt;
    },
    [name, content] as const,
  );
  await page.dispatchEvent('body', 'dragover', { dataTransfer: dt });
  await page.dispatchEvent('body', 'drop', { dataTransfer: dt });
}

/** Bytes → base64url without padding (what the permalink codec writes). */
export function base64url(bytes: Uint8Array): string {
  return Buffer.from(bytes)
    .toString('base64')
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

/**
 * Click a download button and read the file it saves.
 * @returns the file's suggested name and its bytes (`.toString('utf8')` for text)
 */
export async function saveDownload(
  page: Page,
  testId: string,
): Promise<{ name: string; bytes: Buffer }> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId(testId).click(),
  ]);
  return { name: download.suggestedFilename(), bytes: readFileSync(await download.path()) };
}

/** The request strip's marks (one per request of a file holding several). */
export function requestMarks(page: Page) {
  return page.getByTestId('request-mark');
}

/** The labels of the strip's marks, in order (what the parser calls each request). */
export async function requestLabels(page: Page): Promise<string[]> {
  return requestMarks(page).evaluateAll((els) =>
    els.map((e) => e.getAttribute('data-label') ?? ''),
  );
}

/** Show request `index` (0-based) by its mark on the strip. */
export async function pickRequest(page: Page, index: number): Promise<void> {
  await requestMarks(page).nth(index).click();
}

/** The mark of the request shown (`aria-current`). */
export function shownRequestMark(page: Page) {
  return page.locator('[data-testid="request-mark"][aria-current="true"]');
}

/**
 * Hold a streamed load open for as long as the test needs it, whatever the machine's speed (call
 * before the page opens). Every worker's messages after its first `preview` (but its progress)
 * are kept on the page, in order, until `releaseLoad(page)` hands them over: the preview, the
 * progress bar and Cancel stay on screen meanwhile (a fast machine answers a 40 MB file before a
 * test's click; CI did). A worker the page terminates (Cancel) drops what was held for it, as a
 * terminated worker delivers nothing. Workers that post no preview (share copy, fleet scan) are
 * never held.
 */
export async function holdLoadAfterPreview(page: Page): Promise<void> {
  await page.addInitScript(() => {
    type Handler = ((ev: MessageEvent) => unknown) | null;
    const held = new Map<Worker, (() => void)[]>();
    let releasing = false;
    const w = window as unknown as { releaseLoad: () => void };
    w.releaseLoad = () => {
      releasing = true;
      for (const queue of held.values()) for (const deliver of queue.splice(0)) deliver();
    };
    const terminate = Object.getOwnPropertyDescriptor(Worker.prototype, 'terminate');
    if (typeof terminate?.value !== 'function') throw new Error('no Worker.terminate');
    const stop = terminate.value as (this: Worker) => void;
    Object.defineProperty(Worker.prototype, 'terminate', {
      ...terminate,
      value(this: Worker) {
        held.delete(this);
        stop.call(this);
      },
    });
    const own = Object.getOwnPropertyDescriptor(Worker.prototype, 'onmessage');
    if (!own?.set) throw new Error('no Worker.onmessage setter');
    const set = own.set;
    Object.defineProperty(Worker.prototype, 'onmessage', {
      ...own,
      set(this: Worker, handler: Handler) {
        let previewed = false;
        set.call(this, (ev: MessageEvent) => {
          const kind = (ev.data as { kind?: string } | null)?.kind;
          if (!releasing && previewed && kind !== 'progress') {
            const queue = held.get(this) ?? [];
            held.set(this, queue);
            queue.push(() => handler?.call(this, ev));
            return;
          }
          if (kind === 'preview') previewed = true;
          return handler?.call(this, ev);
        });
      },
    });
  });
}

/** Hand a load held by `holdLoadAfterPreview` its answers (and every later message). */
export async function releaseLoad(page: Page): Promise<void> {
  await page.evaluate(() => (window as unknown as { releaseLoad: () => void }).releaseLoad());
}
