/**
 * Corpus suite: containers must not steal existing formats. No reported case (its transcript,
 * history before the trim or source transcript) and no real log is taken for a curl command, an
 * SSE dump, a HAR, a LiteLLM log or a batch file. The samples and our case fixtures are checked
 * the same way by containers.test.ts.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusCases, readReal, realFiles } from '../../testing/corpus.ts';
import { takenForContainer } from '../testing/index.ts';
import { openContainer } from './containers.ts';

describe('reported cases are not taken for containers', () => {
  const cases = corpusCases();
  it('there are cases', () => expect(cases.length).toBeGreaterThan(0));
  for (const { file, c } of cases) {
    it(file, () => {
      for (const key of ['transcript', 'before_trim', 'source_transcript'] as const) {
        if (c[key] === undefined) continue;
        expect(openContainer({ kind: 'json', value: c[key] }), `${file} ${key}`).toBeNull();
        expect(takenForContainer(JSON.stringify(c[key], null, 2)), `${file} ${key}`).toBe(false);
      }
    });
  }
});

describe('real logs are not taken for containers', () => {
  const files = realFiles();
  it('there are real logs', () => expect(files.length).toBeGreaterThan(0));
  for (const f of files)
    it(f, () => expect(takenForContainer(readReal(f), path.basename(f))).toBe(false));
});
