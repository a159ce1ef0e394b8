/**
 * Endpoints (issue 35): the provider picker groups endpoints by the API they speak; a curl
 * command to a known endpoint is judged under it without a choice, and the verdict's error body
 * says as of when its text was captured.
 */
import { expect, test } from '@playwright/test';
import { openDefault, paste } from './helpers.ts';

const KIMI = {
  model: 'kimi-k2.5',
  messages: [
    { role: 'system', content: 's' },
    { role: 'user', content: 'q' },
    {
      role: 'assistant',
      content: '',
      tool_calls: [{ id: 'c1', type: 'function', function: { name: 'f', arguments: '{}' } }],
    },
    { role: 'tool', tool_call_id: 'c1', content: 'r' },
  ],
};

test('the provider picker groups endpoints by API', async ({ page }) => {
  await openDefault(page);
  const select = page.getByTestId('provider-select');
  const groups = await select
    .locator('optgroup')
    .evaluateAll((els) =>
      els.map((g) => [
        g.getAttribute('label'),
        Array.from(g.querySelectorAll('option'), (o) => o.getAttribute('value')),
      ]),
    );
  expect(groups).toEqual([
    [
      'Anthropic Messages',
      ['anthropic', 'anthropic-bedrock', 'anthropic-vertex', 'deepseek-anthropic'],
    ],
    [
      'OpenAI Chat Completions',
      ['openai-chat', 'azure-openai', 'deepseek', 'kimi', 'mistral', 'qwen'],
    ],
    ['OpenAI Responses', ['openai-responses', 'deepseek-responses']],
    ['Gemini generateContent', ['gemini', 'vertex-gemini']],
    ['Bedrock Converse', ['bedrock']],
  ]);
});

test('a curl command to Kimi is judged for Kimi, its text as of its capture', async ({ page }) => {
  await openDefault(page);
  await paste(
    page,
    `curl https://api.moonshot.ai/v1/chat/completions -H 'Content-Type: application/json' -d '${JSON.stringify(KIMI)}'`,
  );
  const panel = page.getByTestId('violations');
  await expect(panel.getByRole('heading', { level: 2 })).toHaveText('Verdict for Kimi (Moonshot)');
  await expect(panel).toContainText(
    'thinking is enabled but reasoning_content is missing in assistant tool call message at index 2',
  );
  await expect(panel.getByTestId('error-as-of').first()).toHaveText('· as of 2026-05');
  await expect(page.getByTestId('provider-chosen')).toHaveCount(0);
});
