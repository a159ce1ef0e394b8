import AxeBuilder from '@axe-core/playwright';
import { expect, test, type Page } from '@playwright/test';
import { oncallSpans, toOtlp } from '../src/model/testing/otel.fixtures.ts';
import {
  dropFile,
  openApp,
  openDefault,
  pickRequest,
  requestMarks,
  shownRequestMark,
} from './helpers.ts';
import { compactedSessionLog } from './sessionLog.ts';
import { diffRequests, listFileRequests } from '../src/model/diff/index.ts';
import { loadBpeCounter } from '../src/model/tokens.ts';
import { diffTokensWords } from '../src/model/tokenWords.ts';

// Issue 33, as a reviewer in an incident meets it: a file holding several model calls shows a
// strip of them above the timeline; the chosen call survives a reload and a copied link; a
// session log that compacted mid-exchange shows which call first broke, and the diff of that
// call against the one before says what the compaction removed and which pairing it broke.

const trace = JSON.stringify(toOtlp(oncallSpans()), null, 2);
const log = compactedSessionLog();

async function ready(page: Page, chars: number) {
  const app = page.getByTestId('app');
  await expect(app).toHaveAttribute('data-view-chars', String(chars), { timeout: 30_000 });
  await expect(app).toHaveAttribute('data-ready', 'true', { timeout: 30_000 });
}

test('the strip: one mark per call with its verdict; the chosen call survives a reload and a copied link', async ({
  page,
  context,
}) => {
  await openDefault(page);
  await dropFile(page, 'trace.json', trace);
  await ready(page, trace.length);
  await expect(requestMarks(page)).toHaveCount(4);
  await expect(page.getByTestId('strip-sentence')).toContainText('the first failing is request 4');
  await expect(shownRequestMark(page)).toHaveAttribute('data-index', '3');

  await pickRequest(page, 1);
  await expect(shownRequestMark(page)).toHaveAttribute('data-index', '1');
  await expect(page.getByTestId('count-messages')).toHaveText('1');
  await expect(page.getByTestId('strip-shown')).toContainText('Request 2 of 4');
  await expect.poll(() => page.url()).toContain('rq=2');

  // A reload shows the call chosen, not the newest (the tab keeps the dropped file).
  await page.reload();
  await ready(page, trace.length);
  await expect(shownRequestMark(page)).toHaveAttribute('data-index', '1');
  await expect(page.getByTestId('count-messages')).toHaveText('1');

  // The copied link opens on the same call in another tab.
  await page.getByTestId('share-open').click();
  const link = await page.getByTestId('share-link').inputValue();
  expect(link).toContain('rq=2');
  const other = await context.newPage();
  await openApp(other, link);
  await expect(shownRequestMark(other)).toHaveAttribute('data-index', '1', { timeout: 30_000 });
  await expect(other.getByTestId('count-messages')).toHaveText('1');
  await expect(other.getByTestId('verdict')).toHaveAttribute('data-valid', 'true');
});

test('a page showing one request lists nothing: no diff worker (and its tokenizer) until a file has a strip, and none after', async ({
  page,
}) => {
  // Issue 38: the default sample (one request) was listed for a strip it never draws, which
  // started the diff worker and loaded a tokenizer in it: 23 MiB beside any later load.
  const names: Promise<string>[] = [];
  page.on('worker', (w) => names.push(w.evaluate(() => self.name).catch(() => '(ended)')));
  await openDefault(page);
  await expect(page.getByTestId('request-strip')).toHaveCount(0);
  // What the page starts after it is ready (the exact token count) has started by then.
  await expect(page.getByTestId('app')).toHaveAttribute('data-ready', 'true');
  await page.waitForTimeout(1000);
  expect(await Promise.all(names)).not.toContain('diff');
  // A file of several requests is listed (by the diff worker), and its strip drawn.
  await dropFile(page, 'trace.json', trace);
  await ready(page, trace.length);
  await expect(requestMarks(page)).toHaveCount(4);
  await expect.poll(() => Promise.all(names)).toContain('diff');
  // A file of one request again: the diff worker, with the listing it kept, is let go.
  const alive = async () =>
    (
      await Promise.all(page.workers().map((w) => w.evaluate(() => self.name).catch(() => '')))
    ).filter((n) => n === 'diff').length;
  expect(await alive()).toBe(1);
  const one = JSON.stringify({
    model: 'claude-sonnet-4-5',
    max_tokens: 64,
    messages: [{ role: 'user', content: 'Hello' }],
  });
  await dropFile(page, 'one.json', one);
  await ready(page, one.length);
  await expect(page.getByTestId('request-strip')).toHaveCount(0);
  await expect.poll(alive).toBe(0);
});

