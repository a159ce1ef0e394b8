/**
 * Issue 33 on the streamed path: a session log larger than the page reads whole (STREAM_MIN_BYTES)
 * reaches the inspect worker only, which reads its model calls itself; the strip then shows the
 * same calls, compaction and first failing call as for the log read whole (e2e/strip.spec.ts),
 * choosing a call shows its context, and the diff view compares a call with its predecessor (the
 * diff worker reads the file's Blob: the page keeps no text of it).
 */
import { expect, test } from '@playwright/test';
import { STREAM_MIN_BYTES } from '../src/engine/limits.ts';
import { diffRequests, listFileRequests } from '../src/model/diff/index.ts';
import { fileShown, openDefault, requestMarks, shownRequestMark } from './helpers.ts';
import { compactedSessionLog } from './sessionLog.ts';

/** The compacted log with each user line carrying a large tool output, as Claude Code logs it. */
function largeLog(): string {
  const lines = compactedSessionLog().trimEnd().split('\n');
  const users = lines.filter((l) => (JSON.parse(l) as { type: string }).type === 'user').length;
  const pad = 'x'.repeat(Math.ceil((STREAM_MIN_BYTES * 1.2) / users));
  return `${lines
    .map((l) => {
      const v = JSON.parse(l) as Record<string, unknown>;
      return JSON.stringify(v.type === 'user' ? { ...v, toolUseResult: { stdout: pad } } : v);
    })
    .join('\n')}\n`;
}

test('a streamed session log shows its model calls on the strip, judged as when read whole', async ({
  page,
}) => {
  const text = largeLog();
  expect(text.length).toBeGreaterThan(STREAM_MIN_BYTES);
  await openDefault(page);
  await page.getByTestId('file-input').setInputFiles({
    name: 'session.jsonl',
    mimeType: 'application/x-ndjson',
    buffer: Buffer.from(text),
  });
  await fileShown(page, 'session.jsonl');
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
  await expect(page.getByTestId('strip-shown')).toContainText('The whole log is shown');

  // Choosing the first failing call shows its context (narrowed in the worker, not read again).
  await page.getByTestId('strip-first-failing').click();
  await expect(shownRequestMark(page)).toHaveAttribute('data-index', '4');
  await expect(page.getByTestId('count-messages')).toHaveText('2');
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-valid', 'false');
  await expect(requestMarks(page)).toHaveCount(6);

  // Its diff against the call before it: the diff worker reads the file's Blob (issue 33).
  const listing = listFileRequests(text, { name: 'session.jsonl' });
  if (!listing.ok) throw new Error(listing.error.message);
  const expected = diffRequests(listing.value, 4);
  if (!expected.ok) throw new Error(expected.error);
  const changes = expected.value.rows.map((r) => r.change);
  // The compaction before call 5: the turns before it dropped, its summary the row it left.
  expect(changes).toContain('dropped');
  expect(changes).toContain('rewritten');
  await page.getByTestId('diff-previous').click();
  const view = page.getByTestId('diff-view');
  await expect(view.getByTestId('diff-summary')).toHaveText(
    /^Request 5 replaced messages 0–\d+ \(.*\) with a summary/,
    { timeout: 60_000 },
  );
  await expect(view.getByTestId('diff-note')).toHaveCount(0);
  await expect
    .poll(() =>
      view
        .getByTestId('diff-row')
        .evaluateAll((els) => els.map((e) => e.getAttribute('data-change'))),
    )
    .toEqual(changes);
  // Each row is labelled with its change; the summary's opens its character diff, read in the
  // worker from the same Blob.
  await expect(view.locator('[data-change="dropped"] .diff-label').first()).toHaveText('dropped');
  await view.getByTestId('diff-open-chars').first().click();
  const chars = page.getByTestId('diff-chars-text');
  // The turns the summary replaced against the summary: text removed and text added.
  await expect(chars.locator('ins').first()).toBeVisible({ timeout: 30_000 });
  await expect(chars.locator('del').first()).toBeVisible();
  await expect(chars).toContainText('SETTLED');
});
