/**
 * No lost work (issue 15), as a user clicks it: Copy link shares the transcript on screen (after
 * a paste that does not parse, after Cancel on a large load); Back and Forward show each entry's
 * own transcript with its own view; a pasted transcript survives a reload of the tab, or the page
 * asks before a too-large one is lost; a link that cannot be honoured says so, with nothing shown
 * in its place.
 */
import { expect, test, type Page } from '@playwright/test';
import { generate } from '../scripts/gen.ts';
import { partialCodingAgent } from './fixtures.ts';
import { holdLoadAfterPreview, paste } from './helpers.ts';

/** The machine may be shared: parsing and reloads are waited for this long. */
const SLOW = { timeout: 30_000 };

/** Open a URL and wait until the page shows an analysed transcript (`openApp`, patient). */
async function openApp(page: Page, url = '/'): Promise<void> {
  await page.goto(url);
  await expect(page.getByTestId('app')).toHaveAttribute('data-ready', 'true', SLOW);
}

/** Open the app on its default sample (the invoice session: one exchange), analysed. */
async function openDefault(page: Page): Promise<void> {
  await openApp(page);
  await expect(page.getByTestId('count-exchanges')).toHaveText('1');
}

/** The partial coding-agent session (50 messages, one broken pair), pasted and analysed. */
async function pasteWork(page: Page): Promise<void> {
  await paste(page, partialCodingAgent().text);
  await expect(page.getByTestId('count-messages')).toHaveText('50', SLOW);
  await expect(page.getByTestId('app')).toHaveAttribute('data-ready', 'true', SLOW);
  await expect(page.getByTestId('count-broken')).not.toHaveText('0');
}

/** Select message 5 by clicking its row; the address follows. */
async function selectFive(page: Page): Promise<void> {
  await page.locator('[data-message-index="5"]').first().click();
  await expect(page).toHaveURL(/sel=m5/);
}

// The selected row carries aria-selected itself (a treegrid row, issue 16).
const selectedFive = (page: Page) =>
  expect(page.locator('[data-message-index="5"][aria-selected="true"]')).toHaveCount(1);

async function shareLink(page: Page): Promise<string> {
  await page.getByTestId('share-open').click();
  const link = await page.getByTestId('share-link').inputValue();
  await page.keyboard.press('Escape');
  return link;
}

test('after a paste that does not parse, Copy link shares the transcript still on screen', async ({
  page,
  context,
}) => {
  await openDefault(page);
  await pasteWork(page);
  await paste(page, '{"messages": [ {"role": "user", "content": ');
  await expect(page.getByTestId('parse-error')).toBeVisible();
  await expect(page.getByTestId('count-messages')).toHaveText('50');

  const link = await shareLink(page);
  const other = await context.newPage();
  await openApp(other, link);
  await expect(other.getByTestId('count-messages')).toHaveText('50');
  await expect(other.getByTestId('count-broken')).toHaveText(
    (await page.getByTestId('count-broken').textContent()) ?? '',
  );
  await expect(other.getByTestId('parse-error')).toHaveCount(0);
});

test('an edit that does not parse is still in the text box after Learn → Leave', async ({
  page,
}) => {
  await openDefault(page);
  await pasteWork(page);
  const edit = '{"messages": [ {"role":"user"';
  await page.getByTestId('toggle-text').click();
  await page.getByTestId('source-text').fill(edit);
  await expect(page.getByTestId('parse-error')).toBeVisible();

  await page.getByTestId('learn-toggle').click();
  await expect(page.getByTestId('learn-panel')).toBeVisible();
  await page.getByTestId('learn-leave').click();
  await expect(page.getByTestId('learn-panel')).toHaveCount(0);

  await expect(page.getByTestId('source-text')).toHaveValue(edit);
  await expect(page.getByTestId('parse-error')).toBeVisible();
  await expect(page.getByTestId('count-messages')).toHaveText('50', SLOW);
});

