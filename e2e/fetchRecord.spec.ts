import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { dropFile, openDefault, pickRequest, requestLabels, requestMarks } from './helpers.ts';

// A record the library's checked fetch wrote (public/samples/fetch-record.jsonl), dropped on the
// page: one request per call on the request strip, each in its own API's format with its recorded
// verdict and the provider's answer.

const record = readFileSync(
  path.resolve(import.meta.dirname, '../public/samples/fetch-record.jsonl'),
  'utf8',
);

test('a checked-fetch record: every call on the strip, each with its verdict and answer', async ({
  page,
}) => {
  await openDefault(page);
  await dropFile(page, 'calls.jsonl', record);
  await expect(requestMarks(page)).toHaveCount(5);
  expect(await requestLabels(page)).toEqual([
    '#1 · 09:14:02 UTC · anthropic · claude-opus-4-6 · 1 message · 200',
    '#2 · 09:14:43 UTC · anthropic · claude-opus-4-6 · 3 messages · 200',
    '#3 · 09:15:24 UTC · anthropic · claude-opus-4-6 · 3 messages · 400',
    '#4 · 09:16:06 UTC · openai-chat · gpt-4.1 · 6 messages · 200',
    '#5 · 09:16:47 UTC · openai-chat · gpt-4.1 · 5 messages · 400',
  ]);
  // The newest call opens first: sent anyway (warn) and refused by OpenAI.
  await expect(page.getByTestId('format')).toHaveText('openai-chat');
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-valid', 'false');
  await expect(page.locator('ul.warnings')).toContainText('The provider answered HTTP 400');
  await pickRequest(page, 2);
  await expect(page.getByTestId('format')).toHaveText('anthropic-messages');
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-valid', 'false');
  await expect(page.locator('ul.warnings')).toContainText(
    "answered with the provider's 400 without sending (respond mode)",
  );
  await pickRequest(page, 3);
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-valid', 'true');
  await expect(page.locator('ul.warnings')).toContainText(
    'Repaired before sending (1 change): inserted (only some parallel calls answered: call_w2)',
  );
});

test('follow a record file: calls appended to it appear, the newest shown', async ({ page }) => {
  // The File System Access API, stubbed: a handle whose file is whatever the test last wrote.
  await page.addInitScript(() => {
    const w = window as unknown as { __record: string; __modified: number };
    w.__record = '';
    w.__modified = 1;
    Object.defineProperty(window, 'showOpenFilePicker', {
      value: () =>
        Promise.resolve([
          {
            name: 'calls.jsonl',
            getFile: () =>
              Promise.resolve(
                new File([w.__record], 'calls.jsonl', { lastModified: w.__modified }),
              ),
          },
        ]),
    });
  });
  await openDefault(page);
  const lines = record.trim().split('\n');
  await page.evaluate(
    (t) => {
      (window as unknown as { __record: string }).__record = t;
    },
    `${lines.slice(0, 3).join('\n')}\n`,
  );
  // Offered once a file is open (here the record as it was).
  await expect(page.getByTestId('follow-file')).toHaveCount(0);
  await dropFile(page, 'calls.jsonl', `${lines.slice(0, 2).join('\n')}\n`);
  await expect(requestMarks(page)).toHaveCount(2);
  await page.getByTestId('follow-file').click();
  await expect(page.getByTestId('following')).toContainText('Following calls.jsonl');
  await expect(requestMarks(page)).toHaveCount(3);
  await expect(page.getByTestId('format')).toHaveText('anthropic-messages');
  // The library appends two calls: both appear, the newest is shown.
  await page.evaluate(
    (t) => {
      const w = window as unknown as { __record: string; __modified: number };
      w.__record = t;
      w.__modified = 2;
    },
    `${lines.join('\n')}\n`,
  );
  // Seen at the next look (every 1.5 s), then read and analysed: on a slow or busy machine that
  // can take longer than the default wait.
  await expect(requestMarks(page)).toHaveCount(5, { timeout: 30_000 });
  await expect(page.getByTestId('format')).toHaveText('openai-chat');
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-valid', 'false');
  await page.getByTestId('follow-stop').click();
  await expect(page.getByTestId('follow-file')).toBeVisible();
});
