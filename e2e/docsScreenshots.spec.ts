import { expect, test } from '@playwright/test';
import path from 'node:path';
import { partialCodingAgent, repoRoot } from './fixtures.ts';
import { openDefault, paste } from './helpers.ts';

// The README's pictures of the layout at three widths (issue 16): 1440 × 900, 800 px and 320 px
// (400 % zoom), on the coding-agent session with one parallel result dropped. A test run writes
// them into its own output folder; `UPDATE_SCREENSHOT=1 npx playwright test
// e2e/docsScreenshots.spec.ts` refreshes the copies in docs/.
for (const [width, height] of [
  [1440, 900],
  [800, 900],
  [320, 900],
] as const)
  test(`layout screenshot at ${width} px`, async ({ page }, info) => {
    test.setTimeout(120_000);
    await page.emulateMedia({ colorScheme: 'light' });
    await page.setViewportSize({ width, height });
    await openDefault(page);
    await paste(page, partialCodingAgent().text);
    await expect(page.getByTestId('count-exchanges')).toHaveText('9', { timeout: 30_000 });
    await expect(page.getByTestId('token-basis')).toContainText('o200k_base', { timeout: 30_000 });
    expect(
      await page.evaluate(
        () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
      ),
    ).toBeLessThanOrEqual(0);
    const name = `layout-${width}.png`;
    const target =
      process.env.UPDATE_SCREENSHOT === '1'
        ? path.join(repoRoot, 'docs', name)
        : info.outputPath(name);
    await page.screenshot({ path: target });
  });
