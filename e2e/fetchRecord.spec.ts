import { readFileSync } from 'node:fs';
import path from 'node:path';
import { expect, test } from '@playwright/test';
import { dropFile, openDefault } from './helpers.ts';

// A record the library's checked fetch wrote (public/samples/fetch-record.jsonl), dropped on the
// page: one request per call in the picker, each in its own API's format with its recorded
// verdict and the provider's answer.

const record = readFileSync(
  path.resolve(import.meta.dirname, '../public/samples/fetch-record.jsonl'),
  'utf8',
);

test('a checked-fetch record: every call in the picker, each with its verdict and answer', async ({
  page,
}) => {
  await openDefault(page);
  await dropFile(page, 'calls.jsonl', record);
  const picker = page.getByTestId('request-select');
  await expect(picker.locator('option')).toHaveText([
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
  await picker.selectOption('2');
  await expect(page.getByTestId('format')).toHaveText('anthropic-messages');
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-valid', 'false');
  await expect(page.locator('ul.warnings')).toContainText('answered-400');
  await picker.selectOption('3');
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-valid', 'true');
  await expect(page.locator('ul.warnings')).toContainText(
    'Repaired before sending (1 change): inserted (partial_answer call_w2)',
  );
});
