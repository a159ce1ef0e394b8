import { expect, test, type Page } from '@playwright/test';
import { partialCodingAgent, sample } from './fixtures.ts';
import { openApp, openDefault, paste } from './helpers.ts';

// Issue 16, "clear at first sight": what a newcomer meets on the way README → page → own
// transcript → slider → share. Each test failed before its fix. Screenshots go to the test's
// output dir: look at them when changing the layout.

/** The page scrolls sideways when its content is wider than the viewport. */
async function sidewaysOverflow(page: Page): Promise<number> {
  return page.evaluate(
    () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
  );
}

async function pasteBroken(page: Page): Promise<void> {
  await paste(page, partialCodingAgent().text);
  // A busy machine can take a while to parse and render the 9 exchanges.
  await expect(page.getByTestId('count-exchanges')).toHaveText('9', { timeout: 30_000 });
}

test('the first screen says what the tool does and invites your own transcript', async ({
  page,
}) => {
  await openDefault(page);
  await expect(page.getByTestId('tagline')).toBeVisible();
  const hint = page.getByTestId('input-hint');
  await expect(hint).toBeVisible();
  await expect(hint).toContainText(/drop a file/i);
  await expect(hint).toContainText(/paste/i);
  await expect(hint).toContainText('Invoice lookup');
  // Its "open a file" takes a file like the toolbar's.
  await page.getByTestId('hint-file-input').setInputFiles({
    name: 'partial.json',
    mimeType: 'application/json',
    buffer: Buffer.from(partialCodingAgent().text),
  });
  await expect(page.getByTestId('count-exchanges')).toHaveText('9', { timeout: 30_000 });
  // Once your own transcript is shown the invitation steps aside.
  await expect(hint).toHaveCount(0);
});

for (const width of [320, 800])
  test(`${width} px: no sideways scrolling, the verdict before the timeline, rows readable`, async ({
    page,
  }, info) => {
    await page.setViewportSize({ width, height: 800 });
    await openApp(page);
    await pasteBroken(page);
    await page.screenshot({ path: info.outputPath(`broken-${width}.png`), fullPage: true });
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
    const verdict = await page.getByTestId('verdict').boundingBox();
    const timeline = await page.getByTestId('timeline').boundingBox();
    if (!verdict || !timeline) throw new Error('no verdict or timeline box');
    expect(verdict.y).toBeLessThan(timeline.y);
    // A message row shows its chips at a readable width (at 320 px they wrap below the role).
    const chip = await page.getByTestId('chip').first().boundingBox();
    expect(chip?.width ?? 0).toBeGreaterThan(60);
    // The simulator opened at this width still fits.
    await page.getByTestId('simulator').locator('summary').click();
    await expect(page.getByTestId('sweep-chart')).toBeVisible();
    await page.screenshot({ path: info.outputPath(`simulator-${width}.png`), fullPage: true });
    expect(await sidewaysOverflow(page)).toBeLessThanOrEqual(0);
  });

