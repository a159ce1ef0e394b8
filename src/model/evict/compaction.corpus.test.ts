/**
 * Corpus suite: the four compaction policies on every real log in `real/`, at every budget of
 * each policy's sweep. ai-sdk-prune and langchain-trim keep what the libraries themselves keep
 * (`pruneMessages`, `trimMessages`, run offline); clear-tool-results and provider-compaction add
 * no error the whole log has not got already; every verdict is recorded (counted per policy).
 */
import { describe, expect, it } from 'vitest';
import { readReal, realFiles } from '../../testing/corpus.ts';
import { simulatePolicy } from './policies.ts';
import { aiSdkLibraryKeeps, aiSdkPolicyKeeps, langchainBoth } from '../testing/evictLibraries.ts';
import { loadFixture, sweepBudgets, type LoadedFixture } from '../testing/evict.ts';
import type { PolicyId } from './types.ts';

const SAFE: readonly PolicyId[] = ['clear-tool-results', 'provider-compaction'];

const logs: LoadedFixture[] = realFiles()
  .filter((f) => !f.endsWith('.md'))
  .flatMap((f) => {
    const loaded = loadFixture(f, readReal(f));
    return loaded ? [loaded] : [];
  });

/** Verdicts seen, per policy: how many budgets gave a valid request and how many a 400. */
const verdicts = new Map<string, { valid: number; error: number }>();
function record(policy: string, valid: boolean): void {
  const v = verdicts.get(policy) ?? { valid: 0, error: 0 };
  if (valid) v.valid++;
  else v.error++;
  verdicts.set(policy, v);
}

describe('compaction policies on the real logs', () => {
  it('reads the real logs of every writer', () => {
    expect(logs.length).toBeGreaterThanOrEqual(10);
  });

  it.each(logs.map((f) => [f.name, f] as const))('%s', async (_name, f) => {
    for (const budget of sweepBudgets(f.ctx, 'ai-sdk-prune')) {
      const { r, keys } = aiSdkPolicyKeeps(f, budget);
      expect(keys, `ai-sdk-prune at ${budget}`).toEqual(aiSdkLibraryKeeps(f, budget));
      record('ai-sdk-prune', r.validation.valid);
    }
    for (const budget of sweepBudgets(f.ctx, 'langchain-trim')) {
      if (budget < f.table.system) continue; // the library fails below its own system prompt
      const { ours, theirs, r } = await langchainBoth(f, budget);
      expect(ours, `langchain-trim at ${budget}`).toEqual(theirs);
      record('langchain-trim', r.validation.valid);
    }
    const before = new Set(
      f.ctx.cuts.full.violations.filter((v) => v.severity === 'error').map((v) => v.code),
    );
    for (const policy of SAFE)
      for (const budget of sweepBudgets(f.ctx, policy)) {
        const r = simulatePolicy(f.ctx, policy, budget);
        const added = r.validation.violations.filter(
          (v) => v.severity === 'error' && !before.has(v.code),
        );
        expect(
          added.map((v) => `${v.code} ${v.message}`),
          `${policy} at ${budget}`,
        ).toEqual([]);
        record(policy, r.validation.valid);
      }
  });

  it('recorded a verdict of every policy', () => {
    for (const p of ['ai-sdk-prune', 'langchain-trim', ...SAFE]) {
      const v = verdicts.get(p);
      expect(v, p).toBeDefined();
      expect((v?.valid ?? 0) + (v?.error ?? 0)).toBeGreaterThan(0);
    }
  });
});
