/**
 * The address and the tab's history follow what is shown (found by a reviewer): a small file
 * that fails to parse is not named by the address, nor shown instead of the transcript after a
 * reload; its text stays in the box. Back to the entry of a failed paste shows that entry's own
 * transcript under its error, not a later entry's. An edit of the text is an entry of its own,
 * one per edit session, so Back returns to the transcript before it.
 */
import { expect, test, type Page } from '@playwright/test';
import { generate } from '../scripts/gen.ts';
import { partialCodingAgent } from './fixtures.ts';
import { openDefault, paste } from './helpers.ts';

/** The machine may be shared: parsing and reloads are waited for this long. */
const SLOW = { timeout: 30_000 };

/** The invoice sample (the default) shows 3 messages. */
const INVOICE_MESSAGES = '3';

/** The partial coding-agent session (50 messages), pasted and analysed. */
async function pasteWork(page: Page): Promise<void> {
  await paste(page, partialCodingAgent().text);
  await expect(page.getByTestId('count-messages')).toHaveText('50', SLOW);
  await expect(page.getByTestId('app')).toHaveAttribute('data-ready', 'true', SLOW);
}

/** A small generated transcript (not the invoice, not the coding-agent session). */
const OTHER = generate({ format: 'anthropic-messages', seed: 21, messages: 7 });

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
    // The entry is shown as it was: the failed text in the box, with its error.
    await expect(page.getByTestId('source-text')).toHaveValue(content);
    await expect(page.getByTestId('parse-error')).toBeVisible();
  });
}

test('Back to the entry of a failed paste shows its text and error over the transcript then shown', async ({
  page,
}) => {
  await openDefault(page);
  await pasteWork(page);
  const bad = '{"messages": [ {"role": "user", "content": ';
  await paste(page, bad);
  await expect(page.getByTestId('parse-error')).toBeVisible();
  await expect(page.getByTestId('count-messages')).toHaveText('50');
  await paste(page, OTHER);
  await expect(page.getByTestId('count-messages')).not.toHaveText('50', SLOW);
  await expect(page.getByTestId('parse-error')).toHaveCount(0);
  const other = (await page.getByTestId('count-messages').textContent()) ?? '';

  await page.goBack();
  await expect(page.getByTestId('count-messages')).toHaveText('50', SLOW);
  await expect(page.getByTestId('parse-error')).toBeVisible();
  await expect(page.getByTestId('source-text')).toHaveValue(bad);
  // A reload of that entry shows it the same way.
  await page.reload();
  await expect(page.getByTestId('app')).toHaveAttribute('data-ready', 'true', SLOW);
  await expect(page.getByTestId('count-messages')).toHaveText('50');
  await expect(page.getByTestId('parse-error')).toBeVisible();
  await expect(page.getByTestId('source-text')).toHaveValue(bad);

  await page.goBack();
  await expect(page.getByTestId('count-messages')).toHaveText('50', SLOW);
  await expect(page.getByTestId('parse-error')).toHaveCount(0);
  await page.goForward();
  await page.goForward();
  await expect(page.getByTestId('count-messages')).toHaveText(other, SLOW);
  await expect(page.getByTestId('parse-error')).toHaveCount(0);
});

test('an edit of the text is an entry of its own (one per edit session): Back shows the transcript before it', async ({
  page,
}) => {
  // Opened from another page, so that a Back too many would leave the app.
  await page.goto('about:blank');
  await openDefault(page);
  await expect(page).toHaveURL(/src=invoice/);
  const before = await page.evaluate(() => history.length);
  await page.getByRole('button', { name: 'Edit text' }).click();
  const box = page.getByTestId('source-text');
  await box.fill(OTHER);
  await expect(page.getByTestId('count-messages')).not.toHaveText(INVOICE_MESSAGES, SLOW);
  const edited = (await page.getByTestId('count-messages').textContent()) ?? '';
  // More keystrokes of the same edit session: no entry each.
  await box.press('End');
  await box.pressSequentially('  \n');
  // Also through text that does not parse on the way (it goes back to the box, not to history).
  await box.pressSequentially('x');
  await expect(page.getByTestId('parse-error')).toBeVisible();
  await box.press('Backspace');
  await expect(page.getByTestId('parse-error')).toHaveCount(0);
  await expect(page.getByTestId('app')).toHaveAttribute('data-ready', 'true', SLOW);
  expect(await page.evaluate(() => history.length)).toBe(before + 1);

  await page.goBack();
  await expect(page.getByTestId('count-messages')).toHaveText(INVOICE_MESSAGES, SLOW);
  await expect(page).toHaveURL(/src=invoice/);
  await page.goForward();
  await expect(page.getByTestId('count-messages')).toHaveText(edited, SLOW);
  await expect(box).toHaveValue(`${OTHER}  \n`);
});
