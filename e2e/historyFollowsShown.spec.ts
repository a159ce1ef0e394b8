/**
 * The address and the tab's history follow what is shown (found by a reviewer): a small file
 * that fails to parse is not named by the address, nor shown instead of the transcript after a
 * reload; its text stays in the box.
 */
import { expect, test } from '@playwright/test';
import { openDefault } from './helpers.ts';

/** The machine may be shared: parsing and reloads are waited for this long. */
const SLOW = { timeout: 30_000 };

/** The invoice sample (the default) shows 4 messages. */
const INVOICE_MESSAGES = '4';

for (const [name, content] of [
  ['null.json', 'null'],
  ['bad.json', '{ "messages": [ {"role": "user", '],
  ['packed.json.gz', 'not gzip at all'],
] as const) {
  test(`a small file that fails to parse (${name}): the address and a reload keep the transcript shown`, async ({
    page,
  }) => {
    await openDefault(page);
    await expect(page).toHaveURL(/src=invoice/);
    await page.getByTestId('file-input').setInputFiles({
      name,
      mimeType: 'application/octet-stream',
      buffer: Buffer.from(content),
    });
    await expect(page.getByTestId('parse-error')).toBeVisible();
    // The user's text stays in the box, to be fixed there.
    await expect(page.getByTestId('source-text')).toHaveValue(content);
    await expect(page.getByTestId('count-messages')).toHaveText(INVOICE_MESSAGES);
    // The address names what is shown, not the failed file.
    await expect(page).toHaveURL(/src=invoice/);
    await expect(page).not.toHaveURL(/n=/);

    await page.reload();
    await expect(page.getByTestId('app')).toHaveAttribute('data-ready', 'true', SLOW);
    await expect(page.getByTestId('count-messages')).toHaveText(INVOICE_MESSAGES);
    await expect(page).toHaveURL(/src=invoice/);
    await expect(page).not.toHaveURL(/n=/);
  });
}
