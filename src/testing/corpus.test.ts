/**
 * The unit suite never reads the shared corpus and never skips for lack of it: every test file
 * that points at ../shared is a corpus file (`*.corpus.test.ts`, `e2e/*.corpus.spec.ts`), run by
 * `npm run test:corpus`, and the unit config leaves those out.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import viteConfig from '../../vite.config.ts';
import { missingCorpusMessage } from './corpus.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

function testFiles(dir: string): string[] {
  return readdirSync(path.join(ROOT, dir), { recursive: true, encoding: 'utf8' })
    .filter((f) => /\.(test|spec)\.tsx?$/.test(f))
    .map((f) => path.join(dir, f));
}

/** A string literal (not a comment) that names the corpus folder, or an import of its finder. */
const READS_CORPUS = /(['"`])[^'"`\n]*\.\.\/shared[^'"`\n]*\1|testing\/corpus\.ts/;

/**
 * Tech debt: unit test files that still read ../shared, outside this change's reach (the rule
 * engine's folder). Their corpus checks are also in src/model/cases.corpus.test.ts; when a block
 * moves out, its file leaves this list (the last test below says so).
 */
const NOT_YET_MOVED: string[] = [];

describe('the unit suite and the corpus suite', () => {
  const files = [...testFiles('src'), ...testFiles('scripts'), ...testFiles('e2e')];
  const corpus = (f: string) => /\.corpus\.(test|spec)\.ts$/.test(f);
  const reading = files.filter(
    (f) =>
      f !== 'src/testing/corpus.test.ts' &&
      READS_CORPUS.test(readFileSync(path.join(ROOT, f), 'utf8')),
  );

  it('only corpus files read ../shared', () => {
    expect(reading.filter((f) => !corpus(f) && !NOT_YET_MOVED.includes(f))).toEqual([]);
    expect(reading.filter(corpus).length).toBeGreaterThan(5);
  });

  it('the unit config leaves the corpus files out', () => {
    expect(viteConfig.test?.exclude).toContain('**/*.corpus.test.ts');
  });

  it('the tech-debt list names only files that still read ../shared', () => {
    for (const f of NOT_YET_MOVED) expect(reading, f).toContain(f);
  });

  it('a missing corpus fails in CI and is said elsewhere', () => {
    expect(missingCorpusMessage(true)).toMatch(/missing.*CI=true.*No corpus check ran/s);
    expect(missingCorpusMessage(false)).toMatch(/0 corpus checks ran/);
  });
});
