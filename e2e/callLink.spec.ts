/**
 * The structure-only link of a chosen call of a session log (newcomer): the link used to carry
 * the call's context written as a log, so the reader got a log of the calls before it ("3 model
 * calls; every one passes.") above the 400 of the request, with no call chosen. It carries the
 * call with its reply and names it (`rq`): the reader sees what the sender saw, that call chosen,
 * its 400, and a strip that agrees.
 */
import { expect, test, type Page } from '@playwright/test';
import { lastCallFailsLog } from '../src/model/testing/claudeCodeLog.ts';
import { dropFile, openApp, openDefault, pickRequest, shownRequestMark } from './helpers.ts';

const log = lastCallFailsLog();

/** What the reader must see as the sender did: the call, its verdict, its rules, the strip. */
async function view(page: Page) {
  const rules = await page
    .locator('[data-testid="violation"]')
    .evaluateAll((els) => els.map((e) => e.getAttribute('data-rule')));
  return {
    call: await shownRequestMark(page).getAttribute('data-index'),
    messages: await page.getByTestId('count-messages').innerText(),
    verdict: await page.getByTestId('verdict').innerText(),
    rules,
    sentence: await page.getByTestId('strip-sentence').innerText(),
  };
}

test('the structure-only link of a chosen failing call opens on that call, with its 400, under a strip that agrees', async ({
  page,
  context,
}) => {
  await openDefault(page);
  await dropFile(page, 'session.jsonl', log);
  await expect(page.getByTestId('app')).toHaveAttribute('data-view-chars', String(log.length));
  await expect(page.getByTestId('strip-sentence')).toHaveText(
    '4 model calls; the first failing is call 4 (A2); calls 1–3 pass.',
  );
  await pickRequest(page, 3);
  await expect(shownRequestMark(page)).toHaveAttribute('data-index', '3');
  await expect(page.getByTestId('count-messages')).toHaveText('7');
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-valid', 'false');
  await expect(page.getByTestId('app')).toHaveAttribute('data-ready', 'true');
  const seen = await view(page);
  expect(seen.rules).toContain('unanswered_tool_use');

  await page.getByTestId('share-open').click();
  const link = await page.getByTestId('structure-link').inputValue();

  const other = await context.newPage();
  await openApp(other, link);
  await expect(other.getByTestId('verdict')).toHaveAttribute('data-valid', 'false');
  await expect(shownRequestMark(other)).toHaveAttribute('data-index', '3');
  await expect(other.getByTestId('count-messages')).toHaveText('7');
  // The strip's verdicts arrive after the transcript: the whole view, once they have.
  await expect.poll(() => view(other)).toEqual(seen);
  await expect(other.getByTestId('verdict')).toContainText('HTTP 400');
  // Nothing on the page says the calls pass, nor that the whole log is judged.
  await expect(other.locator('body')).not.toContainText('every one passes');
  await expect(other.getByTestId('verdict-whole-log')).toHaveCount(0);
  await expect(other.locator('body')).not.toContainText('dashboard query');
  await expect(other.getByTestId('permalink-notices')).toContainText('Structure-only link');
  // The link names the call in its copy (main's carried no request: the copy opened whole),
  // and the panel says so.
  expect(link).toMatch(/[#&]rq=4(&|$)/);
  await expect(page.getByTestId('structure-call')).toContainText('call 4 is this one');
});

test('a chosen Codex call: its structure-only link opens on that call too', async ({
  page,
  context,
}) => {
  await openApp(page, '/#v=1&src=codex-rollout&rq=2');
  await expect(shownRequestMark(page)).toHaveAttribute('data-index', '1');
  await expect(page.getByTestId('strip-sentence')).toHaveText('2 model calls; every one passes.');
  const seen = await view(page);
  await page.getByTestId('share-open').click();
  const link = await page.getByTestId('structure-link').inputValue();

  const other = await context.newPage();
  await openApp(other, link);
  await expect(shownRequestMark(other)).toHaveAttribute('data-index', '1');
  await expect.poll(() => view(other)).toEqual(seen);
  await expect(other.getByTestId('format')).toHaveText('codex-jsonl');
  expect(link).toMatch(/[#&]rq=2(&|$)/);
});

test('the structure-only link of a call shown against the previous one keeps that diff (d=prev): the copy holds the previous call', async ({
  page,
  context,
}) => {
  await openDefault(page);
  await dropFile(page, 'session.jsonl', log);
  await pickRequest(page, 3);
  await expect(shownRequestMark(page)).toHaveAttribute('data-index', '3');
  await page.getByTestId('diff-previous').click();
  const summary = page.getByTestId('diff-view').getByTestId('diff-summary');
  await expect(summary).toBeVisible();
  const seen = await summary.innerText();
  expect(seen).toMatch(/^Request 4 added/);

  await page.getByTestId('share-open').click();
  const link = await page.getByTestId('structure-link').inputValue();
  // Before: the structure-only link dropped the diff, and the reader saw the call alone.
  expect(link).toMatch(/[#&]d=prev(&|$)/);

  const other = await context.newPage();
  await openApp(other, link);
  await expect(shownRequestMark(other)).toHaveAttribute('data-index', '3');
  await expect(other.getByTestId('diff-view').getByTestId('diff-summary')).toHaveText(seen);
});
