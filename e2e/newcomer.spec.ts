import { expect, test, type Page } from '@playwright/test';
import { openApp, paste, pickRequest, requestMarks, shownRequestMark } from './helpers.ts';
import { renameTask } from './fixtures.ts';

// Problems a newcomer found on the page (each failed before its fix) and two small features:
// the request strip and the ambiguous-format buttons (issue 5), lost-meaning marks under the
// simulator (issue 8). Transcripts are invented.

async function openInvoice(page: Page) {
  await openApp(page);
  await expect(page.getByTestId('token-basis')).toContainText('o200k_base');
}

test('the budget box can be cleared and retyped; Escape restores the value before the edit', async ({
  page,
}) => {
  await openInvoice(page);
  const box = page.getByTestId('budget-input');
  const total = Number(await page.getByTestId('budget-slider').getAttribute('max'));
  expect(total).toBeGreaterThan(150);
  await box.click();
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Backspace');
  await expect(box).toHaveValue('');
  await page.keyboard.type('150');
  await expect(box).toHaveValue('150');
  await expect(page.getByTestId('budget-slider')).toHaveValue('150');
  await page.keyboard.press('Enter');
  await expect(box).toHaveValue('150');
  // Escape: back to the committed value from before this edit.
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Backspace');
  await page.keyboard.type('99');
  await expect(page.getByTestId('budget-slider')).toHaveValue('99');
  await page.keyboard.press('Escape');
  await expect(box).toHaveValue('150');
  await expect(page.getByTestId('budget-slider')).toHaveValue('150');
  // An empty box left by blur reverts to the committed value.
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.press('Backspace');
  await page.getByTestId('summary').click();
  await expect(box).toHaveValue('150');
});

test('a file that fails to load does not rename the Sample menu', async ({ page }) => {
  await openInvoice(page);
  const select = page.getByTestId('sample-select');
  await expect(select).toHaveValue('invoice');
  const invoiceCount = (await page.getByTestId('count-messages').textContent()) ?? '';
  expect(invoiceCount).toMatch(/^\d+$/);
  await page.getByTestId('file-input').setInputFiles({
    name: 'x.json',
    mimeType: 'application/json',
    buffer: Buffer.from('{ "messages": [ {"role": "user", '),
  });
  await expect(page.getByTestId('source-text')).toBeVisible();
  // The invoice sample is still what is shown.
  await expect(page.getByTestId('count-messages')).toHaveText(invoiceCount);
  await expect(select).toHaveValue('invoice');
  await expect(select.locator('option:checked')).not.toContainText('x.json');
});

test('arcs are reachable by keyboard and select their pair with Enter or Space', async ({
  page,
}) => {
  await openInvoice(page);
  const hits = page.locator('[data-testid="arc-layer"] .arc-hit');
  await expect(hits).toHaveCount(2);
  const first = hits.first();
  await expect(first).toHaveAttribute('tabindex', '0');
  await expect(first).toHaveAttribute('role', 'button');
  await expect(first).toHaveAttribute('aria-label', /^\w+ toolu_\w+: answered/);
  // Tab from the find box reaches an arc.
  await page.getByTestId('find').focus();
  let onArc = false;
  for (let i = 0; i < 40 && !onArc; i++) {
    await page.keyboard.press('Tab');
    onArc = await page.evaluate(
      () => document.activeElement?.classList.contains('arc-hit') ?? false,
    );
  }
  expect(onArc).toBe(true);
  await first.focus();
  await page.keyboard.press('Enter');
  const id = await first.evaluate((el) => el.parentElement?.getAttribute('data-arc-id'));
  await expect(page.locator(`.arc[data-arc-id="${id}"]`)).toHaveClass(/selected/);
  await expect(first).toHaveAttribute('aria-pressed', 'true');
  const second = hits.nth(1);
  await second.focus();
  await page.keyboard.press(' ');
  await expect(second).toHaveAttribute('aria-pressed', 'true');
  await expect(first).toHaveAttribute('aria-pressed', 'false');
});

