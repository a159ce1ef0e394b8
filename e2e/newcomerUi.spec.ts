import { expect, test, type Page } from '@playwright/test';
import { LESSON } from '../src/model/lesson.ts';
import { openApp, openDefault, paste, pickRequest } from './helpers.ts';

// Four findings of a newcomer test (each failed before its fix): leaving Learn kept the lesson's
// cancel fault (and closed the rows the user had opened); a click on the sweep chart did nothing;
// (unit-tested: sweep axis ticks); the header wrapped its `?` button at 1400 px and cut the
// ambiguous-format warning. Screenshots go to the test's output dir: look at them when changing
// the header.

/** The address's hash once it stopped changing (the view is written to it asynchronously). */
async function settledHash(page: Page): Promise<string> {
  for (let last = new URL(page.url()).hash; ; ) {
    await page.waitForTimeout(300);
    const now = new URL(page.url()).hash;
    if (now === last) return now;
    last = now;
  }
}

async function budgetValue(page: Page): Promise<number> {
  // The box shows thousands separators (1,234).
  return Number((await page.getByTestId('budget-input').inputValue()).replace(/,/g, ''));
}

test.describe('leaving Learn mode', () => {
  test('after the last step, Leave restores the page the user had: no lesson fault stays', async ({
    page,
  }) => {
    await openDefault(page);
    await expect(page.getByTestId('token-basis')).toContainText('o200k_base');
    const total = Number(await page.getByTestId('budget-slider').getAttribute('max'));
    const mine = Math.round(total * 0.6);
    await page.getByTestId('budget-input').fill(String(mine));
    await page.getByTestId('budget-input').press('Enter');
    await expect(page.getByTestId('budget-slider')).toHaveValue(String(mine));
    await expect(page).toHaveURL(new RegExp(`[#&]b=${mine}(&|$)`));
    // A row the user opened reopens when Leave brings the transcript back.
    await page.getByTestId('expand').nth(1).click();
    await expect(page.getByTestId('expand').nth(1)).toHaveAttribute('aria-expanded', 'true');
    const before = await settledHash(page);
    expect(before).not.toMatch(/fx=/);

    await page.getByTestId('learn-toggle').click();
    for (let i = 1; i < LESSON.length; i++) {
      await expect(page.getByTestId('learn-panel')).toHaveAttribute(
        'data-step',
        LESSON[i - 1]?.id ?? '',
      );
      await page.getByTestId('learn-next').click();
    }
    await expect(page.getByTestId('learn-step-count')).toHaveText(
      `step ${LESSON.length} of ${LESSON.length}`,
    );
    await expect(page).toHaveURL(/fx=/);
    await page.getByTestId('learn-leave').click();

    await expect(page.getByTestId('learn-panel')).toHaveCount(0);
    await expect(page.getByTestId('app')).toHaveAttribute('data-ready', 'true');
    await expect(page.getByTestId('count-exchanges')).toHaveText('1');
    await expect(page.getByTestId('budget-slider')).toHaveValue(String(mine));
    await expect(page).not.toHaveURL(/fx=|learn=/);
    // The address is written debounced (urlSync.ts), after the store: wait for it, not a snapshot.
    await expect.poll(() => new URL(page.url()).hash).toBe(before);
    await expect(page.getByTestId('expand').nth(1)).toHaveAttribute('aria-expanded', 'true');
    await expect(page.getByTestId('expand').nth(0)).toHaveAttribute('aria-expanded', 'false');
  });

  test('Learn mode opened from a link: Leave drops the lesson faults', async ({ page }) => {
    const last = LESSON[LESSON.length - 1];
    expect(last?.state.faults.length).toBeGreaterThan(0);
    await openApp(page, `/#learn=${last?.id ?? ''}`);
    await expect(page.getByTestId('learn-panel')).toHaveAttribute('data-step', last?.id ?? '');
    await expect(page).toHaveURL(/fx=/);
    await page.getByTestId('learn-toggle').click();
    await expect(page.getByTestId('learn-panel')).toHaveCount(0);
    await expect(page).not.toHaveURL(/fx=|learn=/);
  });
});

