/**
 * A violation's jump selects and highlights the row that holds its cause, also where several rows
 * share one raw index (a split Vercel AI UIMessage, a retry fault's copy), and every text names the
 * row by the label the row shows (`#1.3`).
 */
import { expect, test, type Page } from '@playwright/test';
import { openDefault, paste } from './helpers.ts';

const row = (page: Page, i: number) => page.locator(`[data-message-index="${i}"] .msg`);

/** Our own AI SDK UIMessages: the second step of one assistant UIMessage replays call id c1. */
const VERCEL_REPLAY = [
  { id: 'u1', role: 'user', parts: [{ type: 'text', text: 'Search the docs.' }] },
  {
    id: 'a1',
    role: 'assistant',
    parts: [
      { type: 'step-start' },
      { type: 'tool-search', toolCallId: 'c1', state: 'output-available', input: {}, output: 'a' },
      { type: 'step-start' },
      { type: 'tool-search', toolCallId: 'c1', state: 'output-available', input: {}, output: 'b' },
    ],
  },
  { id: 'u2', role: 'user', parts: [{ type: 'text', text: 'Thanks.' }] },
];

test.describe('violation rows where raw indices repeat', () => {
  test('split Vercel AI UIMessage: the jump highlights the third row from it (#1.3), not the first', async ({
    page,
  }) => {
    await openDefault(page);
    await paste(page, JSON.stringify(VERCEL_REPLAY, null, 2));
    await expect(page.getByTestId('count-messages')).toHaveText('6');
    await expect(page.locator('[data-message-index] .msg-index')).toHaveText([
      '#0',
      '#1.1',
      '#1.2',
      '#1.3',
      '#1.4',
      '#2',
    ]);
    const v = page.locator('[data-testid="violation"][data-rule="duplicate_tool_use_id"]');
    await expect(v).toHaveAttribute('data-rank', 'first');
    await expect(v.getByTestId('jump')).toHaveText('Jump to message #1.3, block 0');
    await v.getByTestId('jump').click();
    await expect(row(page, 3)).toHaveClass(/selected/);
    await expect(row(page, 3)).toHaveClass(/v-first/);
    await expect(row(page, 3).locator('.msg-index')).toHaveText('#1.3');
    await expect(row(page, 1)).not.toHaveClass(/selected/);
    await expect(row(page, 1)).not.toHaveClass(/has-violation/);
    await expect(v).toHaveAttribute('aria-current', 'true');
  });

  test('retry fault: the A6 jump highlights the copy (#1.2); the description names the same rows', async ({
    page,
  }) => {
    await openDefault(page);
    const before = Number(await page.getByTestId('count-messages').textContent());
    expect(before).toBeGreaterThan(2);
    // The invoice sample: select the assistant turn with the two calls, retry it.
    await row(page, 1).locator('.role').click();
    await expect(row(page, 1)).toHaveClass(/selected/);
    await page.getByTestId('fault-retry').click();
    // One message more: the stored copy of #1.
    await expect(page.getByTestId('count-messages')).toHaveText(String(before + 1));
    await expect(row(page, 1).locator('.msg-index')).toHaveText('#1.1');
    await expect(row(page, 2).locator('.msg-index')).toHaveText('#1.2');
    await expect(page.getByTestId('fault-applied')).toContainText(
      'stored assistant message #1.1 twice (the copy is #1.2)',
    );
    const v = page.locator('[data-testid="violation"][data-rule="duplicate_tool_use_id"]').first();
    await expect(v.getByTestId('jump')).toContainText('Jump to message #1.2');
    await v.getByTestId('jump').click();
    await expect(row(page, 2)).toHaveClass(/selected/);
    await expect(row(page, 2)).toHaveClass(/has-violation/);
    await expect(row(page, 1)).not.toHaveClass(/selected/);
  });
});
