import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arbAnyTranscript, arbTranscript, arbValidTranscript } from '../testing/index.ts';
import { arbScanBudgets, referenceCut } from '../testing/scanRows.reference.ts';
import { countTokens } from '../tokens.ts';
import type { ProviderId } from '../types.ts';
import { cutPlan, planHead, POLICIES, prepareEviction } from '../evict/policies.ts';
import { checkCut, cutFirstRule } from '../evict/simulate.ts';
import { requestCuts } from './rows.ts';

const CASES: { format: 'anthropic-messages' | 'openai-chat'; provider: ProviderId }[] = [
  { format: 'anthropic-messages', provider: 'anthropic' },
  { format: 'openai-chat', provider: 'openai-chat' },
];

const arbAny = (format: 'anthropic-messages' | 'openai-chat') =>
  fc.oneof(arbValidTranscript(format), arbTranscript(format), arbAnyTranscript(format));

const arbBudgets = arbScanBudgets(6);

describe.each(CASES)(
  'a scan row’s cuts are simulatePolicy’s ($provider)',
  ({ format, provider }) => {
    it('every policy × budget: the same 400, rule and overshoot as one simulatePolicy each', () => {
      fc.assert(
        fc.property(arbAny(format), arbBudgets, (t, budgets) => {
          const table = countTokens(t, provider);
          const cuts = requestCuts(prepareEviction(t, table, provider), { budgets });
          // A fresh context for the reference: no plan or window cache shared with the scan's.
          const ref = prepareEviction(t, table, provider);
          let i = 0;
          for (const policy of POLICIES)
            for (const b of budgets) {
              expect(cuts[i++]).toEqual(referenceCut(ref, policy, b, table.total));
            }
          expect(cuts.length).toBe(i);
        }),
        { numRuns: 300 },
      );
    }, 120_000);

    it('cutFirstRule is checkCut’s first error’s rule at every cut of every plan', () => {
      fc.assert(
        fc.property(arbAny(format), (t) => {
          const ctx = prepareEviction(t, countTokens(t, provider), provider);
          for (const policy of POLICIES) {
            const plan = cutPlan(ctx, policy);
            if (plan.rewrite) continue;
            for (let j = 0; j < plan.cuts.length; j++) {
              const k = plan.cuts[j] as number;
              const head = planHead(ctx, plan, j);
              expect(cutFirstRule(ctx.cuts, k, head)).toBe(
                checkCut(ctx.cuts, k, head).firstError?.rule ?? null,
              );
            }
          }
        }),
        { numRuns: 300 },
      );
    }, 120_000);
  },
);
