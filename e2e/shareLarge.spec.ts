/**
 * Sharing a transcript too large for a link, and opening links that hold no transcript (the
 * newcomer report: a frozen Share dialog, a link the page then refused, and the Invoice sample
 * shown under someone else's view). Assertions are on text and URLs, never on time.
 */
import { expect, test, type Page } from '@playwright/test';
import { deflateSync } from 'fflate';
import { generate } from '../scripts/gen.ts';
import { base64url, fileShown, openApp } from './helpers.ts';

/** A Claude Code log of a few MB: above the 2 MiB a link carries, small enough to load fast. */
const LOG_NAME = 'session-large.jsonl';
const log = generate({ format: 'claude-code-jsonl', messages: 2500, seed: 7 });

async function openLog(page: Page): Promise<void> {
  await page.getByTestId('file-input').setInputFiles({
    name: LOG_NAME,
    mimeType: 'application/x-ndjson',
    buffer: Buffer.from(log),
  });
  await fileShown(page, LOG_NAME);
}

test.describe('sharing a large transcript', () => {
  test('the dialog offers no inline link, says why; the view link names the file and opens as view-only', async ({
    page,
    context,
  }) => {
    test.setTimeout(90_000);
    expect(Buffer.byteLength(log)).toBeGreaterThan(2 * 1024 * 1024);
    await openApp(page, '/#v=1&src=invoice&b=5000');
    await openLog(page);
    const messages = await page.getByTestId('count-messages').innerText();

    await page.getByTestId('share-open').click();
    // Why, once: on the view link it applies to; the structure-only section points to it.
    const tooLarge = page.getByTestId('structure-too-large');
    await expect(tooLarge).toHaveText(
      'Not offered for a transcript this size: see the link above.',
    );
    await expect(page.getByTestId('structure-link')).toHaveCount(0);
    await expect(page.getByTestId('share-view-only')).toContainText(
      'This link holds the view only, not the transcript. The transcript is 2.8 MiB; a link carries at most 2 MiB of transcript.',
    );
    await expect(page.getByTestId('share-view-only')).toContainText(
      'send the file along with the link',
    );
    await expect(page.getByTestId('share-view-only')).toContainText(
      `open the same file (“${LOG_NAME}”)`,
    );
    const link = await page.getByTestId('share-link').inputValue();
    const fragment = new URL(link).hash;
    expect(fragment).toContain(`n=${LOG_NAME}`);
    expect(fragment).toContain('b=5000');
    expect(fragment).not.toContain('t=');
    expect(fragment).not.toContain('src=');

    // The reader: no stand-in sample, the address kept, the file named.
    const other = await context.newPage();
    await other.goto(link);
    const notice = other.locator(`[data-testid=permalink-notices] [data-notice=view-only]`);
    await expect(notice).toContainText('This link holds a view only (budget 5,000 tokens');
    await expect(notice).toContainText(`It was made for the file “${LOG_NAME}”`);
    await expect(other.getByTestId('count-exchanges')).toHaveCount(0);
    // The empty page says what to do, not "Loading…".
    await expect(other.getByTestId('loading')).toHaveText(
      `No transcript yet: open “${LOG_NAME}” (Open file…, or drop it anywhere on the page) to see the shared view.`,
    );
    await expect(other).toHaveURL(link);

    // Opening the named file shows the shared view, and the address still says the same.
    await openLog(other);
    await expect(other.getByTestId('count-messages')).toHaveText(messages);
    await expect(other.getByTestId('budget-input')).toHaveValue('5,000');
    await expect(other).toHaveURL(new RegExp(`n=${LOG_NAME.replace(/\./g, '\\.')}.*b=5000`));
    await expect(other).not.toHaveURL(/src=/);
  });

  test('a link whose transcript is refused shows no sample; its budget and the address agree', async ({
    page,
  }) => {
    // What the old share dialog could write: a structure-only text past the decoder's 16 MiB.
    const text = JSON.stringify({
      messages: Array.from({ length: 420_000 }, (_, i) => ({
        role: i % 2 ? 'assistant' : 'user',
        content: 'xxxx xxx xx',
      })),
    });
    expect(text.length).toBeGreaterThan(16 * 1024 * 1024);
    const payload = base64url(deflateSync(Buffer.from(text), { level: 9 }));
    await page.goto(`/#v=1&t=1.d.${payload}&r=1&b=5000000`);
    const notices = page.getByTestId('permalink-notices');
    await expect(notices).toContainText('expands beyond 16 MiB and was refused');
    await expect(notices.locator('[data-notice=view-only]')).toContainText(
      'No transcript is shown: the one in this link was refused',
    );
    await expect(notices.locator('[data-notice=view-only]')).toContainText(
      'budget 5,000,000 tokens',
    );
    await expect(page.getByTestId('count-exchanges')).toHaveCount(0);
    await expect(page).toHaveURL(/b=5000000/);
    await expect(page).not.toHaveURL(/src=invoice/);

    // The reader may still look at a sample, by choice.
    await page.getByTestId('permalink-show-sample').click();
    await expect(page.getByTestId('count-exchanges')).toHaveText('1');
  });

  test('a view-only link made before links named their file says it holds a view only', async ({
    page,
  }) => {
    await page.goto('/#v=1&b=5000000');
    await expect(page.locator('[data-notice=view-only]')).toContainText(
      'does not say which transcript it was made for',
    );
    await expect(page.getByTestId('count-exchanges')).toHaveCount(0);
    // The page keeps the link as it is (no src=invoice written back).
    await page.waitForTimeout(600);
    expect(new URL(page.url()).hash).toBe('#v=1&b=5000000');
  });
});
