import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arbAnyTranscript, arbTranscript, arbValidTranscript } from '../testing/index.ts';
import { countTokens } from '../tokens.ts';
import type { ProviderId } from '../types.ts';
import { cutMarkers } from './cuts.ts';
import {
  cutPlan,
  planCutValid,
  planCutValidities,
  POLICIES,
  prepareEviction,
  simulatePolicy,
} from './policies.ts';
import { referenceCut } from '../testing/simulate.reference.ts';
import { sweepContext } from './sweep.ts';

const CASES: { format: 'anthropic-messages' | 'openai-chat'; provider: ProviderId }[] = [
  { format: 'anthropic-messages', provider: 'anthropic' },
  { format: 'openai-chat', provider: 'openai-chat' },
];
const arbAny = (format: 'anthropic-messages' | 'openai-chat') =>
  fc.oneof(arbValidTranscript(format), arbTranscript(format), arbAnyTranscript(format));

describe.each(CASES)('sweep and cut markers ($provider)', ({ format, provider }) => {
  it('the sweep says, for every budget, what simulatePolicy says (validity, tokens kept, share, mean overshoot)', () => {
    fc.assert(
      fc.property(arbAny(format), (t) => {
        const table = countTokens(t, provider);
        const ctx = prepareEviction(t, table, provider);
        const s = sweepContext(ctx);
        for (const ps of s.policies) {
          let bad = 0;
          let overshoot = 0;
          for (let b = ps.minBudget; b <= table.total; b++) {
            const r = simulatePolicy(ctx, ps.policy, b);
            expect(r.fits).toBe(true);
            const inBad = ps.invalidBudgets.some(([lo, hi]) => b >= lo && b <= hi);
            expect(inBad).toBe(!r.validation.valid);
            if (inBad) bad++;
            const j = ps.cuts.indexOf(r.cut);
            expect(ps.costs[j]).toBe(r.tokensKept);
            if (r.overshoot !== null) overshoot += r.overshoot;
          }
          // The 400 budgets as ascending, disjoint, non-adjacent intervals (merged).
          ps.invalidBudgets.forEach(([lo, hi], i) => {
            expect(lo).toBeLessThanOrEqual(hi);
            if (i > 0) expect(lo).toBeGreaterThan((ps.invalidBudgets[i - 1] as number[])[1]! + 1);
          });
          expect(ps.share400).toBeCloseTo(bad / (table.total - ps.minBudget + 1), 9);
          if (ps.meanOvershoot === null) expect(table.total - ps.minBudget).toBe(0);
          else expect(ps.meanOvershoot).toBeCloseTo(overshoot / (table.total - ps.minBudget), 9);
          if (ps.minBudget > 0)
            expect(simulatePolicy(ctx, ps.policy, ps.minBudget - 1).fits).toBe(false);
        }
        expect(s.policies.map((p) => p.policy)).toEqual(POLICIES);
      }),
      { numRuns: 40 },
    );
  }, 60_000);

  it("a plan's validities in one array equal planCutValid at every cut (every policy, also with pinFirst and summaries), and the sweep's valid is that array", () => {
    fc.assert(
      fc.property(arbAny(format), fc.boolean(), (t, pinFirst) => {
        const table = countTokens(t, provider);
        // Separate contexts, so that neither side reads the window caches the other filled.
        const ctx = prepareEviction(t, table, provider);
        const alone = prepareEviction(t, table, provider);
        const swept = sweepContext(prepareEviction(t, table, provider), POLICIES, { pinFirst });
        for (const [i, policy] of POLICIES.entries()) {
          const plan = cutPlan(ctx, policy, { pinFirst });
          const all = planCutValidities(ctx, plan);
          const one = cutPlan(alone, policy, { pinFirst });
          expect(Array.from(all)).toEqual(
            Array.from(plan.cuts, (_, j) => (planCutValid(alone, one, j) ? 1 : 0)),
          );
          expect(swept.policies[i]?.valid).toEqual(all);
        }
      }),
      { numRuns: 150 },
    );
  }, 60_000);

  it('cut markers match the reference, and the error shown on a red marker is the exact first error', () => {
    fc.assert(
      fc.property(arbAny(format), (t) => {
        const ctx = prepareEviction(t, countTokens(t, provider), provider).cuts;
        const markers = cutMarkers(ctx);
        expect(markers.safe.length).toBe(t.messages.length + 1);
        for (let k = 0; k <= t.messages.length; k++) {
          const ref = referenceCut(t, provider, k);
          expect(markers.safe[k]).toBe(ref.valid ? 1 : 0);
          const first = ref.violations.find((v) => v.severity === 'error');
          const e = markers.errorAt(k);
          if (!first) expect(e).toBeNull();
          else
            expect(e).toEqual({
              rule: first.rule,
              code: first.code,
              messageIndex: first.messageIndex,
              index: first.index,
              ...(first.pathIndex !== undefined ? { pathIndex: first.pathIndex } : {}),
              providerPath: first.providerPath,
              message: first.message,
              error: first.error,
            });
        }
      }),
      { numRuns: 200 },
    );
  }, 60_000);

  it('on valid transcripts every exchange boundary is a safe cut', () => {
    fc.assert(
      fc.property(arbValidTranscript(format), (t) => {
        const ctx = prepareEviction(t, countTokens(t, provider), provider);
        const markers = cutMarkers(ctx.cuts);
        for (const x of ctx.grouping.exchanges) expect(markers.safe[x.first]).toBe(1);
        const ex = sweepContext(ctx, ['exchange']).policies[0];
        expect(ex?.invalidCuts).toEqual([]);
        expect(ex?.share400).toBe(0);
      }),
      { numRuns: 200 },
    );
  }, 60_000);
});
