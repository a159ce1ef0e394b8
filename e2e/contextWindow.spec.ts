/**
 * A request longer than its model's context window (validate/contextWindow.ts): pasted, the page
 * shows OpenAI's 400 text with the exact count once the worker counted it, and says the verdict
 * was updated when that count came after the first answer. On the old code both read "Valid:
 * OpenAI Chat Completions would accept this request".
 */
import { expect, test } from '@playwright/test';
import { parseTranscript } from '../src/model/parse/index.ts';
import { countTokens, loadBpeCounter } from '../src/model/tokens.ts';
import { openApp, paste } from './helpers.ts';

const prose = (chars: number) =>
  'the agent reads the code and calls a tool '.repeat(Math.ceil(chars / 42)).slice(0, chars);

/** A gpt-4o Chat body of `chars` characters of prose, and its exact o200k count. */
async function gpt4o(chars: number): Promise<{ text: string; tokens: number }> {
  const text = JSON.stringify({
    model: 'gpt-4o',
    messages: [{ role: 'user', content: prose(chars) }],
  });
  const parsed = parseTranscript(text, { name: 'big.json' });
  if (!parsed.ok) throw new Error('the body did not parse');
  const table = countTokens(parsed.value.transcript, 'openai-chat', await loadBpeCounter());
  return { text, tokens: table.total };
}

for (const [what, chars] of [
  ['a 4.3 MB body (over by its length at once)', 4_300_000],
  ['a 700 KB body (its length cannot say)', 700_000],
] as const)
  test(`pasted gpt-4o ${what}: OpenAI's context_length_exceeded with the exact count, and the update said`, async ({
    page,
  }) => {
    test.setTimeout(180_000);
    const { text, tokens } = await gpt4o(chars);
    expect(tokens).toBeGreaterThan(128_000);
    await openApp(page);
    await paste(page, text);
    const verdict = page.getByTestId('verdict');
    const finding = page.locator('[data-testid=violation][data-rule=context_window_exceeded]');
    // The exact count arrives from the worker after the first answer; then the 400 carries it.
    await expect(finding).toContainText(
      `This model's maximum context length is 128000 tokens. However, your messages resulted in ${tokens} tokens. Please reduce the length of the messages.`,
      { timeout: 120_000 },
    );
    await expect(finding).toContainText('context_length_exceeded');
    await expect(verdict).toHaveAttribute('data-valid', 'false');
    await expect(page.getByTestId('violations')).toContainText('Verdict updated: the token count');
  });
