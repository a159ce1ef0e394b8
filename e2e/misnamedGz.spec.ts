/**
 * A file named .gz that is not gzip data (a download the browser already unpacked, a renamed
 * zip, a saved error page): read as plain text when it is text, and any error about it says
 * first that the name is wrong, instead of a bare "Not valid JSON at line 1, column 1"; another
 * archive is refused as what it is. Small files are read by the page, large ones streamed by the
 * worker: both say the same.
 */
import { expect, test } from '@playwright/test';
import { STREAM_MIN_BYTES } from '../src/engine/limits.ts';
import { dropFile, openDefault } from './helpers.ts';

const SLOW = { timeout: 30_000 };
const NOTE =
  /is named \.gz but is not gzip data \(gzip starts with the bytes 1f 8b; this one starts with/;

test('a .gz that is plain text but no transcript: the banner says the name is wrong first', async ({
  page,
}) => {
  await openDefault(page);
  await dropFile(page, 'session.jsonl.gz', 'hello world\n');
  const banner = page.getByTestId('parse-error');
  await expect(banner).toContainText(
    'session.jsonl.gz is named .gz but is not gzip data (gzip starts with the bytes 1f 8b; this one starts with 68 65 6c 6c “hell”): it was read as plain text.',
    SLOW,
  );
  await expect(banner).toHaveAttribute('data-kind', 'json');
  // The transcript shown before stays.
  await expect(page.getByTestId('count-exchanges')).toHaveText('1');
});

test('a .gz that is a transcript as plain text is read as one', async ({ page }) => {
  await openDefault(page);
  const body = {
    messages: [
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'hello' },
    ],
  };
  await dropFile(page, 'request.json.gz', JSON.stringify(body));
  await expect(page.getByTestId('count-messages')).toHaveText('2', SLOW);
  await expect(page.getByTestId('parse-error')).toHaveCount(0);
  // Named as it is on disk, with its .gz (newcomer: '(file: request.json)').
  await expect(page.getByTestId('sample-select').locator('option').first()).toHaveText(
    '(file: request.json.gz)',
  );
  // A later error names it the same way.
  await dropFile(page, 'export.json.gz', [0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0, 8, 0, 0xff]);
  await expect(page.getByTestId('parse-error-kept')).toContainText(
    'still showing the file request.json.gz',
    SLOW,
  );
});

test('a .gz that is a zip archive is refused as one', async ({ page }) => {
  await openDefault(page);
  await dropFile(page, 'export.json.gz', [0x50, 0x4b, 0x03, 0x04, 0x14, 0, 0, 0, 8, 0, 0xff]);
  const banner = page.getByTestId('parse-error');
  await expect(banner).toContainText(NOTE, SLOW);
  await expect(banner).toContainText('50 4b 03 04: a zip archive). Unpack it');
  await expect(page.getByTestId('parse-error-kept')).toContainText(
    'export.json.gz could not be read',
  );
  await expect(page.getByTestId('count-exchanges')).toHaveText('1');
});

test('a large .gz that is plain text but no transcript (streamed): the same note', async ({
  page,
}) => {
  await openDefault(page);
  const line = 'not a log line\n';
  const text = line.repeat(Math.ceil((STREAM_MIN_BYTES + 1024) / line.length));
  await dropFile(page, 'big.jsonl.gz', text);
  const banner = page.getByTestId('parse-error');
  await expect(banner).toContainText(
    'big.jsonl.gz is named .gz but is not gzip data (gzip starts with the bytes 1f 8b; this one starts with 6e 6f 74 20 “not ”): it was read as plain text.',
    SLOW,
  );
  // Named once: the note names the file, so the banner does not prefix it again.
  await expect(banner).not.toContainText('big.jsonl: big.jsonl.gz');
  await expect(page.getByTestId('count-exchanges')).toHaveText('1');
});