test('keyboard: ] and [ step through the requests', async ({ page }) => {
  await openDefault(page);
  await dropFile(page, 'trace.json', trace);
  await ready(page, trace.length);
  await expect(shownRequestMark(page)).toHaveAttribute('data-index', '3');
  await page.locator('body').press('[');
  await expect(shownRequestMark(page)).toHaveAttribute('data-index', '2');
  await page.locator('body').press('[');
  await expect(shownRequestMark(page)).toHaveAttribute('data-index', '1');
  await page.locator('body').press(']');
  await expect(shownRequestMark(page)).toHaveAttribute('data-index', '2');
  await expect(page.getByTestId('count-messages')).toHaveText('3');
});

test('a session log that compacted mid-exchange: the strip names the first failing call, the diff says what broke', async ({
  page,
}) => {
  await openDefault(page);
  await dropFile(page, 'session.jsonl', log);
  await ready(page, log.length);
  await expect(requestMarks(page)).toHaveCount(6);
  await expect(page.getByTestId('strip-sentence')).toHaveText(
    '6 model calls, 1 compaction or rollback; the first failing is call 5 (A1); calls 1–4 pass.',
  );
  await expect
    .poll(() =>
      requestMarks(page).evaluateAll((els) => els.map((e) => e.getAttribute('data-tone'))),
    )
    .toEqual(['ok', 'ok', 'ok', 'ok', 'bad', 'bad']);
  await expect(requestMarks(page).nth(4)).toHaveAttribute(
    'aria-label',
    /compaction before it \(auto, 167,766 → 6,977 tokens\)/,
  );

  await page.getByTestId('strip-first-failing').click();
  await expect(shownRequestMark(page)).toHaveAttribute('data-index', '4');
  await expect(page.getByTestId('count-messages')).toHaveText('2');
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-valid', 'false');
});

