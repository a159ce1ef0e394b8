import { describe, expect, it } from 'vitest';
import { cli } from '../cli/testing/index.ts';
import { loadBpeCounter } from '../model/tokens.ts';
import { answerDiffJob, type DiffAnswer, type RequestDiffJob } from './diffProtocol.ts';
import { selectRequestDiffJob } from '../state/diffView.ts';
import { compactedThreeCallLog as log } from '../model/testing/claudeCodeLog.ts';

const ok = (a: DiffAnswer) => {
  if (!a.ok) throw new Error(a.error);
  return a.diff;
};

describe("the page's diff counts tokens as the CLI does once the BPE is loaded", () => {
  it('exact: the same sides, cache prefix and sentence as `diff FILE --request 3 --json`', async () => {
    const text = log();
    const job = selectRequestDiffJob(
      { text, name: 'log.jsonl', origin: 'file' },
      null,
      null,
      { kind: 'previous' },
      2,
      3,
      'exact',
    ) as RequestDiffJob;
    expect(job.tokens).toBe('exact');
    const page = ok(answerDiffJob(job, await loadBpeCounter()));
    const r = await cli(['diff', 'log.jsonl', '--request', '3', '--json'], { 'log.jsonl': text });
    const cliDiff = JSON.parse(r.out);
    expect(page.summary).toBe(cliDiff.summary);
    expect([page.left.tokens, page.right.tokens]).toEqual([
      cliDiff.left.tokens,
      cliDiff.right.tokens,
    ]);
    expect(page.cachePrefix).toEqual(cliDiff.cachePrefix);
    expect(page.tokenBasis).toBe(cliDiff.tokenBasis);
    expect(page.tokenBasis).not.toMatch(/chars\/4/);
    // Until the page's BPE is loaded: chars/4, which the view calls estimated.
    const estimate = ok(answerDiffJob({ ...job, tokens: 'estimate' }, await loadBpeCounter()));
    expect(estimate.tokenBasis).toMatch(/chars\/4/);
    expect(estimate.left.tokens).not.toBe(cliDiff.left.tokens);
  });
});
