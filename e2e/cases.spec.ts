import { expect, test } from '@playwright/test';
import { CASE_FIXTURES } from '../src/model/testing/cases.ts';
import { expectPageGivesCliVerdict } from './verdict.ts';

// "A newcomer pastes a transcript rebuilt from a public bug report and reads the same verdict the
// CLI gives", on our own case fixtures; cases.corpus.spec.ts does the same for the reported cases.
test.describe('case fixtures: the page gives the CLI verdict', () => {
  for (const c of CASE_FIXTURES) {
    test(c.name, async ({ page }) => {
      const a = await expectPageGivesCliVerdict(page, JSON.stringify(c.transcript, null, 2));
      expect(a.validation.valid).toBe(false);
      expect(a.validation.violations.find((v) => v.severity === 'error')?.rule).toBe(
        c.expected[0]?.rule,
      );
    });
  }
});
