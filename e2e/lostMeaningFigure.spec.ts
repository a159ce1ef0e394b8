/**
 * "lost meaning N marks" on the simulator's policy cards (newcomer): its explanation was a hover
 * title only (no keyboard reach) and the marks themselves were not found. The figure is a
 * disclosure the keyboard opens; it says what a mark is and where the marks are, and the second
 * card, whose marks the page lists nowhere else, lists them in it.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test } from '@playwright/test';
import { renameTask } from './fixtures.ts';
import { openDefault, paste } from './helpers.ts';

test('the lost-meaning figure opens from the keyboard, says what a mark is and where the marks are', async ({
  page,
}, info) => {
  await openDefault(page);
  await paste(page, JSON.stringify(renameTask()));
  await expect(page.getByTestId('count-messages')).toHaveText('4');
  const total = Number(await page.getByTestId('budget-slider').getAttribute('max'));
  await page.getByTestId('budget-input').fill(String(Math.round(total * 0.3)));
  await page.getByTestId('budget-input').press('Enter');
  await expect(page.getByTestId('simulator-lost')).toBeVisible();

  const cards = page.getByTestId('policy-card');
  const first = cards.nth(0).getByTestId('policy-lost');
  await expect(first).toContainText('1 mark');
  const summary = first.locator('.lost-why > summary');
  await summary.focus();
  await expect(summary).toBeFocused();
  await page.keyboard.press('Enter');
  const where = cards.nth(0).getByTestId('policy-lost-where');
  await expect(where).toBeVisible();
  await expect(where).toContainText('evicted instruction');
  await expect(where).toContainText('listed under the cards');
  await expect(where).toContainText('amber bar');

  // The second card's marks are listed nowhere else: its figure lists them.
  const second = cards.nth(1).getByTestId('policy-lost');
  await expect(second).toContainText('1 mark');
  await expect(second.getByTestId('lost-mark')).toBeHidden();
  await second.locator('.lost-why > summary').click();
  await expect(cards.nth(1).getByTestId('policy-lost-where')).toContainText('listed here');
  await expect(second.getByTestId('lost-mark')).toHaveCount(1);
  await expect(second.getByTestId('lost-mark')).toBeVisible();
  await page.getByTestId('simulator').screenshot({ path: info.outputPath('lost-figures.png') });
  const axe = await new AxeBuilder({ page }).include('[data-testid="simulator"]').analyze();
  expect(axe.violations).toEqual([]);
});
