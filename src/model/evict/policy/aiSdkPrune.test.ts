/**
 * `ai-sdk-prune` against the AI SDK itself: the `ai` package's `pruneMessages` run offline on
 * the same transcripts (our messages as the SDK's `ModelMessage`s, `sdkView`), at every budget
 * of the policy's sweep, on every project fixture. The blocks and messages our result keeps are
 * the ones the library keeps; the verdict at each budget is recorded.
 */
import { describe, expect, it } from 'vitest';
import { projectFixtures, sweepBudgets } from '../../testing/evict.ts';
import { aiSdkLibraryKeeps, aiSdkPolicyKeeps } from '../../testing/evictLibraries.ts';

describe('ai-sdk-prune equals the AI SDK pruneMessages', () => {
  const fixtures = projectFixtures();
  it('reads the project fixtures', () => {
    expect(fixtures.length).toBeGreaterThan(20);
  });
  it.each(fixtures.map((f) => [f.name, f] as const))(
    '%s: same blocks kept at every budget of the sweep; verdict recorded',
    (_name, f) => {
      const verdicts: string[] = [];
      for (const budget of sweepBudgets(f.ctx, 'ai-sdk-prune')) {
        const { r, keys } = aiSdkPolicyKeeps(f, budget);
        expect(keys, `budget ${budget}`).toEqual(aiSdkLibraryKeeps(f, budget));
        expect(r.validation.valid).toBe(r.firstError === null);
        verdicts.push(`${budget}: ${r.firstError ? `400 ${r.firstError.code}` : 'valid'}`);
      }
      expect(verdicts.length).toBeGreaterThan(0);
      expect(verdicts).toMatchSnapshot();
    },
  );
});
