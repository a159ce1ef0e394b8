import { expect, test } from '@playwright/test';
import { openDefault, paste } from './helpers.ts';

// A newcomer's report: a system message inside an Anthropic `messages` list (the OpenAI way) or a
// Gemini `contents` list was shown as the system prompt and judged valid; both APIs answer 400.

test('a system message inside an Anthropic body: the 400, and it is not shown as the system prompt', async ({
  page,
}) => {
  await openDefault(page);
  await paste(
    page,
    JSON.stringify({
      model: 'claude-sonnet-4-5',
      max_tokens: 10,
      messages: [
        { role: 'system', content: 'be nice' },
        { role: 'user', content: 'hi' },
      ],
    }),
  );
  const verdict = page.getByTestId('verdict');
  await expect(verdict).toHaveAttribute('data-valid', 'false');
  await expect(verdict).not.toContainText('would accept');
  const first = page.getByTestId('violation').first();
  await expect(first).toContainText('System message inside messages');
  await expect(first).toContainText('Unexpected role \\"system\\"');
  await expect(page.getByTestId('pinned-system').locator('summary')).toHaveText(
    'System message in messages · be nice',
  );
});

test('a system content inside a Gemini body: the 400', async ({ page }) => {
  await openDefault(page);
  await paste(
    page,
    JSON.stringify({
      contents: [
        { role: 'system', parts: [{ text: 'be nice' }] },
        { role: 'user', parts: [{ text: 'hi' }] },
      ],
    }),
  );
  await expect(page.getByTestId('verdict')).toHaveAttribute('data-valid', 'false');
  const first = page.getByTestId('violation').first();
  await expect(first).toContainText('System content inside contents');
  await expect(first).toContainText('Please use a valid role: user, model.');
  await expect(page.getByTestId('pinned-system').locator('summary')).toHaveText(
    'System message in contents · be nice',
  );
});
