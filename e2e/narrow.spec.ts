/**
 * What a newcomer met at 390 px and at 1440 px (s26): a verdict's jump that did not bring its
 * row into view on a narrow screen, a header a third of the screen tall, a simulator that hid
 * its figures on an invalid transcript, a Share panel that said "view only / too large" three
 * times, and a budget box without thousands separators.
 */
import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { generate } from '../scripts/gen.ts';
import { fileShown, openApp, paste } from './helpers.ts';

/** A 2,000-message session with one broken pair in its middle (deferred row measuring). */
const LONG = generate({ format: 'anthropic-messages', messages: 2000, seed: 5 });

async function openFile(page: Page, name: string, text: string): Promise<void> {
  await page.getByTestId('file-input').setInputFiles({
    name,
    mimeType: 'application/json',
    buffer: Buffer.from(text),
  });
  await fileShown(page, name);
}

/** The timeline row (treegrid row) of the selected message. */
const selectedRow = (page: Page) =>
  page.locator('[data-testid=timeline] [role=row]:has(> .msg.selected)');

for (const [width, height] of [
  [390, 844],
  [1440, 900],
] as const)
  test(`${width} px: a verdict's jump brings its row into view, selected and focused`, async ({
    page,
  }) => {
    test.setTimeout(120_000);
    await page.setViewportSize({ width, height });
    await openApp(page);
    await openFile(page, 'long.json', LONG);
    const violation = page.getByTestId('violation').first();
    const jump = violation.getByTestId('jump');
    const label = /#\d+/.exec((await jump.textContent()) ?? '')?.[0];
    await jump.click();
    const row = selectedRow(page);
    await expect(row).toHaveCount(1);
    await expect(row.locator('.msg-index')).toHaveText(label ?? '');
    // Visible on the screen (clipped neither by the timeline's own scroll nor by the window's).
    await expect(row).toBeInViewport({ ratio: 1 });
    await expect(row).toBeFocused();
    await expect(violation).toHaveAttribute('aria-current', 'true');

    // `n` goes to the next violation's row, which comes into view too; the page is not pulled
    // back up to the verdict.
    await page.keyboard.press('n');
    await expect(row.locator('.msg-index')).not.toHaveText(label ?? '');
    await expect(row).toBeInViewport({ ratio: 1 });
    await expect(row).toBeFocused();
  });

test("a jump's scroll watch yields to the user's own scroll: the view stays where they went", async ({
  page,
}) => {
  test.setTimeout(120_000);
  await openApp(page);
  await openFile(page, 'long.json', LONG);
  // In the page, so the user's scroll lands while the jump is still settling (data-settling).
  const seen = await page.evaluate(async () => {
    const el = document.querySelector<HTMLElement>('[data-testid=timeline]');
    const jump = document.querySelector<HTMLElement>('[data-testid=violation] [data-testid=jump]');
    if (!el || !jump) return null;
    const frame = () => new Promise((r) => requestAnimationFrame(r));
    jump.click();
    for (let i = 0; i < 600 && el.getAttribute('data-settling') !== 'true'; i++) await frame();
    const during = el.getAttribute('data-settling');
    // A wheel turn back to the top: the event, then the scroll it makes.
    el.dispatchEvent(new WheelEvent('wheel', { deltaY: -1e5, bubbles: true }));
    el.scrollTop = 0;
    for (let i = 0; i < 150; i++) await frame();
    return { during, top: el.scrollTop, after: el.getAttribute('data-settling') };
  });
  expect(seen).toEqual({ during: 'true', top: 0, after: null });
});