test('a click on the sweep chart sets the budget at that x; the focused chart takes arrow keys', async ({
  page,
}) => {
  await openDefault(page);
  await expect(page.getByTestId('token-basis')).toContainText('o200k_base');
  const chart = page.getByTestId('sweep-chart');
  await expect(chart).toBeVisible();
  const lo = Number(await chart.getAttribute('aria-valuemin'));
  const hi = Number(await chart.getAttribute('aria-valuemax'));
  expect(hi - lo).toBeGreaterThan(20);
  const box = await chart.boundingBox();
  if (!box) throw new Error('no sweep chart box');
  // The plot spans x = 64..380 of the 380 px wide SVG (sweepLayout DEFAULT_SWEEP_SIZE).
  const at = (frac: number) => ((64 + frac * (380 - 64)) * box.width) / 380;
  for (const frac of [0.25, 0.75]) {
    await chart.click({ position: { x: at(frac), y: box.height / 2 } });
    const b = await budgetValue(page);
    const want = lo + frac * (hi + 1 - lo);
    expect(Math.abs(b - want)).toBeLessThanOrEqual((hi - lo) / 100 + 1);
    await expect(page.getByTestId('budget-slider')).toHaveValue(String(b));
    await expect(chart).toHaveAttribute('aria-valuenow', String(b));
  }
  await expect(chart).toBeFocused();
  const b0 = await budgetValue(page);
  await page.keyboard.press('ArrowLeft');
  await expect.poll(() => budgetValue(page)).toBeLessThan(b0);
  await page.keyboard.press('End');
  await expect(page.getByTestId('budget-slider')).toHaveValue(String(hi));
  await page.keyboard.press('Home');
  await expect(page.getByTestId('budget-slider')).toHaveValue(String(lo));
});

for (const width of [1400, 1000]) {
  test(`header at ${width} px with Edit text open and an ambiguous input: one tidy header, warning wraps`, async ({
    page,
  }, info) => {
    await page.setViewportSize({ width, height: 800 });
    await openDefault(page);
    await paste(
      page,
      JSON.stringify([
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: 'hello' },
      ]),
    );
    await expect(page.getByTestId('ambiguous-pick').nth(1)).toBeVisible();
    await page.getByTestId('toggle-text').click();
    await expect(page.getByTestId('source-text')).toBeVisible();
    await page.screenshot({ path: info.outputPath(`header-${width}.png`) });

    // Nothing in the header or the stats line runs past the viewport or its box.
    const overflow = await page.evaluate(() =>
      ['header.top', '.toolbar', '[data-testid="summary"]', '[data-testid="ambiguous-format"]']
        .map((sel) => document.querySelector(sel))
        .filter((el): el is Element => el !== null)
        .map((el) => ({
          sel: el.className,
          over: el.scrollWidth - el.clientWidth,
          right: el.getBoundingClientRect().right,
        })),
    );
    for (const o of overflow) {
      expect(o.over, `${o.sel} overflows`).toBeLessThanOrEqual(1);
      expect(o.right, `${o.sel} runs past the viewport`).toBeLessThanOrEqual(width + 0.5);
    }
    // The last ambiguous-format button is fully visible inside the stats line.
    const summary = await page.getByTestId('summary').boundingBox();
    const pick = await page.getByTestId('ambiguous-pick').last().boundingBox();
    expect(summary && pick && pick.x + pick.width <= summary.x + summary.width + 0.5).toBe(true);

    // The `?` button stays on the toolbar's row at 1400 px (it wrapped alone before).
    const help = await page.getByTestId('help-button').boundingBox();
    const first = await page.locator('.toolbar > *').first().boundingBox();
    if (!help || !first) throw new Error('no toolbar boxes');
    if (width >= 1400) expect(Math.abs(help.y - first.y)).toBeLessThan(first.height);
    // Whatever wraps, the `?` button is never alone on its row.
    const row = await page.locator('.toolbar > *').evaluateAll(
      (els, y) =>
        els.filter((e) => {
          const r = e.getBoundingClientRect();
          return r.width > 0 && Math.abs(r.top - y) < 12;
        }).length,
      help.y,
    );
    expect(row).toBeGreaterThan(1);
  });
}

// A newcomer saw "Scan a folder…" alone on a line of its own under the header, away from the
// other ways in: "Scan folder…" sits in the input toolbar beside "Open file…" (behind "More" when
// narrow), and at 1400 px the toolbar keeps one row (the header test above).
for (const width of [1400, 1000, 360]) {
  test(`"Scan folder…" sits with the input actions at ${width} px`, async ({ page }, info) => {
    await page.setViewportSize({ width, height: 800 });
    await openDefault(page);
    const scan = page.getByTestId('fleet-scan-folder');
    await expect(page.locator('.toolbar').getByTestId('fleet-scan-folder')).toHaveCount(1);
    if (width < 600) {
      await expect(scan).toBeHidden();
      await page.getByTestId('toolbar-more').click();
    }
    await expect(scan).toBeVisible();
    await page.screenshot({ path: info.outputPath(`scan-button-${width}.png`) });
    const open = await page.getByTestId('open-file').boundingBox();
    const box = await scan.boundingBox();
    if (!open || !box) throw new Error('no boxes');
    if (width >= 1000) expect(Math.abs(box.y - open.y)).toBeLessThan(open.height / 2);
    // Nothing between the header and the page's first panel holds it alone.
    const header = await page.locator('header.top').boundingBox();
    expect(header && box.y + box.height <= header.y + header.height + 0.5).toBe(true);
  });
}

