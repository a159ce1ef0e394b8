/**
 * The corpus suite (`npm run test:corpus`): the `*.corpus.test.ts` files, which read the shared
 * corpus in ../shared (src/testing/corpus.ts). With CI=true a missing corpus fails the run before
 * any test; elsewhere the suite says that 0 corpus checks ran and passes. The unit suite
 * (vite.config.ts) runs the project's own fixtures only.
 */
import { defineConfig } from 'vitest/config';
import viteConfig from './vite.config.ts';
import { corpusPresent, inCi, missingCorpusMessage } from './src/testing/corpus.ts';

if (!corpusPresent() && inCi()) {
  // Loudly, and without a stack trace that would bury the reason.
  console.error(`\n✗ Corpus suite FAILED. ${missingCorpusMessage(true)}\n`);
  process.exit(1);
}

export default defineConfig({
  ...viteConfig,
  test: {
    include: corpusPresent() ? ['src/**/*.corpus.test.ts'] : [],
    passWithNoTests: !corpusPresent(),
    environment: 'node',
    testTimeout: 30_000, // as the unit suite (vite.config.ts)
    reporters: ['default', './src/testing/corpusReporter.ts'],
  },
});