test('the simulator panel keeps the state the user left it in, also through a link', async ({
  page,
  context,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openDefault(page);
  const sim = page.getByTestId('simulator');
  await expect(sim).toHaveAttribute('open');
  await sim.locator('summary').click();
  await expect(sim).not.toHaveAttribute('open');
  await expect(page).toHaveURL(/[#&]sim=0(&|$)/);
  const other = await context.newPage();
  await other.setViewportSize({ width: 1440, height: 900 });
  await openApp(other, `/${new URL(page.url()).hash}`);
  await expect(other.getByTestId('simulator')).not.toHaveAttribute('open');
  await other.close();
});

test('a policy that stays over budget reads the same in the summary line and its card', async ({
  page,
}) => {
  await openDefault(page);
  // The exact tokenizer loads lazily (slow on a busy machine).
  await expect(page.getByTestId('token-basis')).toContainText('o200k_base', { timeout: 30_000 });
  // Budget 1: nothing can be dropped far enough; `exchange` keeps a valid request over budget.
  await page.getByTestId('budget-input').fill('1');
  await page.getByTestId('budget-input').press('Enter');
  const card = page.locator('[data-testid="policy-card"][data-policy="exchange"]');
  await expect(card).toHaveAttribute('data-fits', 'false');
  await expect(card).toHaveAttribute('data-valid', 'true');
  await expect(card.getByTestId('policy-verdict')).toContainText('over budget');
  await expect(page.getByTestId('simulator-summary-b')).toHaveText('exchange valid, over budget');
  await expect(page.getByTestId('simulator-summary-b')).toHaveClass('warn');
  await expect(page.getByTestId('sweep-legend')).toContainText('cannot fit the budget');
});

test('ids reused where the provider accepts them: amber warnings, no red, no "broken"', async ({
  page,
}) => {
  await openDefault(page);
  await paste(page, sample('broken-duplicate-id.json'));
  // Anthropic (the format's provider) refuses reused ids (A6).
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-valid', 'false', {
    timeout: 30_000,
  });
  await page.getByTestId('provider-select').selectOption('openai-chat');
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-valid', 'true');
  await expect(page.getByTestId('count-broken')).toHaveText('0');
  await expect(page.getByTestId('count-warnings')).toContainText('1 warning');
  await expect(page.locator('[data-arc-id][data-broken="true"]')).toHaveCount(0);
  await expect(page.locator('[data-arc-id][data-warning="true"]')).toHaveCount(1);
  const chip = page.locator('[data-testid="chip"].warned').first();
  await expect(chip).toContainText('duplicate id (warning)');
  await expect(chip).toHaveAttribute('title', /no OpenAI .* error names this pair/);
  await expect(page.locator('[data-testid="chip"].broken')).toHaveCount(0);
  // The same text under Anthropic, which refuses reused ids: red, counted broken.
  await page.getByTestId('provider-select').selectOption('anthropic');
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-valid', 'false');
  await expect(page.getByTestId('count-broken')).not.toHaveText('0');
  await expect(page.getByTestId('count-warnings')).toHaveCount(0);
});

test('Find marks its matches inside an opened row', async ({ page }) => {
  await openDefault(page);
  await page.getByTestId('find').fill('invoice');
  await expect(page.getByTestId('find-count')).toContainText('match');
  await page.getByTestId('find-next').click();
  const row = page.locator('[data-message-index][aria-selected="true"]');
  await row.getByTestId('expand').click();
  const marks = row.getByTestId('message-body').getByTestId('find-mark');
  await expect(marks.first()).toBeVisible();
  for (const t of await marks.allTextContents()) expect(t.toLowerCase()).toBe('invoice');
});

test('the timeline is a treegrid: Tab reaches one row, arrows move focus with the selection', async ({
  page,
}) => {
  await openDefault(page);
  const grid = page.getByRole('treegrid');
  await expect(grid).toHaveAttribute('aria-rowcount', /\d+/);
  // One row in the tab order.
  await expect(grid.locator('[role="row"][tabindex="0"]')).toHaveCount(1);
  await grid.locator('[role="row"][tabindex="0"]').focus();
  const first = page.locator('[role="row"][data-message-index="0"]');
  await expect(first).toBeFocused();
  await expect(first).toHaveAttribute('aria-selected', 'true');
  await page.keyboard.press('ArrowDown');
  const second = page.locator('[role="row"][data-message-index="1"]');
  await expect(second).toBeFocused();
  await expect(second).toHaveAttribute('aria-selected', 'true');
  await expect(second).toHaveAttribute('tabindex', '0');
  await expect(first).toHaveAttribute('tabindex', '-1');
  await page.keyboard.press('Enter');
  await expect(second.getByTestId('message-body')).toBeVisible();
});

test('Learn keeps its text and Next in view at every step; Leave brings back your transcript and view', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openDefault(page);
  await pasteBroken(page);
  await page.keyboard.press('j');
  await page.keyboard.press('j');
  await expect(page.locator('[data-message-index="1"]')).toHaveAttribute('aria-selected', 'true');
  // The address follows the store debounced (urlSync.ts): wait for it to name the selection
  // before taking it as the view to come back to.
  await expect(page).toHaveURL(/sel=m1(&|$)/);
  const before = new URL(page.url()).hash;
  await page.getByTestId('learn-toggle').click();
  const steps = Number(
    (await page.getByTestId('learn-step-count').textContent())?.match(/of (\d+)/)?.[1] ?? 0,
  );
  expect(steps).toBeGreaterThan(3);
  for (let i = 1; i <= steps; i++) {
    await expect(page.getByTestId('learn-step-count')).toHaveText(`step ${i} of ${steps}`);
    await expect(page.getByTestId('app')).toHaveAttribute('data-ready', 'true');
    await expect(page.getByTestId('learn-body')).toBeInViewport();
    await expect(page.getByTestId('learn-next')).toBeInViewport();
    await expect(page.getByTestId('learn-leave')).toBeInViewport();
    if (i < steps) await page.getByTestId('learn-next').click();
  }
  await page.getByTestId('learn-leave').click();
  await expect(page.getByTestId('learn-panel')).toHaveCount(0);
  await expect(page.getByTestId('count-exchanges')).toHaveText('9', { timeout: 30_000 });
  await expect(page.locator('[data-message-index="1"]')).toHaveAttribute('aria-selected', 'true');
  await expect.poll(() => new URL(page.url()).hash).toBe(before);
});