// A newcomer read an OpenAI request's calls as "tool_use … / tool_result …", Anthropic's words:
// the chips and the block filters say what the pasted format calls them.
test('an OpenAI Chat request shows its calls and results in its own words', async ({ page }) => {
  await openDefault(page);
  await paste(
    page,
    JSON.stringify({
      model: 'gpt-4.1',
      messages: [
        { role: 'user', content: 'Weather in Oslo and Bergen?' },
        {
          role: 'assistant',
          content: null,
          tool_calls: [
            { id: 'call_a', type: 'function', function: { name: 'weather', arguments: '{}' } },
            { id: 'call_b', type: 'function', function: { name: 'weather', arguments: '{}' } },
          ],
        },
        { role: 'tool', tool_call_id: 'call_a', content: '4 °C' },
      ],
    }),
  );
  await expect(page.getByTestId('app')).toHaveAttribute('data-ready', 'true');
  const chips = page.getByTestId('chip');
  await expect(chips.filter({ hasText: 'tool_call weather · call_b' })).toHaveCount(1);
  await expect(chips.filter({ hasText: /^tool · call_a/ })).toHaveCount(1);
  await expect(chips.filter({ hasText: 'tool_use' })).toHaveCount(0);
  await expect(chips.filter({ hasText: 'tool_result' })).toHaveCount(0);
  const filters = page.locator('.filters');
  await expect(
    filters.locator('label', { has: page.getByTestId('filter-block-tool_use') }),
  ).toHaveText('tool_call');
  await expect(
    filters.locator('label', { has: page.getByTestId('filter-block-tool_result') }),
  ).toHaveText('tool');
});

// clear-tool-results evicts no message: as the primary policy its card said "edited 26 results
// cleared" while no row was marked (newcomer). The rows it cleared a result of are marked.
test('clear-tool-results as the primary policy marks the rows whose results it cleared', async ({
  page,
}) => {
  await openApp(page, '/#v=1&src=coding-agent&b=1100&p=clear-tool-results');
  await expect(page.getByTestId('legend-edited')).toContainText('cleared by clear-tool-results');
  const edited = page.locator('.msg-row.ev-edited');
  await expect(edited.first()).toBeVisible();
  // Each is kept (not greyed) and holds a tool result.
  for (const row of await edited.all()) {
    await expect(row).not.toHaveClass(/ev-primary/);
    await expect(row.locator('[data-block-type="tool_result"]').first()).toBeVisible();
  }
  await expect(page.locator('.msg-row.ev-primary')).toHaveCount(0);
});

// A session log shown whole was judged with no word that the whole log is no request any call
// sent (newcomer: rows a compaction removed were judged too). Choosing a call drops the note.
test('a session log shown whole says its verdict judges no sent request; a chosen call does not', async ({
  page,
}) => {
  await openApp(page, '/#v=1&src=claude-code-session');
  const note = page.getByTestId('verdict-whole-log');
  await expect(note).toContainText('judges the whole log as one request');
  await pickRequest(page, 0);
  await expect(page.getByTestId('strip-shown')).toContainText('Call 1 of');
  await expect(note).toHaveCount(0);
  // A plain request body never gets the note.
  await openApp(page, '/#v=1&src=invoice');
  await expect(page.getByTestId('verdict')).toBeVisible();
  await expect(note).toHaveCount(0);
});

test('a developer row keeps a gap between its role and its number', async ({ page }) => {
  await openDefault(page);
  await paste(
    page,
    JSON.stringify({
      model: 'gpt-4.1',
      messages: [
        { role: 'developer', content: 'Be brief.' },
        { role: 'user', content: 'Hi' },
      ],
    }),
  );
  await expect(page.getByTestId('count-messages')).toHaveText('2');
  const head = page.locator('[role="treegrid"] [data-message-index="0"] .msg-lead');
  await expect(head.locator('.role')).toHaveText('developer');
  const role = await head.locator('.role').boundingBox();
  const num = await head.locator('.msg-index').boundingBox();
  if (!role || !num) throw new Error('row 0 is not laid out');
  // The text of the role fits its box, and the number starts after it with the lead's gap.
  const fits = await head.locator('.role').evaluate((e) => e.scrollWidth <= e.clientWidth + 0.5);
  expect(fits).toBe(true);
  expect(num.x - (role.x + role.width)).toBeGreaterThanOrEqual(4);
});
