/**
 * The bar between the open simulator and the timeline (newcomer finding: at 1440×900 the
 * simulator's capped height cut its policy cards, with nothing saying so). It resizes by keyboard
 * and by drag, never squeezes the timeline away, and is gone where the column flows in the page.
 */
import { expect, test, type Locator } from '@playwright/test';
import { openDefault } from './helpers.ts';

const box = async (l: Locator) => {
  const b = await l.boundingBox();
  if (!b) throw new Error('not laid out');
  return b;
};
const clipped = (l: Locator) => l.evaluate((el) => el.scrollHeight - el.clientHeight);

test.describe('at 1440×900', () => {
  test.use({ viewport: { width: 1440, height: 900 } });

  test('the keyboard gives the simulator room for its whole cards, and back', async ({ page }) => {
    await openDefault(page);
    const sim = page.getByTestId('simulator');
    const bar = page.getByRole('separator', { name: /Eviction simulator height/ });
    await expect(bar).toBeVisible();
    // By default the cards do not fit (what the newcomer saw).
    expect(await clipped(sim)).toBeGreaterThan(20);
    const before = (await box(sim)).height;
    const valueBefore = Number(await bar.getAttribute('aria-valuenow'));
    expect(valueBefore).toBeGreaterThan(15);
    await bar.focus();
    await page.keyboard.press('ArrowDown');
    await expect.poll(async () => (await box(sim)).height).toBeGreaterThan(before + 20);
    // The bar's ↓ is its own: the timeline's selection did not move.
    await expect(page.getByRole('button', { name: /Drop this message/ })).toHaveCount(0);
    // One step is five points of the column's height.
    expect(Number(await bar.getAttribute('aria-valuenow'))).toBeGreaterThanOrEqual(valueBefore + 4);
    await page.keyboard.press('End');
    await expect(bar).toHaveAttribute('aria-valuenow', '85');
    // Now everything in the simulator shows, and the timeline keeps rows of its own.
    await expect.poll(() => clipped(sim)).toBeLessThanOrEqual(1);
    const timeline = page.locator('.left > .timeline-scroll');
    expect((await box(timeline)).height).toBeGreaterThanOrEqual(100);
    await expect(page.getByText('#0', { exact: true })).toBeVisible();
    await page.keyboard.press('Enter');
    await expect.poll(async () => Math.round((await box(sim)).height)).toBe(Math.round(before));
  });

  test('dragging the bar moves the boundary with the pointer', async ({ page }) => {
    await openDefault(page);
    const sim = page.getByTestId('simulator');
    const bar = page.getByTestId('sim-splitter');
    const b = await box(bar);
    const before = (await box(sim)).height;
    await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2);
    await page.mouse.down();
    await page.mouse.move(b.x + b.width / 2, b.y + b.height / 2 + 120, { steps: 6 });
    await page.mouse.up();
    const after = (await box(sim)).height;
    expect(Math.abs(after - (before + 120))).toBeLessThanOrEqual(12);
    // A double-click gives the default back.
    await bar.dblclick();
    await expect.poll(async () => Math.round((await box(sim)).height)).toBe(Math.round(before));
  });
});

test('a closed simulator, or a narrow screen where the column flows, has no bar', async ({
  page,
}) => {
  await page.setViewportSize({ width: 800, height: 900 });
  await openDefault(page);
  const sim = page.getByTestId('simulator');
  if ((await sim.getAttribute('open')) === null) await sim.locator('summary').first().click();
  await expect(sim).toHaveAttribute('open', '');
  await expect(page.getByTestId('sim-splitter')).toBeHidden();
  await page.setViewportSize({ width: 1440, height: 900 });
  await expect(page.getByTestId('sim-splitter')).toBeVisible();
  await sim.locator('summary').first().click();
  await expect(page.getByTestId('sim-splitter')).toHaveCount(0);
});
