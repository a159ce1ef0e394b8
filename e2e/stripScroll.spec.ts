/**
 * The request strip keeps the chosen call's mark in view (newcomer: after "Show call 64" on a
 * long session log the strip stayed at its start, marks 1–30 at 1440 px and 1–11 at 390 px, the
 * chosen mark off screen): when the chosen call changes, and when a link naming a call is opened.
 */
import { expect, test, type Page } from '@playwright/test';
import { fileShown, openDefault, shownRequestMark } from './helpers.ts';
import { longSessionLog } from './sessionLog.ts';

const log = longSessionLog(80, 64);

/** True when the chosen mark lies wholly inside the visible part of the row of marks. */
function chosenInView(page: Page): Promise<boolean> {
  return shownRequestMark(page).evaluate((mark) => {
    const list = mark.closest('ol');
    if (!list) return false;
    const r = mark.getBoundingClientRect();
    const box = list.getBoundingClientRect();
    return r.left >= box.left - 0.5 && r.right <= box.right + 0.5 && r.right <= innerWidth;
  });
}

async function openLog(page: Page) {
  await openDefault(page);
  await page.getByTestId('file-input').setInputFiles({
    name: 'long-session.jsonl',
    mimeType: 'application/x-ndjson',
    buffer: Buffer.from(log),
  });
  await fileShown(page, 'long-session.jsonl');
  await expect(page.getByTestId('request-mark')).toHaveCount(80);
}

for (const width of [1440, 390]) {
  test(`at ${width} px, "Show call 64", ] and a reload bring the chosen mark into view`, async ({
    page,
  }) => {
    await page.setViewportSize({ width, height: 900 });
    await openLog(page);
    await expect(page.getByTestId('strip-first-failing')).toHaveText('Show call 64');
    await page.getByTestId('strip-first-failing').click();
    await expect(shownRequestMark(page)).toHaveAttribute('data-index', '63');
    await expect.poll(() => chosenInView(page)).toBe(true);

    // Back to the first mark with the keys' neighbour: the mark list scrolls back.
    await page.getByTestId('request-mark').first().click();
    await expect(shownRequestMark(page)).toHaveAttribute('data-index', '0');
    await expect.poll(() => chosenInView(page)).toBe(true);
    await page.getByTestId('strip-first-failing').click();
    await page.locator('body').press(']');
    await expect(shownRequestMark(page)).toHaveAttribute('data-index', '64');
    await expect.poll(() => chosenInView(page)).toBe(true);

    // A reload (the address names call 65) opens with its mark in view.
    await expect.poll(() => page.url()).toContain('rq=65');
    await page.reload();
    await fileShown(page, 'long-session.jsonl');
    await expect(shownRequestMark(page)).toHaveAttribute('data-index', '64');
    await expect.poll(() => chosenInView(page)).toBe(true);
    // No page-level sideways scroll.
    expect(await page.evaluate(() => document.documentElement.scrollWidth)).toBeLessThanOrEqual(
      width,
    );
  });
}
