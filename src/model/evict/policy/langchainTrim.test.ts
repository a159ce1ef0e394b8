/**
 * `langchain-trim` against LangChain itself: `@langchain/core`'s `trimMessages` (strategy
 * "last", startOn "human", includeSystem, a token counter that sums our per-message counts) run
 * offline on the same transcripts as LangChain messages, at every budget of the policy's sweep,
 * on every project fixture. The messages our result keeps are the ones the library keeps; the
 * verdict at each budget is recorded.
 */
import { describe, expect, it } from 'vitest';
import { projectFixtures, sweepBudgets } from '../../testing/evict.ts';
import { langchainBoth } from '../../testing/evictLibraries.ts';

describe('langchain-trim equals LangChain trimMessages', () => {
  const fixtures = projectFixtures();
  it.each(fixtures.map((f) => [f.name, f] as const))(
    '%s: same messages kept at every budget of the sweep; verdict recorded',
    async (_name, f) => {
      const verdicts: string[] = [];
      for (const budget of sweepBudgets(f.ctx, 'langchain-trim')) {
        if (budget < f.table.system) continue; // the library fails below its own system prompt
        const { ours, theirs, r } = await langchainBoth(f, budget);
        expect(ours, `budget ${budget}`).toEqual(theirs);
        verdicts.push(`${budget}: ${r.firstError ? `400 ${r.firstError.code}` : 'valid'}`);
      }
      expect(verdicts).toMatchSnapshot();
    },
  );
});
