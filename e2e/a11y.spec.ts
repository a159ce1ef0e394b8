import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { partialCodingAgent, sample } from './fixtures.ts';
import { fileShown, openApp, openDefault, paste } from './helpers.ts';

// axe-core (run inside the page: no network) over the states a user meets (issue 16): the first
// screen, a broken transcript with its 400, the simulator with a policy's 400, the Share panel,
// Learn, the Repair diff, a cut marker's tooltip, the dark theme, and 800 px and 320 px wide. No
// critical or serious result may remain, and in the Share panel, Learn, the Repair diff and the
// tooltip no moderate one either (heading-order, region); each failure prints the rule, the
// elements and axe's summary so it can be fixed, not muted.

type Impact = 'critical' | 'serious' | 'moderate' | 'minor';
const SERIOUS: readonly Impact[] = ['critical', 'serious'];
const MODERATE: readonly Impact[] = [...SERIOUS, 'moderate'];

async function expectNoSeriousIssues(
  page: Page,
  state: string,
  impacts: readonly Impact[] = SERIOUS,
): Promise<void> {
  const r = await new AxeBuilder({ page })
    .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
    .analyze();
  const bad = r.violations.filter((v) => impacts.includes(v.impact as Impact));
  const report = bad
    .map(
      (v) =>
        `${v.impact} ${v.id} (${v.nodes.length}): ${v.nodes
          .slice(0, 4)
          .map((n) => `${n.target.join(' ')} — ${(n.failureSummary ?? '').replace(/\s+/g, ' ')}`)
          .join(' | ')}`,
    )
    .join('\n');
  expect(bad, `${state}:\n${report}`).toEqual([]);
}

/** Open the broken coding-agent session (a partial answer: one call lost its result). */
async function openBroken(page: Page): Promise<void> {
  await openDefault(page);
  await paste(page, partialCodingAgent().text);
  // A busy machine can take a while to parse and render the 9 exchanges.
  await expect(page.getByTestId('count-exchanges')).toHaveText('9', { timeout: 30_000 });
  await expect(page.getByTestId('count-broken')).toHaveText('1');
  await expect(page.getByTestId('error-body').first()).toBeVisible();
}

// axe walks every node of a long page: on a busy machine one run takes tens of seconds.
test.describe.configure({ timeout: 180_000 });

