/**
 * "The page gives the CLI verdict": the CLI's verdict is the model's (src/cli/check.ts calls
 * `analyze`), so a pasted transcript's page verdict, first error body and counts are compared
 * with the model run in Node.
 */
import { expect, type Page } from '@playwright/test';
import { analyze, type Analysis } from '../src/model/analyze.ts';
import { parseTranscript } from '../src/model/parse/index.ts';
import { openDefault, paste } from './helpers.ts';

/**
 * Paste `text` and expect the page to show what the model says of it: format, message and
 * exchange counts, the verdict and the first error's rule and body.
 * @returns the model's analysis, for further checks
 */
export async function expectPageGivesCliVerdict(page: Page, text: string): Promise<Analysis> {
  const parsed = parseTranscript(text);
  if (!parsed.ok) throw new Error(parsed.error.message);
  const a = analyze(parsed.value.transcript);
  const firstError = a.validation.violations.find((v) => v.severity === 'error');

  await openDefault(page);
  await paste(page, text);
  // The view answers this text (not the sample shown before the paste).
  await expect(page.getByTestId('app')).toHaveAttribute('data-view-chars', String(text.length));
  await expect(page.getByTestId('format')).toHaveText(a.transcript.format);
  await expect(page.getByTestId('count-messages')).toHaveText(String(a.transcript.messages.length));
  await expect(page.getByTestId('count-exchanges')).toHaveText(String(a.grouping.exchanges.length));
  await expect(page.getByTestId('verdict')).toHaveAttribute(
    'data-valid',
    String(a.validation.valid),
  );
  if (firstError) {
    const first = page.locator('[data-testid="violation"][data-rank="first"]');
    await expect(first).toHaveCount(1);
    await expect(first).toHaveAttribute('data-rule', firstError.rule);
    await expect(first.getByTestId('error-body')).toHaveText(
      JSON.stringify(firstError.error, null, 2),
    );
  }
  return a;
}
