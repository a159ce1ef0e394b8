/**
 * A near miss (reviewer finding): JSON that is an Anthropic body but for one message says which
 * format it nearly is, which message breaks it, what was expected, and where in the text — not
 * only "Unknown format". The body is still refused: detection does not guess.
 */
import { expect, test } from '@playwright/test';
import { openDefault, paste } from './helpers.ts';

test('an Anthropic body whose message 3 has role 123: the closest format, the message, line and column', async ({
  page,
}) => {
  await openDefault(page);
  const body = {
    model: 'claude-sonnet-4-5',
    max_tokens: 1024,
    messages: [
      { role: 'user', content: 'List the files.' },
      { role: 'assistant', content: [{ type: 'tool_use', id: 'toolu_1', name: 'ls', input: {} }] },
      { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'a' }] },
      { role: 123, content: 'Done?' },
    ],
  };
  const text = JSON.stringify(body, null, 2);
  await paste(page, text);
  const banner = page.getByTestId('parse-error');
  await expect(banner).toContainText('Not quite Anthropic Messages');
  await expect(banner).toContainText(
    "Message 3 (line 31, column 15): role must be a string ('user' | 'assistant'), got 123.",
  );
  await expect(page.getByTestId('parse-error-location')).toHaveText('at line 31, column 15');
  await expect(page.getByTestId('parse-error-line')).toContainText('"role": 123,');
  // Refused: the last transcript that parsed stays.
  await expect(page.getByTestId('count-arcs')).toHaveText('2');
});
