/**
 * While a large file streams in, the page shows a preview of its first messages and its verdict
 * is provisional (newcomer finding): the faults and Repair all would act on those first rows only
 * (an 81-line "repaired" export of a 36,000-line log; a truncation that later hit the file's real
 * last message), so their buttons wait, disabled, and say why; once the whole file is read they
 * work. The provisional phase is held open deterministically: the page holds the worker's answers
 * after its preview until the test releases them. Input from scripts/gen.ts.
 */
import { expect, test } from '@playwright/test';
import { generate } from '../scripts/gen.ts';
import { parseTranscript } from '../src/model/parse/index.ts';
import { fileShown, holdLoadAfterPreview, openApp, releaseLoad } from './helpers.ts';

// Above the 2 MiB line, so the worker streams it and posts a preview of its first records.
const LOG = generate({ format: 'claude-code-jsonl', messages: 800, mb: 3, seed: 21 });

test('while a large file streams, the faults and Repair all are disabled and say why; then they work', async ({
  page,
}) => {
  test.setTimeout(120_000);
  await holdLoadAfterPreview(page);
  await openApp(page);
  await expect(page.getByTestId('repair-all')).toBeEnabled();
  await page.getByTestId('file-input').setInputFiles({
    name: 'held.jsonl',
    mimeType: 'application/x-ndjson',
    buffer: Buffer.from(LOG),
  });

  // The preview: the load still runs, the verdict is provisional.
  await expect(page.getByTestId('load-text')).toContainText('showing the first messages');
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-provisional', 'true');
  const repairAll = page.getByTestId('repair-all');
  const truncate = page.getByTestId('fault-truncate');
  for (const button of [repairAll, truncate]) await expect(button).toBeDisabled();
  const note = page.getByTestId('fault-provisional');
  await expect(note).toHaveText(/wait for the whole of held\.jsonl/);
  for (const button of [repairAll, truncate])
    await expect(button).toHaveAccessibleDescription(/wait for the whole of held\.jsonl/);
  // A call selected in the preview: its faults are offered, disabled.
  const call = page.locator('[data-message-index]').getByText(/tool_use \w+/);
  await call.first().click();
  const menu = page.getByTestId('fault-menu').getByRole('button');
  await expect(menu.first()).toBeVisible();
  for (const button of await menu.all()) await expect(button).toBeDisabled();
  await expect(page.getByTestId('repair-panel')).toHaveCount(0);
  await expect(page.getByTestId('fault-applied')).toHaveCount(0);

  // The whole file is read: the note goes, the buttons work on the whole transcript.
  await releaseLoad(page);
  await expect(page.getByTestId('load-progress')).toHaveCount(0, { timeout: 60_000 });
  await expect(page.getByTestId('verdict')).not.toHaveAttribute('data-provisional', 'true');
  await expect(note).toHaveCount(0);
  await expect(truncate).toBeEnabled();
  await call.first().click();
  await expect(menu.first()).toBeEnabled();
  await expect(repairAll).toBeEnabled();
  await repairAll.click();
  await expect(page.getByTestId('repair-panel')).toBeVisible();
  await expect(page.getByTestId('repair-export')).toBeVisible();
});

test('when the whole file is read, a status stays until its transcript is drawn (no gap with the preview on screen and nothing said)', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const parsed = parseTranscript(LOG, { name: 'held.jsonl' });
  if (!parsed.ok) throw new Error('generated log did not parse');
  const whole = parsed.value.transcript.messages.length.toLocaleString('en-US');
  await holdLoadAfterPreview(page);
  await openApp(page);
  await page.getByTestId('file-input').setInputFiles({
    name: 'held.jsonl',
    mimeType: 'application/x-ndjson',
    buffer: Buffer.from(LOG),
  });
  await expect(page.getByTestId('load-text')).toContainText('showing the first messages');
  await expect(page.getByTestId('count-messages')).not.toHaveText(whole);
  // Recorded in the page at every change, from the release on: the counts drawn while neither
  // the progress bar nor the "Analysing" status is there, before the whole file is drawn. The
  // deferred render always draws the end of the load (bar gone) before the new rows.
  await page.evaluate((whole) => {
    const unsaid: string[] = [];
    (window as unknown as { unsaid: string[] }).unsaid = unsaid;
    const look = () => {
      const count = document.querySelector('[data-testid=count-messages]')?.textContent ?? '';
      if (count === whole) return obs.disconnect();
      if (!document.querySelector('[data-testid=load-progress], [data-testid=working]'))
        unsaid.push(count);
    };
    const obs = new MutationObserver(look);
    obs.observe(document.body, { subtree: true, childList: true, characterData: true });
  }, whole);
  await releaseLoad(page);
  await fileShown(page, 'held.jsonl');
  await expect(page.getByTestId('count-messages')).toHaveText(whole);
  await expect(page.getByTestId('working')).toHaveCount(0);
  const unsaid = await page.evaluate(() => (window as unknown as { unsaid: string[] }).unsaid);
  expect(unsaid, 'the preview on screen with no status').toEqual([]);
});