for (const theme of ['light', 'dark'] as const)
  test.describe(`axe, ${theme} theme`, () => {
    test.beforeEach(async ({ page }) => {
      await page.emulateMedia({ colorScheme: theme });
    });

    test('first screen, then a row opened and Find matching inside it', async ({ page }) => {
      await openDefault(page);
      await expectNoSeriousIssues(page, 'first screen');
      await page.getByTestId('find').fill('invoice');
      await page.getByTestId('expand').first().click();
      await expect(page.getByTestId('find-mark').first()).toBeVisible();
      await page.getByTestId('help-button').click();
      await expect(page.getByTestId('help')).toBeVisible();
      await expectNoSeriousIssues(page, 'find + opened row + help');
    });

    test('a file with a long name open: its menu cut, the name whole in titles', async ({
      page,
    }) => {
      await page.setViewportSize({ width: 1440, height: 800 });
      await openDefault(page);
      const name = '3f2a9c1e-7b4d-4e8a-9c21-5d6e7f8a9b0c-a-long-session.jsonl';
      await page.getByTestId('file-input').setInputFiles({
        name,
        mimeType: 'application/json',
        buffer: Buffer.from(sample('claude-code-session.jsonl')),
      });
      await fileShown(page, name);
      await expectNoSeriousIssues(page, 'a long-named file open', MODERATE);
    });

    test('broken transcript with its 400', async ({ page }) => {
      await openBroken(page);
      await page.getByTestId('jump').first().click();
      await expectNoSeriousIssues(page, 'broken transcript');
    });

    test('simulator with a budget that gives a 400, and its tooltip', async ({ page }) => {
      await openBroken(page);
      const sim = page.getByTestId('simulator');
      if ((await sim.getAttribute('open')) === null) await sim.locator('summary').click();
      const total = Number(await page.getByTestId('budget-slider').getAttribute('max'));
      await page.getByTestId('budget-input').fill(String(Math.round(total * 0.5)));
      await page.getByTestId('budget-input').press('Enter');
      await expect(page.getByTestId('policy-card').first()).toBeVisible();
      await expect(page.getByTestId('sweep-chart')).toBeVisible();
      await expectNoSeriousIssues(page, 'simulator');
    });

    test('Share panel', async ({ page }) => {
      await openBroken(page);
      await page.getByTestId('share-open').click();
      await expect(page.getByTestId('share-panel')).toBeVisible();
      await expectNoSeriousIssues(page, 'share panel', MODERATE);
    });

    test('Learn mode', async ({ page }) => {
      await openDefault(page);
      await page.getByTestId('learn-toggle').click();
      await expect(page.getByTestId('learn-panel')).toBeVisible();
      await page.getByTestId('learn-next').click();
      await page.getByTestId('learn-next').click();
      await expect(page.getByTestId('learn-step-count')).toHaveText(/step 3 of/);
      await expectNoSeriousIssues(page, 'learn', MODERATE);
    });

    test('Repair all with its diff', async ({ page }) => {
      await openDefault(page);
      // Leave a call unanswered (its timeout fault), then repair it: the diff opens.
      await page
        .locator('[data-message-index="1"]')
        .getByText(/tool_use get_customer/)
        .click();
      await page.getByTestId('fault-timeout').filter({ hasText: 'get_customer' }).click();
      await page.getByTestId('repair-all').click();
      await expect(page.getByTestId('diff-before')).toBeVisible();
      await expectNoSeriousIssues(page, 'repair diff', MODERATE);
    });

    test('a cut marker with its tooltip', async ({ page }) => {
      await openApp(page, '/#v=1&src=coding-agent&b=2000');
      await page.getByTestId('cut-marker').first().focus();
      await expect(page.getByRole('tooltip')).toBeVisible();
      await expectNoSeriousIssues(page, 'cut-marker tooltip', MODERATE);
    });
  });

for (const width of [800, 320])
  test(`axe at ${width} px: first screen and a broken transcript`, async ({ page }) => {
    await page.setViewportSize({ width, height: 800 });
    await openApp(page);
    await expectNoSeriousIssues(page, `${width} px first screen`);
    await paste(page, partialCodingAgent().text);
    await expect(page.getByTestId('count-exchanges')).toHaveText('9', { timeout: 30_000 });
    await expect(page.getByTestId('count-broken')).toHaveText('1');
    await expectNoSeriousIssues(page, `${width} px broken`);
  });

test('Tab leaves the timeline after one row: other rows’ Expand buttons and cut markers are not tab stops', async ({
  page,
}) => {
  await openApp(page, '/#v=1&src=coding-agent&b=2000');
  await expect(page.getByTestId('cut-marker').first()).toBeAttached();
  const grid = page.locator('[role=treegrid]');
  const stops = grid.locator('button:not([tabindex="-1"]), [role=row][tabindex="0"]');
  const rows = await grid.locator('[role=row][data-message-index]').count();
  expect(rows).toBeGreaterThan(3);
  // The tabbable row, its Expand button and its cut marker: one row's worth.
  expect(await stops.count()).toBeLessThanOrEqual(3);
  const row = grid.locator('[role=row][tabindex="0"]');
  await row.focus();
  const inside: boolean[] = [];
  for (let i = 0; i < 3; i++) {
    await page.keyboard.press('Tab');
    inside.push(
      await page.evaluate(() => document.activeElement?.closest('[role=treegrid]') !== null),
    );
  }
  expect(inside.at(-1)).toBe(false);
});