test('390 px: the header is compact, every control reachable and labelled', async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openApp(page);
  const header = page.locator('header.top');
  // Three rows: the title with Learn and Share, the tagline, the input controls (it was 244 px).
  expect((await header.boundingBox())?.height ?? 999).toBeLessThanOrEqual(110);
  for (const id of ['sample-select', 'open-file', 'toggle-text', 'learn-toggle', 'share-open'])
    await expect(header.getByTestId(id)).toBeInViewport();
  await expect(header.getByRole('combobox', { name: /^Sample/ })).toBeVisible();
  // Format, provider, theme and help fold behind a disclosure whose title says what is chosen.
  const more = header.getByTestId('toolbar-more');
  await expect(more).toHaveAttribute('aria-expanded', 'false');
  await expect(more).toHaveAttribute(
    'title',
    'Format: detect (Anthropic Messages) · provider: Anthropic Messages · theme: system',
  );
  for (const id of ['format-select', 'provider-select', 'theme-toggle', 'help-button'])
    await expect(header.getByTestId(id)).toBeHidden();
  await more.click();
  await expect(more).toHaveAttribute('aria-expanded', 'true');
  const format = header.getByRole('combobox', { name: /^Format/ });
  const provider = header.getByRole('combobox', { name: /^Provider/ });
  await expect(format).toBeInViewport();
  await expect(provider).toBeInViewport();
  await expect(header.getByTestId('theme-toggle')).toBeInViewport();
  await expect(header.getByRole('button', { name: 'Keyboard shortcuts' })).toBeInViewport();
  await provider.selectOption('openai-chat');
  await expect(page.getByTestId('provider')).toHaveText('openai-chat');
  await expect(more).toHaveAttribute('title', /provider: OpenAI Chat Completions/);
  // Nothing runs past the screen's edge; axe finds nothing serious in the header.
  expect(
    await page.evaluate(
      () => document.documentElement.scrollWidth - document.documentElement.clientWidth,
    ),
  ).toBeLessThanOrEqual(0);
  const axe = await new AxeBuilder({ page })
    .include('header.top')
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    .analyze();
  expect(axe.violations.filter((v) => v.impact === 'critical' || v.impact === 'serious')).toEqual(
    [],
  );
  // Folded again, the header is as short as before.
  await more.click();
  expect((await header.boundingBox())?.height ?? 999).toBeLessThanOrEqual(110);
  // At 1440 px every control sits on the header's row, no disclosure.
  await page.setViewportSize({ width: 1440, height: 900 });
  await expect(more).toBeHidden();
  for (const id of ['format-select', 'provider-select', 'theme-toggle', 'help-button'])
    await expect(header.getByTestId(id)).toBeInViewport();
  expect((await header.boundingBox())?.height ?? 999).toBeLessThanOrEqual(80);
});

test('1440×900 and 390 px: on an invalid transcript the simulator shows freed and overshoot', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openApp(page, '/#v=1&src=broken-partial-answer');
  const sim = page.getByTestId('simulator');
  await expect(sim).toHaveAttribute('open');
  await expect(page.getByTestId('policy-verdict').first()).toContainText('HTTP 400');
  const simBox = await sim.boundingBox();
  if (!simBox) throw new Error('no simulator box');
  for (const id of ['policy-kept', 'policy-freed', 'policy-overshoot']) {
    for (const fig of await page.getByTestId(id).all()) {
      const b = await fig.boundingBox();
      expect(b && b.y + b.height <= simBox.y + simBox.height + 0.5, `${id} in view`).toBe(true);
    }
  }
  expect(await sim.evaluate((el) => el.scrollTop)).toBe(0);
  // The timeline keeps its rows below the panel.
  await expect(page.getByTestId('message-row').first()).toBeInViewport();

  // 390 px: the opened panel flows in the page: its figures, its chart and the timeline below it
  // are all reached by scrolling the page (none clipped).
  await page.setViewportSize({ width: 390, height: 844 });
  await expect(sim).toHaveAttribute('open');
  for (const id of ['policy-freed', 'policy-overshoot', 'sweep-chart']) {
    const el = page.getByTestId(id).first();
    await el.scrollIntoViewIfNeeded();
    await expect(el).toBeInViewport({ ratio: 1 });
  }
  const first = page.getByTestId('message-row').first();
  await first.scrollIntoViewIfNeeded();
  await expect(first).toBeInViewport({ ratio: 1 });
});

test('Share on a transcript too large for a link says "view only / too large" once', async ({
  page,
}) => {
  test.setTimeout(90_000);
  const log = generate({ format: 'claude-code-jsonl', messages: 2500, seed: 7 });
  await openApp(page, '/#v=1&src=invoice&b=5000');
  await openFile(page, 'session-large.jsonl', log);
  await page.getByTestId('share-open').click();
  const panel = page.getByTestId('share-panel');
  await expect(page.getByTestId('structure-too-large')).toBeVisible();
  await expect(page.getByTestId('summary-link-note')).toBeVisible();
  // The reason, once, on the link it applies to.
  const viewOnly = page.getByTestId('share-view-only');
  await expect(viewOnly).toContainText('This link holds the view only, not the transcript.');
  await expect(viewOnly).toContainText('a link carries at most 2 MiB of transcript');
  await expect(panel.getByText(/at most 2 MiB/)).toHaveCount(1);
  await expect(panel.getByText(/view only/)).toHaveCount(1);
  await expect(panel.getByText(/too large/i)).toHaveCount(0);
  // The other places point to it instead.
  await expect(page.getByTestId('structure-too-large')).toContainText('see the link above');
  await expect(page.getByTestId('summary-link-note')).toContainText('the link above');
});