test('after Cancel on a large load, the transcript still shown is the one shared and in the address', async ({
  page,
}) => {
  test.setTimeout(180_000);
  // Over the streaming threshold (2 MiB), so the worker streams it and Cancel is offered; the
  // load is held open after its preview (never released), so it is still running when Cancel is
  // clicked on any machine (a fast one answers even 40 MB before the click).
  const text = generate({ format: 'claude-code-jsonl', messages: 400, mb: 40, seed: 21 });
  await holdLoadAfterPreview(page);
  await openApp(page, '/#v=1&src=coding-agent');
  await page.getByTestId('file-input').setInputFiles({
    name: 'session.jsonl',
    mimeType: 'application/x-ndjson',
    buffer: Buffer.from(text),
  });
  await expect(page.getByTestId('load-progress')).toBeVisible();
  await page.getByTestId('load-cancel').click();
  await expect(page.getByTestId('load-cancelled')).toContainText('session.jsonl was cancelled');
  await expect(page.getByTestId('count-messages')).toHaveText('50');
  await expect(page.getByTestId('app')).toHaveAttribute('data-ready', 'true', SLOW);
  await expect(page).toHaveURL(/src=coding-agent/);
  await expect(page).not.toHaveURL(/n=session/);

  await page.getByTestId('share-open').click();
  await expect(page.getByTestId('share-link')).toHaveValue(/src=coding-agent/);
  await expect(page.getByTestId('share-view-only')).toHaveCount(0);
});

test('paste → open a link in the tab → Back shows the paste with its view → Forward the link', async ({
  page,
}) => {
  await openDefault(page);
  await pasteWork(page);
  await selectFive(page);
  const broken = await page.getByTestId('count-broken').textContent();

  await page.goto('/#v=1&src=invoice&b=900');
  await expect(page.getByTestId('count-exchanges')).toHaveText('1', SLOW);
  await expect(page.locator('[aria-selected="true"]')).toHaveCount(0);

  await page.goBack();
  await expect(page.getByTestId('count-messages')).toHaveText('50', SLOW);
  await expect(page.getByTestId('count-broken')).toHaveText(broken ?? '');
  await selectedFive(page);
  await expect(page).toHaveURL(/sel=m5/);
  await expect(page).not.toHaveURL(/b=900/);

  await page.goForward();
  await expect(page.getByTestId('count-exchanges')).toHaveText('1', SLOW);
  await expect(page).toHaveURL(/src=invoice&b=900/);
  await expect(page.locator('[aria-selected="true"]')).toHaveCount(0);
});