test('? opens the help with the focus in it; Esc closes it and gives the focus back', async ({
  page,
}) => {
  await openInvoice(page);
  const helpButton = page.getByTestId('help-button');
  await helpButton.focus();
  await page.keyboard.press('?');
  await expect(page.getByTestId('help')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Close help' })).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('help')).toHaveCount(0);
  await expect(helpButton).toBeFocused();
});

test('a file holding several requests gets a request strip', async ({ page }) => {
  await openInvoice(page);
  const body = (n: number) => ({
    model: 'claude-sonnet-4-5',
    max_tokens: 64,
    messages: Array.from({ length: n }, (_, i) => ({
      role: i % 2 === 0 ? 'user' : 'assistant',
      content: `line ${i}`,
    })),
  });
  await paste(page, JSON.stringify({ requests: [body(1), body(3)] }));
  await expect(page.getByTestId('request-strip')).toBeVisible();
  await expect(requestMarks(page)).toHaveCount(2);
  await expect(shownRequestMark(page)).toHaveAttribute('data-index', '1');
  await expect(page.getByTestId('count-messages')).toHaveText('3');
  await pickRequest(page, 0);
  await expect(page.getByTestId('count-messages')).toHaveText('1');
  await expect(shownRequestMark(page)).toHaveAttribute('data-index', '0');
});

test('an ambiguous input lists the matching formats as buttons that set the format', async ({
  page,
}) => {
  await openInvoice(page);
  await paste(
    page,
    JSON.stringify([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'hello' },
    ]),
  );
  const picks = page.getByTestId('ambiguous-pick');
  await expect(picks.nth(1)).toBeVisible();
  const formats = await picks.evaluateAll((els) => els.map((e) => e.getAttribute('data-format')));
  const other = formats.find((f) => f !== null && f !== formats[0]);
  expect(other).toBeTruthy();
  await page.locator(`[data-testid="ambiguous-pick"][data-format="${other}"]`).click();
  await expect(page.getByTestId('format-select')).toHaveValue(other as string);
  await expect(page.getByTestId('format')).toHaveText(other as string);
});

test('lost-meaning marks show under the simulator after an eviction', async ({ page }) => {
  await openInvoice(page);
  await paste(page, JSON.stringify(renameTask()));
  await expect(page.getByTestId('count-messages')).toHaveText('4');
  await expect(page.getByTestId('simulator-lost')).toHaveCount(0);
  const total = Number(await page.getByTestId('budget-slider').getAttribute('max'));
  await page.getByTestId('budget-input').fill(String(Math.round(total * 0.3)));
  await page.getByTestId('budget-input').press('Enter');
  const lost = page.getByTestId('simulator-lost');
  await expect(lost).toBeVisible();
  await expect(lost.getByTestId('lost-mark')).toHaveCount(1);
  await expect(lost.getByTestId('lost-mark')).toHaveAttribute('data-kind', 'evicted_reference');
  await expect(lost.getByTestId('lost-mark')).toContainText('message #0');
  // The timeline marks the affected row.
  await expect(page.locator('[data-message-index="0"][data-lost="evicted_reference"]')).toHaveCount(
    1,
  );
  await expect(page.locator('[data-lost]')).toHaveCount(1);
});

