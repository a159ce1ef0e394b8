/**
 * Which provider a request is judged for (newcomer findings): a Chat body naming a DeepSeek model
 * is judged for DeepSeek by default; a provider the user chose is said to be chosen, with the
 * request's own provider a click away; it is kept for the next document the user opens only when
 * it takes that document's format (a link's provider is kept as the link says).
 */
import { expect, test } from '@playwright/test';
import { openDefault, paste } from './helpers.ts';

const call = { id: 'call_1', type: 'function', function: { name: 'pwd', arguments: '{}' } };
const DEEPSEEK = {
  model: 'deepseek-reasoner',
  messages: [
    { role: 'user', content: 'Where am I?' },
    { role: 'assistant', content: '', tool_calls: [call] },
    { role: 'tool', tool_call_id: 'call_1', content: '/home' },
  ],
};
const NULL_CONTENT = {
  model: 'gpt-4o',
  messages: [
    { role: 'user', content: 'q' },
    { role: 'assistant', content: null },
    { role: 'user', content: 'again' },
  ],
};
const BEDROCK_BLANK = {
  modelId: 'amazon.nova-pro-v1:0',
  messages: [
    { role: 'user', content: [{ text: 'hi' }] },
    { role: 'assistant', content: [{ text: '\n\n' }] },
    { role: 'user', content: [{ text: 'what?' }] },
  ],
};

test('a Chat body naming deepseek-reasoner is judged for DeepSeek: D4', async ({ page }) => {
  await openDefault(page);
  await paste(page, JSON.stringify(DEEPSEEK));
  const panel = page.getByTestId('violations');
  await expect(panel.getByRole('heading', { level: 2 })).toHaveText('Verdict for DeepSeek');
  await expect(panel).toContainText(
    'Missing `reasoning_content` field in the assistant message at message index 1.',
  );
  await expect(page.getByTestId('provider-chosen')).toHaveCount(0);
});

test('a chosen provider is said to be chosen, also for the next paste it fits; one click judges for its own', async ({
  page,
}) => {
  await openDefault(page);
  await paste(page, JSON.stringify(NULL_CONTENT));
  await expect(page.getByTestId('violations')).toContainText(
    "Invalid value for 'content': expected a string, got null.",
  );
  await page.getByTestId('provider-select').selectOption('deepseek');
  await expect(page.getByTestId('violations')).toContainText(
    'Invalid assistant message: content or tool_calls must be set',
  );
  await expect(page.getByTestId('provider-chosen')).toContainText(
    "Judged for DeepSeek because you chose it; this request's own provider is OpenAI Chat Completions.",
  );
  // The next paste is another Chat body: DeepSeek takes it, so the choice stays and is said.
  const again = {
    ...NULL_CONTENT,
    messages: [...NULL_CONTENT.messages, { role: 'user', content: 'now' }],
  };
  await paste(page, JSON.stringify(again));
  await expect(page.getByTestId('count-messages')).toHaveText('4');
  await expect(page.getByTestId('provider-chosen')).toContainText(
    "Judged for DeepSeek because you chose it; this request's own provider is OpenAI Chat Completions.",
  );
  await expect(page.getByTestId('violations')).toContainText(
    'Invalid assistant message: content or tool_calls must be set',
  );
  await page.getByTestId('provider-reset').click();
  await expect(page.getByTestId('provider-chosen')).toHaveCount(0);
  await expect(page.getByTestId('violations')).toContainText(
    "Invalid value for 'content': expected a string, got null.",
  );
});

test('a chosen provider that does not take the next document is dropped: it is judged for its own', async ({
  page,
}) => {
  await openDefault(page);
  await paste(page, JSON.stringify(NULL_CONTENT));
  await page.getByTestId('provider-select').selectOption('mistral');
  await expect(page.getByTestId('provider-chosen')).toContainText('Judged for Mistral');
  // A Bedrock Converse body: Mistral's Chat Completions endpoint never receives one.
  await paste(page, JSON.stringify(BEDROCK_BLANK));
  const panel = page.getByTestId('violations');
  await expect(panel.getByRole('heading', { level: 2 })).toHaveText(
    'Verdict for AWS Bedrock Converse',
  );
  await expect(panel).toContainText(
    'The text field in the ContentBlock object at messages.1.content.0 is blank. Add text to the text field, and try again.',
  );
  await expect(page.getByTestId('provider-chosen')).toHaveCount(0);
  await expect(page.getByTestId('provider-select')).toHaveValue('');
});

test('a link that names a provider is judged for it, also where it does not take the body', async ({
  page,
}) => {
  // The invoice sample is an Anthropic Messages body.
  await page.goto('/#v=1&src=invoice&pr=mistral');
  await expect(page.getByTestId('app')).toHaveAttribute('data-ready', 'true');
  await expect(page.getByTestId('violations').getByRole('heading', { level: 2 })).toHaveText(
    'Verdict for Mistral',
  );
  await expect(page.getByTestId('provider-select')).toHaveValue('mistral');
});

test('the context-window picker offers the judged provider’s windows only', async ({ page }) => {
  await openDefault(page);
  await paste(page, JSON.stringify(DEEPSEEK));
  const windows = page.getByTestId('window-select');
  const options = windows.locator('option');
  await expect(options).toHaveText(['DeepSeek V3.x chat / reasoner (128K)', 'type a value…']);
  await expect(windows).toHaveValue('deepseek');
  await expect(page.getByTestId('window-percent')).toContainText('128,000-token window');
  await page.getByTestId('provider-select').selectOption('qwen');
  await expect(options).toHaveText([
    'Qwen3 Max (256K)',
    'Qwen3 Coder Plus (1M)',
    'Qwen Plus (128K)',
    'type a value…',
  ]);
  await page.getByTestId('provider-select').selectOption('openai-chat');
  await expect(options).not.toContainText(['Claude (200K)']);
  await expect(options.first()).toHaveText('GPT-4o (128K)');
  await expect(windows).toHaveValue('gpt-4o');
});

const GEMINI_NO_IDS = {
  contents: [
    { role: 'user', parts: [{ text: 'Look up order 42 and its shipment' }] },
    {
      role: 'model',
      parts: [
        { functionCall: { name: 'get_order', args: { id: 42 } } },
        { functionCall: { name: 'get_shipment', args: { order: 42 } } },
      ],
    },
    {
      role: 'user',
      parts: [{ functionResponse: { name: 'get_order', response: { status: 'paid' } } }],
    },
  ],
};

test('Mistral chosen for a Gemini body: its own provider is one click away, and calls without ids print no id list', async ({
  page,
}) => {
  await openDefault(page);
  await paste(page, JSON.stringify(GEMINI_NO_IDS));
  await page.getByTestId('provider-select').selectOption('mistral');
  await expect(page.getByTestId('provider-chosen')).toContainText('Judged for Mistral');
  const panel = page.getByTestId('violations');
  await expect(panel.getByRole('heading', { level: 2 })).toHaveText('Verdict for Mistral');
  await expect(panel.getByTestId('violation').first()).toContainText('M3');
  // The calls have no ids: no `ids: ,` line.
  await expect(panel.locator('.violation-ids')).toHaveCount(0);
  await expect(panel).not.toContainText('ids: ,');
  await expect(page.getByTestId('provider-reset')).toHaveText('Judge for Google Gemini');
  await page.getByTestId('provider-reset').click();
  await expect(panel.getByRole('heading', { level: 2 })).toHaveText('Verdict for Google Gemini');
});
