/**
 * A message whose source cannot be read again does not take the page down: the rows of a
 * streamed log read their source from the file's bytes when first drawn (the worker parsed the
 * same bytes, so only a defect makes that read fail). Here the page's UTF-8 decoder is made to
 * fail on one record: its row says which message, where and why, and the rest of the page works.
 */
import { expect, test } from '@playwright/test';
import { generate } from '../scripts/gen.ts';
import { fileShown, openApp } from './helpers.ts';

// A Claude Code log of about 2,000 messages and 3 MB: streamed by the worker (over 2 MiB), so
// the page reads each row's raw from the file's bytes.
const LOG = generate({ format: 'claude-code-jsonl', messages: 2500, mb: 3, seed: 11 });
const LINES = LOG.split('\n');
const BROKEN_LINE = 1200; // 1-based
// Its own uuid (the next record names it as `parentUuid`, which this does not match).
const MARK = `"uuid":"${(JSON.parse(LINES[BROKEN_LINE - 1] as string) as { uuid: string }).uuid}"`;

test('a row whose source cannot be read again says so; the rest of the page stays', async ({
  page,
}) => {
  const pageErrors: string[] = [];
  page.on('pageerror', (e) => pageErrors.push(e.message));
  // Only the page's decoder (not the worker's): reading that one record again fails.
  await page.addInitScript((mark: string) => {
    const decode = TextDecoder.prototype.decode;
    TextDecoder.prototype.decode = function (this: TextDecoder, ...args) {
      const text = decode.apply(this, args);
      if (text.length < 100_000 && text.includes(mark))
        throw new TypeError('the decoder failed (test)');
      return text;
    };
  }, MARK);
  await openApp(page);
  await page.getByTestId('file-input').setInputFiles({
    name: 'session.jsonl',
    mimeType: 'application/x-ndjson',
    buffer: Buffer.from(LOG),
  });
  await fileShown(page, 'session.jsonl', 120_000);

  await page.getByTestId('find').fill('could not be read again');
  await expect(page.getByTestId('find-count')).toHaveText('1 match');
  await page.getByTestId('find-next').click();
  const row = page.locator('[data-message-index][aria-selected="true"]');
  // The row's chip begins the note; opened, the row gives all of it, and the raw view the same.
  await expect(row).toContainText(
    new RegExp(`\\(message \\d+ \\(line ${BROKEN_LINE}\\) could not be read again`),
  );
  await row.getByTestId('expand').click();
  const body = row.getByTestId('message-body');
  await expect(body).toContainText(
    `(line ${BROKEN_LINE}) could not be read again from the source: the decoder failed (test))`,
  );
  await expect(body).toContainText('"unreadable"');
  // The verdict, the other rows and every part of the page are there.
  await expect(page.getByTestId('part-error')).toHaveCount(0);
  await expect(page.locator('.side-column')).toContainText(/HTTP 400|valid/i);
  await expect(page.locator('[data-testid=message-row]').nth(3)).toBeVisible();
  expect(pageErrors).toEqual([]);
});