test('the diff of the compacted call against the one before: sentence, rows, broken pairing, cache prefix, keyboard, character diff, reload', async ({
  page,
}) => {
  await openCompactionDiff(page);
  const view = page.getByTestId('diff-view');
  // The sentence the model writes for this diff, with the CLI's exact token counts: the page
  // counts so once its exact tokenizer is loaded (said "estimated" until then).
  const listing = listFileRequests(log, { name: 'session.jsonl' });
  if (!listing.ok) throw new Error(listing.error.message);
  const expected = diffRequests(listing.value, 4, undefined, { counter: await loadBpeCounter() });
  if (!expected.ok) throw new Error(expected.error);
  await expect(view.getByTestId('diff-token-basis')).toHaveText(
    diffTokensWords(expected.value.tokenBasis),
  );
  await expect(view.getByTestId('diff-token-basis')).toContainText(
    `Text tokens: ${expected.value.tokenBasis}, as the command line counts them; a reply is counted by its text, not by the usage`,
  );
  await expect(view.getByTestId('diff-side-right')).toContainText(
    `${expected.value.right.tokens.toLocaleString('en-US')} text tokens`,
  );
  expect(expected.value.summary).toMatch(
    /^Request 5 replaced messages 0–6 \(1 exchange, [\d,]+ tokens\) with a summary .*broke the pairing at new message #1: its tool_result is orphaned → Anthropic Messages 400 \(A1\)\.$/,
  );
  await expect(view.getByTestId('diff-summary')).toHaveText(expected.value.summary);
  await expect
    .poll(() =>
      view
        .getByTestId('diff-row')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-change'))),
    )
    .toEqual([
      'dropped',
      'dropped',
      'dropped',
      'dropped',
      'dropped',
      'dropped',
      'dropped',
      'rewritten',
      'inserted',
    ]);
  await expect(view.getByTestId('diff-broken-pair')).toHaveText([
    /toolu_04Edit \(A1: tool result with no call before it, right #1\)/,
  ]);
  await expect(view.getByTestId('diff-error')).toContainText(
    'unexpected `tool_use_id` found in `tool_result` blocks: toolu_04Edit',
  );
  await expect(view.getByTestId('diff-error')).toContainText('messages.');
  await expect(view.getByTestId('diff-cache')).toContainText('does not match from the start');
  await expect(view.getByTestId('diff-cache-line')).toBeVisible();
  // The left side's pairs are drawn; the right side's lost call is a broken row.
  await expect(view.locator('[data-testid="diff-arcs-left"] path')).toHaveCount(3);
  await expect(view.locator('[data-testid="diff-row"].broken')).toHaveCount(1);
  // …with a red stub on the right where its pairing broke (its call's row is gone there).
  await expect(
    view.locator('[data-testid="diff-arcs-right"] path.broken[data-stub="up"]'),
  ).toHaveCount(1);
  await expect.poll(() => page.url()).toMatch(/rq=5.*d=prev|d=prev.*rq=5/);

  // Keyboard: . and , step through the changes.
  await page.locator('body').press('.');
  await expect(view.locator('[data-testid="diff-row"][aria-current="true"]')).toHaveAttribute(
    'data-row',
    '0',
  );
  await page.locator('body').press('.');
  await expect(view.locator('[data-testid="diff-row"][aria-current="true"]')).toHaveAttribute(
    'data-row',
    '1',
  );
  await page.locator('body').press(',');
  await expect(view.locator('[data-testid="diff-row"][aria-current="true"]')).toHaveAttribute(
    'data-row',
    '0',
  );

  // The summary that replaced the span opens its character diff (made in the diff worker).
  await view.getByTestId('diff-open-chars').click();
  // Its runs rebuild both sides: without the removed runs, the summary; without the added, the span.
  const chars = view.getByTestId('diff-chars-text');
  await expect(chars.locator('ins').first()).toBeVisible();
  const sides = await chars.evaluate((el) => {
    const text = (skip: string) =>
      Array.from(el.childNodes)
        .filter((n) => n.nodeName.toLowerCase() !== skip)
        .map((n) => n.textContent ?? '')
        .join('');
    return { after: text('del'), before: text('ins') };
  });
  expect(sides.after).toContain('This session is being continued from a previous conversation');
  expect(sides.before).toContain('The revenue dashboard shows zero for last week.');
  const names = await Promise.all(page.workers().map((w) => w.evaluate(() => self.name)));
  expect(names).toContain('diff');

  // The diff view survives a reload: the link carries it.
  await page.reload();
  await ready(page, log.length);
  await expect(page.getByTestId('diff-summary')).toContainText('Request 5 replaced messages 0–6');
});

/** Open the compacted session log on its first failing call, with the diff against the one before. */
async function openCompactionDiff(page: Page) {
  await openDefault(page);
  await dropFile(page, 'session.jsonl', log);
  await ready(page, log.length);
  await expect(page.getByTestId('strip-sentence')).toContainText('the first failing is call 5');
  await page.getByTestId('strip-first-failing').click();
  await expect(shownRequestMark(page)).toHaveAttribute('data-index', '4');
  await page.getByTestId('diff-previous').click();
  await expect(page.getByTestId('diff-summary')).toContainText('Request 5 replaced');
}

test.describe('axe and screenshots', () => {
  test.describe.configure({ timeout: 180_000 });
  for (const theme of ['light', 'dark'] as const)
    test(`the strip and the diff view: axe finds nothing serious (${theme})`, async ({ page }) => {
      await page.emulateMedia({ colorScheme: theme });
      await openCompactionDiff(page);
      await page.getByTestId('diff-open-chars').click();
      await expect(page.getByTestId('diff-chars-text')).toBeVisible();
      const r = await new AxeBuilder({ page })
        .include('[data-testid="request-strip"]')
        .include('[data-testid="diff-view"]')
        .withTags(['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'])
        .analyze();
      const bad = r.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical');
      expect(
        bad,
        bad
          .map((v) => `${v.impact} ${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(' | ')}`)
          .join('\n'),
      ).toEqual([]);
    });

  for (const [w, h] of [
    [1440, 900],
    [320, 800],
  ] as const)
    test(`screenshots at ${w} px`, async ({ page }, info) => {
      await page.setViewportSize({ width: w, height: h });
      await openDefault(page);
      await dropFile(page, 'session.jsonl', log);
      await ready(page, log.length);
      await page.getByTestId('strip-first-failing').click();
      await expect(shownRequestMark(page)).toHaveAttribute('data-index', '4');
      const strip = page.getByTestId('request-strip');
      // Nothing of the strip spills past the window.
      const box = await strip.boundingBox();
      expect((box?.x ?? 0) + (box?.width ?? 0)).toBeLessThanOrEqual(w + 1);
      await strip.scrollIntoViewIfNeeded();
      await page.screenshot({ path: info.outputPath(`strip-${w}.png`) });
      await page.getByTestId('diff-previous').click();
      await expect(page.getByTestId('diff-summary')).toBeVisible();
      await page.getByTestId('diff-view').scrollIntoViewIfNeeded();
      await page.screenshot({ path: info.outputPath(`diff-${w}.png`) });
    });
});
