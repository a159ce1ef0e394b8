/**
 * Keyboard focus stays somewhere meaningful (newcomer): Enter on a fault button applied the fault
 * and the button went away, leaving the focus on the body; `n` with nothing focused selected a
 * row but left the focus on the body, so Tab went back to the Skip link.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { oaiParallel } from './fixtures.ts';
import { openDefault, paste } from './helpers.ts';

/** The invoice sample with its search_invoices call chosen (the fault menu then offers it). */
async function openInvoiceCall(page: Page): Promise<void> {
  await openDefault(page);
  await page
    .locator('[data-message-index="1"]')
    .getByText(/tool_use search_invoices/)
    .click();
}

test('a fault applied with Enter from its menu button moves the focus to its entry in the list', async ({
  page,
}) => {
  await openInvoiceCall(page);
  const raised = page.getByTestId('fault-tool_raised').filter({ hasText: 'search_invoices' });
  await expect(raised).toHaveCount(1);
  await raised.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('count-broken')).toHaveText('1');
  await expect(raised).toHaveCount(0);
  const entry = page.getByTestId('fault-applied-entry').last();
  await expect(entry).toBeFocused();
  await expect(entry).toContainText('search_invoices');
  // Tab from there reaches the undo.
  await page.keyboard.press('Tab');
  await expect(page.getByTestId('fault-undo')).toBeFocused();
  const axe = await new AxeBuilder({ page }).include('[data-testid="fault-panel"]').analyze();
  expect(axe.violations).toEqual([]);
});

test('n with nothing focused selects the violation row and focuses it; j/k then move the focus', async ({
  page,
}) => {
  await openInvoiceCall(page);
  await page.getByTestId('fault-tool_raised').filter({ hasText: 'search_invoices' }).click();
  await expect(page.getByTestId('count-broken')).toHaveText('1');
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('Escape');
  expect(await page.evaluate(() => document.activeElement === document.body)).toBe(true);

  await page.keyboard.press('n');
  const selected = page.locator('[role="treegrid"] [role="row"][aria-selected="true"]');
  await expect(selected).toHaveCount(1);
  const at = Number(await selected.getAttribute('data-message-index'));
  await expect(selected).toBeFocused();
  await page.keyboard.press(at === 0 ? 'j' : 'k');
  await expect(
    page.locator(`[role="treegrid"] [role="row"][data-message-index="${at === 0 ? 1 : at - 1}"]`),
  ).toBeFocused();
  // Tab goes on from the timeline, not back to the Skip link at the top.
  await page.keyboard.press('Tab');
  await expect(page.getByText('Skip to the timeline')).not.toBeFocused();
});

test('a file opened from the keyboard: n focuses the row it selects, and Enter opens that row', async ({
  page,
}) => {
  await openDefault(page);
  const body = Buffer.from(oaiParallel());
  let choosers = 0;
  page.on('filechooser', () => (choosers += 1));
  await page.getByTestId('open-file').focus();
  const [chooser] = await Promise.all([
    page.waitForEvent('filechooser'),
    page.keyboard.press('Enter'),
  ]);
  await chooser.setFiles({ name: 'oai-parallel.json', mimeType: 'application/json', buffer: body });
  await expect(page.getByTestId('count-messages')).toHaveText('5');
  await expect(page.getByTestId('app')).toHaveAttribute('data-ready', 'true');
  await expect(page.getByTestId('open-file')).toBeFocused();

  await page.keyboard.press('n');
  const selected = page.locator('[role="treegrid"] [role="row"][aria-selected="true"]');
  await expect(selected).toHaveCount(1);
  await expect(selected).toBeFocused();
  await page.keyboard.press('Enter');
  await expect(selected.getByTestId('expand')).toHaveAttribute('aria-expanded', 'true');
  expect(choosers).toBe(1);
});

test('Tab from the selected row leaves the timeline without entering another opened row', async ({
  page,
}) => {
  await openDefault(page);
  await paste(page, oaiParallel());
  await expect(page.getByTestId('count-messages')).toHaveText('5');
  const row = (i: number) => page.locator(`[role="treegrid"] [data-message-index="${i}"]`);
  await row(2).getByTestId('expand').click();
  await expect(row(2).getByTestId('message-body')).toBeVisible();
  await row(1).locator('.msg-head').click();
  await expect(row(1)).toHaveAttribute('aria-selected', 'true');
  await row(1).focus();
  const stops: string[] = [];
  for (let i = 0; i < 4; i++) {
    await page.keyboard.press('Tab');
    stops.push(
      await page.evaluate(() => {
        const a = document.activeElement;
        const r = a?.closest('[data-message-index]');
        return `${r?.getAttribute('data-message-index') ?? '-'}:${a?.tagName ?? ''}:${a?.getAttribute('data-testid') ?? ''}`;
      }),
    );
  }
  // Row #1 has no cut marker: the cut above it would drop nothing (#0 is the pinned system prompt).
  expect(stops[0]).toBe('1:BUTTON:expand');
  expect(stops.filter((s) => s.startsWith('2:'))).toEqual([]);
  // Selected, the opened row's body joins the Tab order.
  await row(2).locator('.msg-head').click();
  await row(2).focus();
  let inBody = false;
  for (let i = 0; i < 4 && !inBody; i++) {
    await page.keyboard.press('Tab');
    inBody = await row(2)
      .getByTestId('message-body')
      .evaluate((b) => b.contains(document.activeElement));
  }
  expect(inBody).toBe(true);
});
