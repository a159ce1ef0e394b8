/**
 * The diff view at 390 px (newcomer): its right column was cut off ("#121 user [tool") with no
 * way to reach it, and its arcs were off screen. At narrow widths one side shows at a time, with
 * its arcs, and a switch picks the side; nothing is wider than the window, the page included.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Locator, type Page } from '@playwright/test';
import { fileShown, openDefault } from './helpers.ts';
import { compactedSessionLog } from './sessionLog.ts';

const log = compactedSessionLog();

/** The element's box lies inside the window's width (and is not empty). */
async function insideWidth(el: Locator, width: number): Promise<boolean> {
  const box = await el.boundingBox();
  return box !== null && box.width > 0 && box.x >= -0.5 && box.x + box.width <= width + 0.5;
}

async function openDiff(page: Page) {
  await openDefault(page);
  await page.getByTestId('file-input').setInputFiles({
    name: 'session.jsonl',
    mimeType: 'application/x-ndjson',
    buffer: Buffer.from(log),
  });
  await fileShown(page, 'session.jsonl');
  await page.getByTestId('strip-first-failing').click();
  await page.getByTestId('diff-previous').click();
  await expect(page.getByTestId('diff-summary')).toBeVisible();
}

test('at 390 px each side of the diff can be shown whole, with its arcs; no sideways scroll', async ({
  page,
}, info) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openDiff(page);
  const row = page.getByTestId('diff-row').filter({ has: page.locator('.side-right:not(.empty)') });
  const right = row.first().locator('.side-right');
  // The right side (the request that gets the 400) first: whole on screen, with its arcs.
  await expect(right).toBeVisible();
  expect(await insideWidth(right, 390)).toBe(true);
  const arcs = page.getByTestId('diff-arcs-right');
  expect(await insideWidth(arcs, 390)).toBe(true);
  await expect(arcs.locator('path').first()).toBeAttached();
  await page.getByTestId('diff-view').scrollIntoViewIfNeeded();
  await page.screenshot({ path: info.outputPath('diff-390-right.png') });
  const scroll = page.locator('.diff-scroll');
  expect(await scroll.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);

  // The switch shows the left side the same way.
  await expect(page.getByTestId('diff-show-right')).toHaveAttribute('aria-pressed', 'true');
  await page.getByTestId('diff-show-left').click();
  await expect(page.getByTestId('diff-show-left')).toHaveAttribute('aria-pressed', 'true');
  const left = page
    .getByTestId('diff-row')
    .filter({ has: page.locator('.side-left:not(.empty)') })
    .first()
    .locator('.side-left');
  await expect(left).toBeVisible();
  expect(await insideWidth(left, 390)).toBe(true);
  expect(await insideWidth(page.getByTestId('diff-arcs-left'), 390)).toBe(true);
  await expect(page.locator('.diff-table .side-right').first()).toBeHidden();
  expect(await scroll.evaluate((el) => el.scrollWidth <= el.clientWidth + 1)).toBe(true);
  expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(390);
  const axe = await new AxeBuilder({ page }).include('[data-testid="diff-view"]').analyze();
  expect(axe.violations).toEqual([]);
});

test('at 1400 px both sides show side by side, and no side switch', async ({ page }) => {
  await openDiff(page);
  await expect(page.getByTestId('diff-side-switch')).toBeHidden();
  await expect(page.locator('.diff-table .side-left').first()).toBeVisible();
  await expect(page.locator('.diff-table .side-right').first()).toBeVisible();
});
