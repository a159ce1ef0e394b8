/**
 * The corpus suite's last line: how many corpus checks ran, over which corpus, or (locally,
 * without the corpus) that none did and why. The README's test command prints it.
 */
import type { Reporter, TestModule } from 'vitest/node';
import {
  CORPUS_DIR,
  corpusCases,
  corpusPresent,
  missingCorpusMessage,
  realFiles,
} from './corpus.ts';

/** Counts the checks of the corpus suite and says so at the end of the run. */
export default class CorpusReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    if (!corpusPresent()) {
      console.log(`\n${missingCorpusMessage(false)}\n`);
      return;
    }
    const count = { passed: 0, failed: 0, skipped: 0, pending: 0 };
    for (const m of modules) for (const t of m.children.allTests()) count[t.result().state]++;
    const ran = count.passed + count.failed;
    const notRun = count.skipped + count.pending;
    console.log(
      `\nCorpus suite: ${ran} corpus checks ran (${count.passed} passed, ${count.failed} failed` +
        `${notRun > 0 ? `, ${notRun} NOT RUN` : ''}) in ${modules.length} files, over ` +
        `${corpusCases().length} cases and ${realFiles().length} real files in ${CORPUS_DIR}.\n`,
    );
  }
}
