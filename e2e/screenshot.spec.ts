import { expect, test } from '@playwright/test';
import path from 'node:path';
import { partialCodingAgent, repoRoot } from './fixtures.ts';
import { openDefault, paste } from './helpers.ts';

// The README's picture: the coding-agent session with one parallel result dropped (a partial
// answer), the broken pair selected. Volatile parts are stable: samples are fixed, no clocks.
// A test run writes the picture into its own output folder; `UPDATE_SCREENSHOT=1 npx playwright
// test e2e/screenshot.spec.ts` refreshes the README's copy in docs/.
test('screenshot of a broken transcript for the README', async ({ page }, testInfo) => {
  await page.emulateMedia({ colorScheme: 'light' });
  await openDefault(page);
  const { text, message } = partialCodingAgent();
  await paste(page, text);
  await expect(page.getByTestId('count-broken')).toHaveText('1');
  await expect(page.getByTestId('token-basis')).toContainText('o200k_base');
  await page.getByTestId('jump').first().click();
  const row = page.locator(`[data-message-index="${message}"] .msg`);
  await expect(row).toHaveClass(/selected/);
  await expect(row).toBeInViewport();
  // Centre the broken pair for the picture (the jump only scrolls when the row is off screen).
  await row.evaluate((el) => el.scrollIntoView({ block: 'center' }));
  await expect(row).toBeInViewport({ ratio: 1 });
  const target =
    process.env.UPDATE_SCREENSHOT === '1'
      ? path.join(repoRoot, 'docs/screenshot.png')
      : testInfo.outputPath('screenshot.png');
  await page.screenshot({ path: target });
});
