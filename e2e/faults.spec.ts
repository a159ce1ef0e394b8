import { expect, test, type Page } from '@playwright/test';
import { LESSON } from '../src/model/lesson.ts';
import { openDefault } from './helpers.ts';

/** Select a message with the keyboard (`j` steps down; the timeline scrolls it into view). */
async function selectMessage(page: Page, index: number) {
  await page.locator('body').click({ position: { x: 5, y: 5 } });
  for (let i = 0; i <= index; i++) await page.keyboard.press('j');
  await expect(page.locator(`[data-message-index="${index}"]`).first()).toBeVisible();
}

test.describe('faults and repair', () => {
  test('inject a timeout, read the 400, repair, read "valid", undo', async ({ page }) => {
    await openDefault(page);
    await expect(page.getByTestId('count-broken')).toHaveText('0');
    // Select the get_customer tool_use (its chip selects the call's pair).
    await page
      .locator('[data-message-index="1"]')
      .getByText(/tool_use get_customer/)
      .click();
    const timeout = page.getByTestId('fault-timeout').filter({ hasText: 'get_customer' });
    await expect(timeout).toHaveCount(1);
    const id = await timeout.getAttribute('data-pair');
    expect(id).toBe('p1');
    await timeout.click();

    // The exact Anthropic 400 for the unanswered call.
    await expect(page.getByTestId('count-broken')).toHaveText('1');
    const first = page.locator('[data-testid="violation"][data-rank="first"]');
    await expect(first).toHaveAttribute('data-rule', 'partial_answer');
    await expect(first).toContainText(
      '`tool_use` ids were found without `tool_result` blocks immediately after:',
    );
    await expect(first).toContainText(
      'Each `tool_use` block must have a corresponding `tool_result` block in the next message.',
    );
    await expect(page.getByTestId('fault-applied')).toContainText(
      'timed out; only the results of its 1 parallel sibling were appended',
    );

    // Repair all: valid, one change, a diff and an export in the original format.
    await page.getByTestId('repair-all').click();
    const verdict = page.getByTestId('repair-verdict');
    await expect(verdict).toHaveAttribute('data-valid', 'true');
    await expect(verdict).toContainText('valid');
    await expect(page.getByTestId('repair-changes').locator('li')).toHaveCount(1);
    await expect(page.getByTestId('repair-changes').locator('li')).toHaveAttribute(
      'data-kind',
      'error_result_added',
    );
    await expect(page.getByTestId('repair-changes')).toContainText('error result added');
    await expect(page.locator('[data-testid="diff-after"] [data-status="changed"]')).toHaveCount(1);
    const download = page.waitForEvent('download');
    await page.getByTestId('repair-export').click();
    const file = await download;
    expect(file.suggestedFilename()).toBe('invoice-repaired.json');
    const path = await file.path();
    const { readFileSync } = await import('node:fs');
    const body = JSON.parse(readFileSync(path, 'utf8')) as {
      messages: { content: { type: string; is_error?: boolean }[] }[];
    };
    expect(body.messages[2]?.content.map((b) => [b.type, b.is_error === true])).toEqual([
      ['tool_result', false],
      ['tool_result', true],
    ]);

    // Undo: back to the transcript as loaded.
    await page.getByTestId('fault-undo').click();
    await expect(page.getByTestId('count-broken')).toHaveText('0');
    await expect(page.getByTestId('fault-applied')).toHaveCount(0);
  });

  test('cancel mid-turn on the long session: error results before the user text', async ({
    page,
  }) => {
    await openDefault(page);
    await page.getByTestId('sample-select').selectOption('coding-agent');
    await expect(page.getByTestId('count-exchanges')).not.toHaveText('1');
    await selectMessage(page, 15);
    await page.getByTestId('fault-cancel').click();
    await expect(page.locator('[data-testid="violation"][data-rank="first"]')).toHaveAttribute(
      'data-rule',
      'unanswered_tool_use',
    );
    await page.getByTestId('repair-all').click();
    await expect(page.getByTestId('repair-verdict')).toHaveAttribute('data-valid', 'true');
    await expect(page.getByTestId('repair-changes').locator('li')).toHaveCount(2);
  });
});

test.describe('Learn mode', () => {
  test('walks the lesson from the first step to the last', async ({ page }) => {
    await openDefault(page);
    await page.getByTestId('learn-toggle').click();
    const panel = page.getByTestId('learn-panel');
    for (const [i, step] of LESSON.entries()) {
      await expect(panel).toHaveAttribute('data-step', step.id);
      await expect(page.getByTestId('learn-step-count')).toHaveText(
        `step ${i + 1} of ${LESSON.length}`,
      );
      await expect(page.getByTestId('learn-body')).toHaveText(step.body);
      await expect(page.getByTestId('app')).toHaveAttribute('data-ready', 'true');
      if (step.id === 'drop-message-two')
        await expect(page.locator('[data-testid="violation"][data-rank="first"]')).toHaveAttribute(
          'data-rule',
          'orphan_tool_result',
        );
      if (step.id === 'exchange-unit') {
        await expect(
          page.locator('[data-testid="learn-policy"][data-policy="message"]'),
        ).toHaveAttribute('data-valid', 'false');
        await expect(
          page.locator('[data-testid="learn-policy"][data-policy="exchange"]'),
        ).toHaveAttribute('data-valid', 'true');
      }
      if (step.id === 'faults')
        await expect(page.locator('[data-testid="violation"][data-rank="first"]')).toHaveAttribute(
          'data-rule',
          'partial_answer',
        );
      if (step.id === 'repair')
        await expect(page.getByTestId('repair-verdict')).toHaveAttribute('data-valid', 'true');
      if (i < LESSON.length - 1) await page.getByTestId('learn-next').click();
    }
    await expect(page.getByTestId('learn-next')).toBeDisabled();
    await page.getByTestId('learn-prev').click();
    await expect(panel).toHaveAttribute('data-step', LESSON[LESSON.length - 2]?.id ?? '');
  });

  test('each step has its own permalink', async ({ page }) => {
    await openDefault(page);
    await page.getByTestId('learn-toggle').click();
    await page.getByTestId('learn-next').click();
    await page.getByTestId('learn-next').click();
    await page.getByTestId('learn-next').click();
    await expect(page.getByTestId('learn-panel')).toHaveAttribute('data-step', 'overshoot');
    await expect(page).toHaveURL(/learn=overshoot/);
    const url = page.url();
    const other = await page.context().newPage();
    await other.goto(url);
    await expect(other.getByTestId('learn-panel')).toHaveAttribute('data-step', 'overshoot');
    await expect(other.getByTestId('learn-step-count')).toHaveText(`step 4 of ${LESSON.length}`);
    await expect(
      other.locator('[data-testid="learn-policy"][data-policy="exchange"]'),
    ).toHaveAttribute('data-valid', 'true');
  });
});
