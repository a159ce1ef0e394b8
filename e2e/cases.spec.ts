import { expect, test } from '@playwright/test';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { analyze } from '../src/model/analyze.ts';
import { parseTranscript } from '../src/model/parse/index.ts';
import { repoRoot } from './fixtures.ts';
import { openDefault, paste } from './helpers.ts';

// "A newcomer pastes one of ../shared/cases (the `transcript` field) and reads the same verdict
// the CLI gives": the CLI's verdict is the model's (src/cli/check.ts calls `analyze`), so each
// case's page verdict, first error body and counts are compared with the model run in Node.
const casesDir = path.resolve(repoRoot, '../shared/cases');
const HAS_CASES = existsSync(casesDir);
const files = HAS_CASES ? readdirSync(casesDir).filter((f) => /^\d.*\.json$/.test(f)) : [];

test.describe('shared cases: the page gives the CLI verdict', () => {
  test.skip(!HAS_CASES, `skipped: ${casesDir} is absent (CI has ../shared next to the clone)`);

  for (const file of files) {
    test(file, async ({ page }) => {
      const c = JSON.parse(readFileSync(path.join(casesDir, file), 'utf8')) as {
        transcript: unknown;
        expected: { valid: boolean };
      };
      const text = JSON.stringify(c.transcript, null, 2);
      const parsed = parseTranscript(text);
      test.skip(!parsed.ok, `${file}: no parser for this format yet`);
      if (!parsed.ok) return;
      const a = analyze(parsed.value.transcript);
      const firstError = a.validation.violations.find((v) => v.severity === 'error');

      await openDefault(page);
      await paste(page, text);
      // The view answers this text (not the sample shown before the paste).
      await expect(page.getByTestId('app')).toHaveAttribute('data-view-chars', String(text.length));
      await expect(page.getByTestId('format')).toHaveText(a.transcript.format);
      await expect(page.getByTestId('count-messages')).toHaveText(
        String(a.transcript.messages.length),
      );
      await expect(page.getByTestId('count-exchanges')).toHaveText(
        String(a.grouping.exchanges.length),
      );
      await expect(page.getByTestId('verdict')).toHaveAttribute(
        'data-valid',
        String(a.validation.valid),
      );
      expect(a.validation.valid, `${file}: model verdict vs the case's expected verdict`).toBe(
        c.expected.valid,
      );
      if (firstError) {
        const first = page.locator('[data-testid="violation"][data-rank="first"]');
        await expect(first).toHaveCount(1);
        await expect(first).toHaveAttribute('data-rule', firstError.rule);
        await expect(first.getByTestId('error-body')).toHaveText(
          JSON.stringify(firstError.error, null, 2),
        );
      }
    });
  }
});
