/**
 * `fittingCut` (a fleet scan's cut choice, no object per call) is `chooseCut`'s choice, and both
 * are the first cut whose cost fits the budget, else the last cut, found by a walk over every cut.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arbAnyTranscript } from '../testing/index.ts';
import { countTokens } from '../tokens.ts';
import { chooseCut, cutPlan, fittingCut, planCost, POLICIES, prepareEviction } from './policies.ts';

describe('fittingCut', () => {
  it('is the first cut that fits (or −1), and chooseCut takes it or the last cut', () => {
    fc.assert(
      fc.property(
        arbAnyTranscript('anthropic-messages'),
        fc.array(fc.double({ min: 0, max: 1.1, noNaN: true }), { minLength: 1, maxLength: 6 }),
        (t, fractions) => {
          const table = countTokens(t, 'anthropic');
          const ctx = prepareEviction(t, table, 'anthropic');
          for (const policy of POLICIES) {
            const plan = cutPlan(ctx, policy);
            for (const f of fractions) {
              const budget = Math.floor(table.total * f);
              let first = -1;
              for (let j = 0; j < plan.cuts.length && first < 0; j++)
                if (planCost(ctx, plan, j) <= budget) first = j;
              expect(fittingCut(ctx, plan, budget)).toBe(first);
              expect(chooseCut(ctx, plan, budget)).toEqual(
                first >= 0 ? { j: first, fits: true } : { j: plan.cuts.length - 1, fits: false },
              );
            }
          }
        },
      ),
      { numRuns: 200 },
    );
  }, 120_000);
});
