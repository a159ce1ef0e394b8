/**
 * The export menu says which download is which (newcomer finding): "Original file" is exactly
 * the bytes opened (or the text pasted), offered while the transcript is unmodified; "Transcript
 * as read" is the page's reading written back in the format, which need not be the file byte for
 * byte (spacing and line endings are the writer's).
 */
import { mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { expect, test, type Page } from '@playwright/test';
import { generate } from '../scripts/gen.ts';
import { fileShown, openDefault, paste, saveDownload } from './helpers.ts';

const line = (o: object) => JSON.stringify({ sessionId: 's1', ...o }, null, 0);
/** A prompt and one reply written over two lines, with spacing no writer would reproduce. */
const LOG =
  [
    line({ type: 'user', uuid: 'u1', parentUuid: null, message: { role: 'user', content: 'go' } }),
    line({
      type: 'assistant',
      uuid: 'a1',
      parentUuid: 'u1',
      message: { id: 'm1', role: 'assistant', content: [{ type: 'text', text: 'Looking.' }] },
    }),
    line({
      type: 'assistant',
      uuid: 'a2',
      parentUuid: 'a1',
      message: { id: 'm1', role: 'assistant', content: [{ type: 'text', text: 'Done.' }] },
    }).replace('{', '{ '),
  ].join('\r\n') + '\r\n';

test('an opened log: Original file is the bytes opened; Transcript as read is the page’s writing', async ({
  page,
}) => {
  await openDefault(page);
  await page.getByTestId('file-input').setInputFiles({
    name: 'session.jsonl',
    mimeType: 'application/x-ndjson',
    buffer: Buffer.from(LOG),
  });
  await expect(page.getByTestId('count-messages')).toHaveText('2');
  await page.getByTestId('share-open').click();
  await expect(page.getByTestId('export-original')).toHaveText('Original file (session.jsonl)');
  await expect(page.getByTestId('export-kept')).toHaveText('Transcript as read (.jsonl)');
  await expect(page.getByTestId('export-note')).toContainText(
    'Original file (session.jsonl): the bytes you opened, unchanged.',
  );
  await expect(page.getByTestId('export-note')).toContainText('not the file byte for byte');
  const original = await saveDownload(page, 'export-original');
  expect(original.name).toBe('session.jsonl');
  expect(original.bytes.equals(Buffer.from(LOG))).toBe(true);
  const asRead = await saveDownload(page, 'export-kept');
  expect(asRead.bytes.equals(Buffer.from(LOG))).toBe(false);
  expect(asRead.bytes.toString('utf8')).toContain('Looking.');
  // Different bytes, different names: the page's writing never saves over the original.
  expect(asRead.name).toBe('session.as-read.jsonl');
  expect(asRead.name).not.toBe(original.name);

  // A fault makes the transcript the page's changed copy: no original offered, the label says so.
  await page.keyboard.press('Escape');
  await page.getByTestId('fault-truncate').click();
  await expect(page.getByTestId('fault-applied')).toBeVisible();
  if (!(await page.getByTestId('export-kept').isVisible()))
    await page.getByTestId('share-open').click();
  await expect(page.getByTestId('export-kept')).toHaveText('Transcript with the faults (.jsonl)');
  await expect(page.getByTestId('export-original')).toHaveCount(0);
  expect((await saveDownload(page, 'export-kept')).name).toBe('session.with-faults.jsonl');
});

/** Open `text` as `big.jsonl` (large enough to stream) and wait until it is read whole. */
async function openStreamed(page: Page, text: string): Promise<void> {
  await openDefault(page);
  await page.getByTestId('file-input').setInputFiles({
    name: 'big.jsonl',
    mimeType: 'application/x-ndjson',
    buffer: Buffer.from(text),
  });
  await fileShown(page, 'big.jsonl');
  await expect(page.getByTestId('summary')).not.toHaveAttribute('data-provisional', 'true');
}

test('a streamed (large) file: Original file is the File itself, byte for byte', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const text = generate({ format: 'claude-code-jsonl', messages: 800, mb: 3, seed: 7 });
  await openStreamed(page, text);
  await page.getByTestId('share-open').click();
  await expect(page.getByTestId('export-original')).toHaveText('Original file (big.jsonl)');
  const original = await saveDownload(page, 'export-original');
  expect(original.bytes.equals(Buffer.from(text))).toBe(true);
});

