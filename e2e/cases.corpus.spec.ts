import { expect, test } from '@playwright/test';
import {
  CASES_DIR,
  corpusCases,
  corpusPresent,
  inCi,
  missingCorpusMessage,
} from '../src/testing/corpus.ts';
import { expectPageGivesCliVerdict } from './verdict.ts';

// Corpus suite, in the browser: a newcomer pastes one of the reported cases (the `transcript`
// field) and reads the same verdict the CLI gives. With CI=true a missing corpus fails this file;
// elsewhere the one test below says it was not run. Our own case fixtures: cases.spec.ts.
if (!corpusPresent() && inCi()) throw new Error(missingCorpusMessage(true));

test.describe(`reported cases in ${CASES_DIR}: the page gives the CLI verdict`, () => {
  if (!corpusPresent()) {
    console.warn(missingCorpusMessage(false));
    test('the corpus is absent: no corpus case checked', () => {
      test.skip(true, missingCorpusMessage(false));
    });
  }
  for (const { file, c } of corpusCases()) {
    test(file, async ({ page }) => {
      const a = await expectPageGivesCliVerdict(page, JSON.stringify(c.transcript, null, 2));
      expect(a.validation.valid, `${file}: model verdict vs the case's expected verdict`).toBe(
        c.expected.valid,
      );
    });
  }
});
