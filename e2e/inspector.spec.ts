import { expect, test, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const repoRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const sample = (file: string) => readFileSync(path.join(repoRoot, 'public/samples', file), 'utf8');

/** Paste text as the user would with Ctrl/Cmd+V outside any text field. */
async function paste(page: Page, text: string) {
  await page.evaluate((t) => {
    const dt = new DataTransfer();
    dt.setData('text/plain', t);
    document.body.dispatchEvent(new ClipboardEvent('paste', { clipboardData: dt, bubbles: true, cancelable: true }));
  }, text);
}

test.describe('inspector page', () => {
  test('opens with the invoice sample: one exchange, two arcs, valid', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByTestId('count-exchanges')).toHaveText('1');
    await expect(page.getByTestId('count-arcs')).toHaveText('2');
    await expect(page.getByTestId('count-broken')).toHaveText('0');
    await expect(page.locator('[data-arc-id]')).toHaveCount(2);
    await expect(page.locator('[data-arc-id][data-status="answered"]')).toHaveCount(2);
    await expect(page.getByTestId('verdict')).toHaveText('Valid: Anthropic Messages would accept this request.');
    await expect(page.getByTestId('verdict')).toHaveAttribute('data-valid', 'true');
    await expect(page.locator('[data-message-index]')).toHaveCount(4);
  });

  test('loads the coding-agent sample from the menu and shows its exchanges and arcs', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByTestId('count-exchanges')).toHaveText('1');
    await page.getByTestId('sample-select').selectOption('coding-agent');
    await expect(page.getByTestId('count-exchanges')).toHaveText('9');
    await expect(page.getByTestId('count-arcs')).toHaveText('19');
    await expect(page.getByTestId('verdict')).toHaveAttribute('data-valid', 'true');
    // Virtualized: fewer rows are mounted than there are messages and bands.
    const mounted = await page.locator('[data-index]').count();
    expect(mounted).toBeLessThan(59);
  });

  test('paste a broken transcript: exact error text and a red arc', async ({ page }) => {
    await page.goto('/');
    await expect(page.getByTestId('count-exchanges')).toHaveText('1');
    await paste(page, sample('broken-unanswered-after-cancel.json'));
    await expect(page.getByTestId('verdict')).toHaveAttribute('data-valid', 'false');
    const first = page.getByTestId('violation').first();
    await expect(first.getByTestId('violation-rank')).toHaveText('the error this request gets');
    await expect(first.getByTestId('error-body')).toContainText(
      'messages.1: `tool_use` ids were found without `tool_result` blocks immediately after: toolu_01CanDocs4k, toolu_01CanWheel9p. Each `tool_use` block must have a corresponding `tool_result` block in the next message.',
    );
    await expect(page.locator('[data-arc-id][data-status="unanswered"]')).toHaveCount(2);
    await expect(page.locator('[data-arc-id][data-broken="true"] .arc-line').first()).toHaveCSS('stroke', /rgb\(2(17|55), (45|107), (32|94)\)/);
  });
});