test('a streamed file whose texts the page reads from the file (issue 38): find reaches its last line, Transcript as read writes every line whole', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const base = generate({ format: 'claude-code-jsonl', messages: 800, mb: 3, seed: 9 }).trimEnd();
  // A last line whose text is in no other, with characters of 2, 3 and 4 bytes.
  const last = JSON.stringify({
    type: 'user',
    uuid: 'last-u',
    parentUuid: null,
    sessionId: 's-last',
    message: { role: 'user', content: 'zebraquartz é→🎉 at the end' },
  });
  const text = `${base}\n${last}\n`;
  await openStreamed(page, text);
  // Every count the find bar shows, recorded in the page: while the texts are read it says so,
  // never "0 matches" for a word that is there.
  await page.evaluate(() => {
    const el = document.querySelector('[data-testid="find-count"]') as HTMLElement;
    const shown: string[] = [];
    (window as unknown as { findCounts: string[] }).findCounts = shown;
    new MutationObserver(() => shown.push(el.textContent ?? '')).observe(el, {
      childList: true,
      characterData: true,
      subtree: true,
    });
  });
  // Find reads every message's text (from the file now) and finds the last one's.
  await page.getByTestId('find').fill('zebraquartz');
  await expect(page.getByTestId('find-count')).toHaveText(/\b1 match$/, { timeout: 30_000 });
  const counts = await page.evaluate(
    () => (window as unknown as { findCounts: string[] }).findCounts,
  );
  expect(counts.filter((c) => /\b0 matches/.test(c))).toEqual([]);
  expect(counts.at(-1)).toBe('1 match');
  await page.getByTestId('find').fill('');
  await page.getByTestId('share-open').click();
  const asRead = await saveDownload(page, 'export-kept');
  const written = asRead.bytes.toString('utf8');
  expect(written).toContain('zebraquartz é→🎉 at the end');
  expect(written.trimEnd().split('\n')).toHaveLength(text.trimEnd().split('\n').length);
});

test('a file changed on disk after opening: Original file says why it cannot download it', async ({
  page,
}) => {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'ti-')), 'session.jsonl');
  writeFileSync(file, LOG);
  await openDefault(page);
  // From the disk, as a user picks it: the page's File refers to this file.
  await page.getByTestId('file-input').setInputFiles(file);
  await expect(page.getByTestId('count-messages')).toHaveText('2');
  await page.getByTestId('share-open').click();
  await expect(page.getByTestId('export-original')).toHaveText('Original file (session.jsonl)');
  // The agent appends to its log (a later write changes the file under the open page).
  writeFileSync(file, LOG + LOG);
  let downloads = 0;
  page.on('download', () => downloads++);
  await page.getByTestId('export-original').click();
  await expect(page.getByTestId('export-status')).toHaveText(
    /^session\.jsonl changed on disk, or was moved or deleted, since you opened it.*Open it again/,
  );
  expect(downloads).toBe(0);
  // What the page shows still saves.
  const asRead = await saveDownload(page, 'export-kept');
  expect(asRead.bytes.toString('utf8')).toContain('Looking.');
});

test('a paste: Pasted text is the text as pasted', async ({ page }) => {
  await openDefault(page);
  const text = JSON.stringify(
    { model: 'claude-sonnet-4-5', max_tokens: 64, messages: [{ role: 'user', content: 'hi' }] },
    null,
    4,
  );
  await paste(page, text);
  await expect(page.getByTestId('count-messages')).toHaveText('1');
  await page.getByTestId('share-open').click();
  await expect(page.getByTestId('export-original')).toHaveText('Pasted text (.json)');
  const pasted = await saveDownload(page, 'export-original');
  expect(pasted.bytes.toString('utf8')).toBe(text);
  // The transcript as read is another text (the page's writing): under another name.
  await expect(page.getByTestId('export-kept')).toHaveText('Transcript as read (.json)');
  const asRead = await saveDownload(page, 'export-kept');
  expect(asRead.bytes.toString('utf8')).not.toBe(text);
  expect(pasted.name).toBe('transcript.json');
  expect(asRead.name).toBe('transcript.as-read.json');
});

test('a sample: no original offered, the transcript export says what it is', async ({ page }) => {
  await openDefault(page);
  await page.getByTestId('share-open').click();
  await expect(page.getByTestId('export-kept')).toHaveText('Transcript as read (.json)');
  await expect(page.getByTestId('export-original')).toHaveCount(0);
});