test('the budget box shows thousands separators; typing, arrows, slider and address agree', async ({
  page,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await openApp(page, '/#v=1&src=coding-agent&b=1100');
  const box = page.getByTestId('budget-input');
  const slider = page.getByTestId('budget-slider');
  // The totals of the exact counter (the estimate before it loads is lower).
  await expect(page.getByTestId('token-basis')).toContainText('o200k_base');
  expect(Number(await slider.getAttribute('max'))).toBeGreaterThan(1400);
  await expect(box).toHaveValue('1,100');
  await expect(slider).toHaveValue('1100');
  // A plain number, typed.
  await box.fill('1200');
  await box.press('Enter');
  await expect(box).toHaveValue('1,200');
  await expect(slider).toHaveValue('1200');
  await expect(page).toHaveURL(/[#&]b=1200(&|$)/);
  // A number typed with separators.
  await box.fill('1,300');
  await box.press('Tab');
  await expect(box).toHaveValue('1,300');
  await expect(slider).toHaveValue('1300');
  await expect(page).toHaveURL(/[#&]b=1300(&|$)/);
  // Arrow keys in the box step one token.
  await box.focus();
  await box.press('ArrowUp');
  await expect(box).toHaveValue('1,301');
  await expect(slider).toHaveValue('1301');
  await box.press('ArrowDown');
  await box.press('ArrowDown');
  await expect(box).toHaveValue('1,299');
  await expect(box).toHaveAttribute('aria-valuenow', '1299');
  // The slider moves the box.
  await slider.focus();
  await slider.press('ArrowRight');
  await expect(box).toHaveValue('1,300');
  await expect(page).toHaveURL(/[#&]b=1300(&|$)/);
});

test('390 px: a broken call’s chip shows its whole id and what is wrong, not cut', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openApp(page, '/#v=1&src=broken-partial-answer');
  const chip = page.locator('[data-testid=timeline] .chip.broken').first();
  await chip.scrollIntoViewIfNeeded();
  await expect(chip).toContainText('toolu_01PartCus8d');
  await expect(chip).toContainText('missing result');
  // Nothing hidden by an ellipsis, and the chip stays inside the screen.
  expect(await chip.evaluate((el) => el.scrollWidth - el.clientWidth)).toBeLessThanOrEqual(1);
  const box = await chip.boundingBox();
  expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(390);
});

test('390 and 1440 px: a row’s token count sits beside its bar, never over it', async ({
  page,
}) => {
  // A message of about 600,000 tokens (the full-length bar, a count of seven digits) and a short one.
  const big = JSON.stringify({
    model: 'claude-sonnet-4-5',
    max_tokens: 1024,
    messages: [
      { role: 'user', content: 'word '.repeat(500_000) },
      { role: 'assistant', content: 'Done.' },
    ],
  });
  for (const [width, height] of [
    [390, 844],
    [1440, 900],
  ] as const) {
    await page.setViewportSize({ width, height });
    await openApp(page);
    await openFile(page, 'big.json', big);
    const cells = page.locator('[data-testid=message-row] .tokens');
    await expect(cells).toHaveCount(2);
    const boxes = await cells.evaluateAll((els) =>
      els.map((el) => {
        const bar = el.querySelector('.token-bar')?.getBoundingClientRect();
        const num = el.querySelector('.token-num')?.getBoundingClientRect();
        return bar && num
          ? { barRight: bar.right, numLeft: num.left, bar: bar.width, text: el.textContent }
          : null;
      }),
    );
    const [first] = boxes;
    expect(first?.bar, `${width} px: the largest message's bar is full length`).toBeGreaterThan(50);
    expect(first?.text ?? '').toMatch(/\d{3},\d{3}/);
    for (const b of boxes) {
      expect(b, `${width} px: a bar and a count`).not.toBeNull();
      if (b)
        expect(b.numLeft, `${width} px: count after its bar`).toBeGreaterThanOrEqual(b.barRight);
    }
  }
});

test('390 px: a paste that fails far down the page shows its error, and the transcript stays', async ({
  page,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  await openApp(page, '/#v=1&src=broken-partial-answer');
  const messages = await page.getByTestId('count-messages').innerText();
  await page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
  await expect(page.getByTestId('parse-error')).toHaveCount(0);
  await paste(page, '{"messages": [ {"role": "user", "content": "hi"}, ]}');
  const banner = page.getByTestId('parse-error');
  await expect(banner).toBeInViewport();
  await expect(banner).toContainText('Not valid JSON');
  await expect(page.getByTestId('count-messages')).toHaveText(messages);
});
