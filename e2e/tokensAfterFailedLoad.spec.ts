/**
 * A newcomer's report: broken JSON pasted (or a large file opened and cancelled) while the
 * tokenizer was still loading left the transcript shown at "≈ chars/4 (tokenizer loading)" for
 * good; the budget, slider and sweep kept the estimate. The tokenizer's chunk is held back here
 * until the failing or cancelled load is over, so the failing load always comes first; then the
 * header must leave the estimate for the exact count. Assertions are on states, never on time.
 */
import { expect, test, type BrowserContext } from '@playwright/test';
import { generate } from '../scripts/gen.ts';
import { openApp, paste } from './helpers.ts';

/** Hold the o200k tokenizer chunk (page and worker) until `release` is called. */
async function holdTokenizer(context: BrowserContext): Promise<{ release: () => void }> {
  let release = () => {};
  const released = new Promise<void>((r) => (release = r));
  await context.route(/o200k_base-[^/]*\.js$/, async (route) => {
    await released;
    await route.continue();
  });
  return { release };
}

test('broken JSON pasted while the tokenizer loads: the transcript shown still gets its exact count', async ({
  page,
  context,
}) => {
  const tokenizer = await holdTokenizer(context);
  await openApp(page);
  const basis = page.getByTestId('token-basis');
  await expect(basis).toContainText('tokenizer loading');
  const before = await page.getByTestId('count-messages').textContent();

  await paste(page, '{"model": "claude-sonnet-4-5", "messages": [ {"role": "user", "content": ');
  await expect(page.getByTestId('parse-error')).toBeVisible();
  // The transcript shown is still the sample, next to the error.
  await expect(page.getByTestId('count-messages')).toHaveText(before ?? '');

  tokenizer.release();
  await expect(basis).not.toContainText('tokenizer loading', { timeout: 30_000 });
  await expect(basis).toContainText('o200k_base');
  await expect(page.getByTestId('count-messages')).toHaveText(before ?? '');
});

test('a large file cancelled while the tokenizer loads: the transcript shown still gets its exact count', async ({
  page,
  context,
}) => {
  test.setTimeout(180_000);
  // Over the streaming threshold (2 MiB), so the worker streams it and Cancel is offered.
  const text = generate({ format: 'claude-code-jsonl', messages: 400, mb: 12, seed: 21 });
  const tokenizer = await holdTokenizer(context);
  await openApp(page);
  const basis = page.getByTestId('token-basis');
  await expect(basis).toContainText('tokenizer loading');
  const before = await page.getByTestId('count-messages').textContent();

  // Cancel is clicked in the page as soon as it appears: the answer comes first (issue 38), so a
  // load of this size can end between a test's "progress is visible" and its click.
  const cancelled = page.evaluate(
    () =>
      new Promise<void>((resolve) => {
        const click = () => {
          const b = document.querySelector<HTMLButtonElement>('[data-testid=load-cancel]');
          if (!b) return false;
          b.click();
          resolve();
          return true;
        };
        if (click()) return;
        const seen = new MutationObserver(() => {
          if (click()) seen.disconnect();
        });
        seen.observe(document.body, { subtree: true, childList: true });
      }),
  );
  await page.getByTestId('file-input').setInputFiles({
    name: 'session.jsonl',
    mimeType: 'application/x-ndjson',
    buffer: Buffer.from(text),
  });
  await cancelled;
  await expect(page.getByTestId('load-cancelled')).toBeVisible();
  await expect(page.getByTestId('count-messages')).toHaveText(before ?? '');

  tokenizer.release();
  await expect(basis).not.toContainText('tokenizer loading', { timeout: 30_000 });
  await expect(basis).toContainText('o200k_base');
  await expect(page.getByTestId('count-messages')).toHaveText(before ?? '');
});