test('paste → paste → Back shows the first paste with its view → Back the sample → Forward', async ({
  page,
}) => {
  // Opened from another page, so that a Back too many would leave the app.
  await page.goto('about:blank');
  await openDefault(page);
  await pasteWork(page);
  await selectFive(page);
  await paste(page, generate({ format: 'anthropic-messages', seed: 21, messages: 7 }));
  await expect(page.getByTestId('count-messages')).not.toHaveText('50', SLOW);
  const second = (await page.getByTestId('count-messages').textContent()) ?? '';

  await page.goBack();
  await expect(page.getByTestId('count-messages')).toHaveText('50', SLOW);
  await selectedFive(page);
  await page.goBack();
  await expect(page.getByTestId('count-exchanges')).toHaveText('1', SLOW);
  await expect(page).toHaveURL(/src=invoice|\/$|#v=1$/);
  await page.goForward();
  await expect(page.getByTestId('count-messages')).toHaveText('50', SLOW);
  await page.goForward();
  await expect(page.getByTestId('count-messages')).toHaveText(second, SLOW);
});

test('a pasted transcript survives a reload of the tab, with its view', async ({ page }) => {
  await openDefault(page);
  await pasteWork(page);
  await selectFive(page);
  await page.reload();
  await expect(page.getByTestId('app')).toHaveAttribute('data-ready', 'true', SLOW);
  await expect(page.getByTestId('count-messages')).toHaveText('50');
  await selectedFive(page);
  await expect(page.getByTestId('permalink-notices')).toHaveCount(0);
  // Kept in this tab only: the address carries the view, never the transcript.
  await expect(page).not.toHaveURL(/[?&#]t=/);
});

test('a paste too large to keep: the page asks before a reload, then says what is missing', async ({
  page,
}) => {
  await openDefault(page);
  const big = JSON.stringify({
    messages: [
      { role: 'user', content: 'x'.repeat(2_300_000) },
      { role: 'assistant', content: 'ok' },
    ],
  });
  await paste(page, big);
  await expect(page.getByTestId('count-messages')).toHaveText('2', SLOW);
  // A click: browsers ask before leaving only a page the user has interacted with.
  await page.locator('[data-message-index="1"]').first().click();
  await expect(page).toHaveURL(/sel=m1/);
  const asked: string[] = [];
  page.on('dialog', (d) => {
    asked.push(d.type());
    void d.accept();
  });
  await page.reload();
  expect(asked).toEqual(['beforeunload']);
  await expect(page.getByTestId('permalink-notices')).toContainText(
    'too large to keep over a reload',
    SLOW,
  );
  // Its view is not put on another transcript: nothing is shown until it is pasted again.
  await expect(page.getByTestId('count-messages')).toHaveCount(0);
  await expect(page.getByTestId('loading')).toBeVisible();
  await page.getByTestId('permalink-show-sample').click();
  await expect(page.getByTestId('count-exchanges')).toHaveText('1', SLOW);
});

test.describe('links that cannot be honoured say so, and nothing stands in for them', () => {
  test('an unknown sample id', async ({ page }) => {
    await page.goto('/#v=1&src=no-such-sample&b=900');
    await expect(page.getByTestId('permalink-notices')).toContainText('no sample “no-such-sample”');
    await expect(page.getByTestId('loading')).toContainText(
      'names a sample this page does not have',
    );
    await expect(page.getByTestId('count-messages')).toHaveCount(0);
    await expect(page).toHaveURL(/src=no-such-sample/);
    await page.getByTestId('permalink-show-sample').click();
    await expect(page.getByTestId('count-exchanges')).toHaveText('1', SLOW);
  });

  test('an unknown sample id opened in place (the address changed) keeps the transcript shown, and says so', async ({
    page,
  }) => {
    await openApp(page, '/#v=1&src=invoice');
    await expect(page.getByTestId('count-exchanges')).toHaveText('1');
    await page.evaluate(() => {
      location.hash = '#v=1&src=orphan-after-trim';
    });
    const notice = page.getByTestId('permalink-notices');
    await expect(notice).toContainText('no sample “orphan-after-trim”');
    await expect(notice).toContainText('The transcript shown is still the one you had');
    await expect(notice).not.toContainText('no transcript is shown');
    // What it says is what is on screen: the invoice sample, whole.
    await expect(page.getByTestId('count-exchanges')).toHaveText('1');
    await expect(page.getByTestId('count-messages')).toHaveText('3');
  });

  test('an empty transcript (t=)', async ({ page }) => {
    await page.goto('/#v=1&t=&b=900');
    await expect(page.getByTestId('permalink-notices')).toContainText('transcript (t=) is empty');
    await expect(page.getByTestId('permalink-notices')).toContainText('No transcript is shown');
    await expect(page.getByTestId('count-messages')).toHaveCount(0);
    await expect(page).toHaveURL(/b=900/);
  });

  test('an unknown lesson step', async ({ page }) => {
    await openApp(page, '/#v=1&src=invoice&learn=no-such-step');
    await expect(page.getByTestId('permalink-notices')).toContainText(
      'no lesson step “no-such-step”',
    );
    await expect(page.getByTestId('learn-panel')).toHaveCount(0);
  });

  test('a damaged or unreadable address', async ({ page, context }) => {
    await page.goto('/#v=1&t=1.d.AAAA&b=900');
    await expect(page.getByTestId('permalink-notices')).toContainText('damaged');
    await expect(page.getByTestId('count-messages')).toHaveCount(0);

    const other = await context.newPage();
    await other.goto('/#%%%cut-off');
    await expect(other.getByTestId('permalink-notices')).toContainText(
      'holds nothing this page reads',
    );
    // No sample stands in for it (and the address is not rewritten to name one).
    await expect(other.getByTestId('count-messages')).toHaveCount(0);
    await expect(other).toHaveURL(/#%%%cut-off$/);
  });
});
