/**
 * A near miss (reviewer finding): JSON that is an Anthropic, Responses, Gemini or Converse body
 * but for one message says which format it nearly is, which message breaks it, what was
 * expected, and where in the text — not only "Unknown format". The body is still refused:
 * detection does not guess, and the transcript on screen stays.
 */
import { expect, test, type Page } from '@playwright/test';
import { openDefault, paste } from './helpers.ts';

/**
 * Open the default sample, paste a body (indented as an editor shows it) and expect the banner
 * of its near miss, with the sample still shown.
 * @param want the closest format's label; the banner's sentence from `Message N (line …,
 *   column …):` to its end; the line and column; the offending line, trimmed
 */
async function pasteNearMiss(
  page: Page,
  body: unknown,
  want: { label: string; said: string; line: number; column: number; lineText: string },
): Promise<void> {
  await openDefault(page);
  await paste(page, JSON.stringify(body, null, 2));
  const banner = page.getByTestId('parse-error');
  await expect(banner).toContainText(`Not quite ${want.label}`);
  await expect(banner).toContainText(want.said);
  await expect(page.getByTestId('parse-error-location')).toHaveText(
    `at line ${want.line}, column ${want.column}`,
  );
  await expect(page.getByTestId('parse-error-line')).toContainText(want.lineText);
  // Refused: the last transcript that parsed stays.
  await expect(page.getByTestId('count-arcs')).toHaveText('2');
}

test('an Anthropic body whose message 3 has role 123: the closest format, the message, line and column', async ({
  page,
}) => {
  await pasteNearMiss(
    page,
    {
      model: 'claude-sonnet-4-5',
      max_tokens: 1024,
      messages: [
        { role: 'user', content: 'List the files.' },
        {
          role: 'assistant',
          content: [{ type: 'tool_use', id: 'toolu_1', name: 'ls', input: {} }],
        },
        { role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'a' }] },
        { role: 123, content: 'Done?' },
      ],
    },
    {
      label: 'Anthropic Messages',
      said: "Message 3 (line 31, column 15): role must be a string ('user' | 'assistant'), got 123.",
      line: 31,
      column: 15,
      lineText: '"role": 123,',
    },
  );
});

test("a Responses input whose call's output has the Agents SDK's type function_call_result", async ({
  page,
}) => {
  await pasteNearMiss(
    page,
    {
      model: 'gpt-4.1',
      input: [
        { role: 'user', content: 'List the files.' },
        { type: 'function_call', call_id: 'call_1', name: 'ls', arguments: '{}' },
        { type: 'function_call_result', call_id: 'call_1', output: 'a b' },
      ],
    },
    {
      label: 'OpenAI Responses',
      said: "Message 2 (line 15, column 15): type 'function_call_result' is not a Responses item type: a call's output is a function_call_output item.",
      line: 15,
      column: 15,
      lineText: '"type": "function_call_result",',
    },
  );
});

test("a Gemini body whose content 3 has role 'assistant': Gemini, and the role it calls 'model'", async ({
  page,
}) => {
  await pasteNearMiss(
    page,
    {
      contents: [
        { role: 'user', parts: [{ text: 'List the files.' }] },
        { role: 'model', parts: [{ functionCall: { name: 'ls', args: {} } }] },
        { role: 'user', parts: [{ functionResponse: { name: 'ls', response: { output: 'a' } } }] },
        { role: 'assistant', parts: [{ text: 'Done.' }] },
      ],
    },
    {
      label: 'Google Gemini',
      said: "Message 3 (line 36, column 15): role must be one of 'user' | 'model', got 'assistant' (Gemini's assistant role is 'model').",
      line: 36,
      column: 15,
      lineText: '"role": "assistant",',
    },
  );
});

test('a Converse body whose toolResult block is not in an array: Converse, and what content must be', async ({
  page,
}) => {
  const toolResult = { toolUseId: 't1', content: [{ text: 'a b' }] };
  await pasteNearMiss(
    page,
    {
      modelId: 'anthropic.claude-sonnet-4-5',
      messages: [
        { role: 'user', content: [{ text: 'List the files.' }] },
        { role: 'assistant', content: [{ toolUse: { toolUseId: 't1', name: 'ls', input: {} } }] },
        { role: 'user', content: { toolResult } },
      ],
    },
    {
      label: 'AWS Bedrock Converse',
      said: 'Message 2 (line 26, column 18): content must be an array of content blocks, got an object (one block, not in an array).',
      line: 26,
      column: 18,
      lineText: '"content": {',
    },
  );
});
