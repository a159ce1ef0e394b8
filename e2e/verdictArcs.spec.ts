import { expect, test } from '@playwright/test';
import { openDefault } from './helpers.ts';

// Arcs and the "broken" count follow the chosen provider's verdict, not only pairing: a pair an
// error violation names is red even when its result sits in the answer run.
test.describe('arcs follow the verdict', () => {
  test('Bedrock results split over two user messages: B2 call red, 1 of 2 broken', async ({
    page,
  }) => {
    await openDefault(page);
    await page.getByTestId('sample-select').selectOption('broken-bedrock-split-results');
    await expect(page.getByTestId('count-arcs')).toHaveText('2');
    await expect(page.getByTestId('count-broken')).toHaveText('1');
    await expect(page.locator('[data-arc-id][data-broken="true"]')).toHaveCount(1);
    const red = page.locator('[data-arc-id][data-broken="true"]');
    await expect(red).toHaveAttribute('data-status', 'answered');
    await expect(red.locator('.arc-line')).toHaveCSS('stroke', 'rgb(217, 45, 32)');
    await expect(red.locator('.arc-hit')).toHaveAttribute(
      'aria-label',
      /^consumer_status tooluse_Cs44LmPe: answered, but not as AWS Bedrock Converse requires: .+ \(B2\)$/,
    );
    // The sibling answered in the next message stays blue.
    await expect(page.locator('[data-arc-id][data-broken="false"] .arc-hit')).toHaveAttribute(
      'aria-label',
      'queue_depth tooluse_Qd81sVxN: answered',
    );
    await expect(page.locator('[data-testid="chip"].broken').first()).toHaveAttribute(
      'title',
      /answered, but not as AWS Bedrock Converse requires/,
    );
  });

  test('text before tool_result: the A3 arc is red, 1 broken', async ({ page }) => {
    await openDefault(page);
    await page.getByTestId('sample-select').selectOption('broken-text-before-result');
    await expect(page.getByTestId('count-arcs')).toHaveText('1');
    await expect(page.getByTestId('count-broken')).toHaveText('1');
    const red = page.locator('[data-arc-id][data-broken="true"]');
    await expect(red).toHaveCount(1);
    await expect(red.locator('.arc-line')).toHaveCSS('stroke', 'rgb(217, 45, 32)');
    await expect(red.locator('title').first()).toHaveText(
      /^answered, but not as Anthropic Messages requires: .+ \(A3\)$/,
    );
  });
});