test('a refused budget is marked invalid with a note on what is accepted; the budget stays', async ({
  page,
}) => {
  await openApp(page, '/#v=1&src=coding-agent&b=1100');
  // The totals of the exact counter (the estimate before it loads is lower).
  await expect(page.getByTestId('token-basis')).toContainText('o200k_base');
  const box = page.getByTestId('budget-input');
  const slider = page.getByTestId('budget-slider');
  const total = Number(await slider.getAttribute('max'));
  expect(total).toBeGreaterThan(1400);
  const totalText = total.toLocaleString('en-US');
  await expect(box).toHaveValue('1,100');
  for (const bad of ['-5', 'abc', '1e3', '99999999999', String(total + 1)]) {
    await box.fill(bad);
    // Said as it is typed, before any Enter (newcomer: `abc` sat in the box with no word).
    await expect(box, bad).toHaveAttribute('aria-invalid', 'true');
    await expect(page.getByTestId('budget-note'), bad).toContainText('stays at 1,100');
    await expect(slider).toHaveValue('1100');
    await box.press('Enter');
    await expect(box, bad).toHaveAttribute('aria-invalid', 'true');
    await expect(box, bad).toHaveValue(bad);
    const noteId = await box.getAttribute('aria-describedby');
    expect(noteId, bad).toBeTruthy();
    const note = page.locator(`[id="${noteId}"]`);
    await expect(note).toHaveAttribute('role', 'status');
    await expect(note).toContainText('whole number of tokens');
    await expect(note).toContainText(`0 to ${totalText}`);
    await expect(note).toContainText('stays at 1,100');
    await expect(slider).toHaveValue('1100');
    await expect(page).toHaveURL(/[#&]b=1100(&|$)/);
    // Escape restores the shown value and clears the note.
    await box.press('Escape');
    await expect(box).toHaveValue('1,100');
    await expect(box).not.toHaveAttribute('aria-invalid', 'true');
    await expect(note).toBeEmpty();
  }
  // A valid value typed after a refused one clears the note.
  await box.fill('-5');
  await box.press('Enter');
  await expect(box).toHaveAttribute('aria-invalid', 'true');
  await box.fill('1,200');
  await expect(box).not.toHaveAttribute('aria-invalid', 'true');
  await expect(page.locator('[role=status]', { hasText: 'whole number of tokens' })).toHaveCount(0);
  await box.press('Enter');
  await expect(box).toHaveValue('1,200');
  await expect(slider).toHaveValue('1200');
  // Blur (Tab) after a refused value also restores the shown value and clears the note.
  await box.fill('abc');
  await box.press('Enter');
  await expect(box).toHaveAttribute('aria-invalid', 'true');
  await box.press('Tab');
  await expect(box).toHaveValue('1,200');
  await expect(box).not.toHaveAttribute('aria-invalid', 'true');
  await expect(page.locator('[role=status]', { hasText: 'whole number of tokens' })).toHaveCount(0);
  // The total itself, typed with separators, is accepted.
  await box.fill(totalText);
  await box.press('Enter');
  await expect(box).toHaveValue(totalText);
  await expect(box).not.toHaveAttribute('aria-invalid', 'true');
});

test('Esc in Find gives the focus back to where it was before `/`', async ({ page }) => {
  await openApp(page, '/#v=1&src=coding-agent');
  const find = page.getByTestId('find');
  // From a timeline row: Esc returns to that row.
  const first = page.locator('[data-testid=timeline] [role=row][tabindex="0"]');
  await first.focus();
  await page.keyboard.press('j');
  const row = page.locator('[data-testid=timeline] [role=row][aria-selected=true]');
  await expect(row).toBeFocused();
  const index = await row.getAttribute('data-message-index');
  await page.keyboard.press('/');
  await expect(find).toBeFocused();
  await page.keyboard.type('bash');
  await page.keyboard.press('Escape');
  await expect(
    page.locator(`[data-testid=timeline] [role=row][data-message-index="${index}"]`),
  ).toBeFocused();
  // From a button: Esc returns to the button.
  const help = page.getByTestId('help-button');
  await help.focus();
  await page.keyboard.press('/');
  await expect(find).toBeFocused();
  await page.keyboard.type('x');
  await page.keyboard.press('Escape');
  await expect(help).toBeFocused();
  // From nothing (the page): Esc goes to the timeline's current row, not to <body>.
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  await page.keyboard.press('/');
  await expect(find).toBeFocused();
  await page.keyboard.press('Escape');
  await expect(row).toBeFocused();
  await expect(row).toHaveAttribute('data-message-index', index ?? '');
  // Enter in Find moved the selection to a match: Esc goes to the selected row, so the focused
  // row and the selected row stay one.
  await page.keyboard.press('/');
  await page.keyboard.press('ControlOrMeta+A');
  await page.keyboard.type('bash');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('find-count')).toContainText(' of ');
  await expect(row).not.toHaveAttribute('data-message-index', index ?? '');
  await page.keyboard.press('Escape');
  await expect(row).toBeFocused();
});
