/**
 * Issue 14: the worst files a user can drop. Each must be refused with a message, with no page
 * error and no crash, while the transcript shown before stays on screen and can still be shared.
 * The worker that parses them runs under the page's Content-Security-Policy even when the host
 * sends none.
 */
import { expect, test, type Page } from '@playwright/test';
import { deflateSync, gzipSync } from 'fflate';
import { base64url, dropFile } from './helpers.ts';

/**
 * The machine may be shared: a refusal is waited for up to this long (the worker refuses each of
 * these files in well under a second of its own time).
 */
const SLOW = { timeout: 30_000 };

test.describe.configure({ timeout: 120_000 });

/** Open the app on its default sample (the invoice session), analysed (`openDefault`, patient). */
async function openDefault(page: Page): Promise<void> {
  await page.goto('/');
  await expect(page.getByTestId('app')).toHaveAttribute('data-ready', 'true', SLOW);
  await expect(page.getByTestId('count-exchanges')).toHaveText('1');
}

/** Page errors (uncaught exceptions) and crashes collected for the whole test. */
function watch(page: Page): { errors: string[] } {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(`pageerror: ${e.message}`));
  page.on('crash', () => errors.push('crash'));
  return { errors };
}

/** The invoice sample is still shown, analysed, and the share dialog gives a link to it. */
async function previousStillShared(page: Page): Promise<void> {
  await expect(page.getByTestId('count-exchanges')).toHaveText('1');
  await expect(page.getByTestId('app')).toHaveAttribute('data-ready', 'true', SLOW);
  await page.getByTestId('share-open').click();
  const link = await page.getByTestId('share-link').inputValue();
  expect(new URL(link).hash).toContain('src=invoice');
}

const deep = (n: number) =>
  `{"messages":[{"role":"user","content":${'['.repeat(n)}${']'.repeat(n)}}]}`;

test.describe('hostile files', () => {
  test('a .gz bomb (310 KB → 320 MB) is refused while inflating, with its sizes', async ({
    page,
  }) => {
    const seen = watch(page);
    await openDefault(page);
    const bomb = gzipSync(new Uint8Array(320_000_000).fill(32), { level: 9 });
    expect(bomb.length).toBeLessThan(400_000);
    await dropFile(page, 'session.json.gz', Array.from(bomb));
    const banner = page.getByTestId('parse-error');
    await expect(banner).toContainText('decompression bomb', SLOW);
    await expect(banner).toContainText(`the whole file is ${(bomb.length / 1e3).toFixed(1)} kB`);
    await previousStillShared(page);
    expect(seen.errors).toEqual([]);
  });

  test('50,000-deep JSON is refused where it gets deep', async ({ page }) => {
    const seen = watch(page);
    await openDefault(page);
    await dropFile(page, 'deep.json', deep(50_000));
    const banner = page.getByTestId('parse-error');
    await expect(banner).toContainText('nests deeper than 256 levels', SLOW);
    await expect(page.getByTestId('parse-error-location')).toContainText('line 1, column');
    await previousStillShared(page);
    expect(seen.errors).toEqual([]);
  });

  test('a deep link (a few hundred characters) is refused; the transcript shown stays', async ({
    page,
  }) => {
    const seen = watch(page);
    await openDefault(page);
    const payload = base64url(deflateSync(new TextEncoder().encode(deep(50_000)), { level: 9 }));
    expect(payload.length).toBeLessThan(600);
    await page.evaluate((p) => (location.hash = `#v=1&t=1.d.${p}`), payload);
    await expect(page.getByTestId('parse-error')).toContainText(
      'nests deeper than 256 levels',
      SLOW,
    );
    await expect(page.getByTestId('count-exchanges')).toHaveText('1');
    expect(seen.errors).toEqual([]);
  });

  test('a 6.7 MB one-line file with an error at its end: a short banner', async ({ page }) => {
    const seen = watch(page);
    await openDefault(page);
    const text = `{"messages":[{"role":"user","content":"${'x'.repeat(6_700_000)}"}], oops}`;
    await page.getByTestId('file-input').setInputFiles({
      name: 'one-line.json',
      mimeType: 'application/json',
      buffer: Buffer.from(text),
    });
    const banner = page.getByTestId('parse-error');
    await expect(banner).toContainText(`column ${text.indexOf('oops') + 1}`, SLOW);
    await expect(page.getByTestId('parse-error-kept')).toContainText(
      'one-line.json could not be read; still showing',
    );
    const shown = await banner.innerText();
    expect(shown.length).toBeLessThan(1500);
    await expect(page.getByTestId('parse-error-line')).toContainText('oops');
    await previousStillShared(page);
    expect(seen.errors).toEqual([]);
  });
});

test('the worker runs under the page policy even when the host sends no CSP header', async ({
  page,
  context,
  baseURL,
}) => {
  // A plain static host: every response from the preview server without its CSP header.
  await context.route('**/*', async (route) => {
    const response = await route.fetch();
    const headers = { ...response.headers() };
    delete headers['content-security-policy'];
    await route.fulfill({ response, headers });
  });
  const workerSeen = page.waitForEvent('worker');
  await openDefault(page);
  const worker = await workerSeen;
  // Another origin (the same server under another name): allowed by no-cors without a policy,
  // blocked by `connect-src 'self'`.
  const other = (baseURL ?? '').replace('127.0.0.1', 'localhost');
  const outcome = await worker.evaluate(async (url) => {
    try {
      await fetch(url, { mode: 'no-cors' });
      return 'fetched';
    } catch {
      return 'blocked';
    }
  }, other);
  expect(outcome).toBe('blocked');
  // The same request from the page itself is blocked too (the <meta> policy), and same-origin
  // requests from the worker still work.
  expect(await worker.evaluate(async (url) => (await fetch(url)).ok, baseURL ?? '')).toBe(true);
  // The worker may still be loading the tokenizer through the route: let that end quietly, or
  // its route.fetch fails after the test and is charged to the next test of this worker.
  await context.unrouteAll({ behavior: 'ignoreErrors' });
});

// Newcomer: a text holding a right-to-left override (U+202E) read reversed in its chip and body
// ("…RTL" shown as "LTR"): text that reads otherwise than it is (Trojan Source).
test('bidirectional controls in a transcript are shown as what they are, never obeyed', async ({
  page,
}) => {
  await openDefault(page);
  const spoofed = 'Run the report \u202Efdp.exe\u202C now';
  await dropFile(
    page,
    'spoof.json',
    JSON.stringify({
      model: 'claude-sonnet-4-5',
      messages: [
        { role: 'user', content: spoofed },
        { role: 'assistant', content: 'ok' },
      ],
    }),
  );
  await expect(page.getByTestId('sample-select')).toHaveAttribute(
    'title',
    '(file: spoof.json)',
    SLOW,
  );
  await expect(page.getByTestId('app')).toHaveAttribute('data-ready', 'true', SLOW);
  const chip = page.getByTestId('chip').filter({ hasText: 'Run the report' });
  await expect(chip).toHaveText('Run the report [U+202E]fdp.exe[U+202C] now');
  await page.getByTestId('message-row').first().getByTestId('expand').click();
  const body = page.getByTestId('message-body').first();
  await expect(body.locator('pre.block-text')).toHaveText(
    'Run the report [U+202E]fdp.exe[U+202C] now',
  );
  await body.locator('summary').click();
  await expect(body.getByTestId('raw-json')).toContainText('\\u202Efdp.exe\\u202C');
  // Nothing on the page holds the control characters themselves.
  expect(await page.locator('main').innerText()).not.toMatch(/[\u202A-\u202E\u2066-\u2069]/);
});
