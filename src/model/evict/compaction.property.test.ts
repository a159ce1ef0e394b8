/**
 * `clear-tool-results` and `provider-compaction` never make a request the provider refuses: on
 * any valid transcript, at any budget, the kept request is as valid as the whole one; on every
 * project fixture, at every budget of the sweep, they add no error the whole transcript has not
 * got already. The other new policies' verdicts are recorded by their library tests.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arbValidTranscript } from '../testing/index.ts';
import { countTokens } from '../tokens.ts';
import type { ProviderId } from '../types.ts';
import { prepareEviction, simulatePolicy } from './policies.ts';
import { projectFixtures, sweepBudgets } from '../testing/evict.ts';
import type { PolicyId, PolicyOptions } from './types.ts';

const SAFE: readonly PolicyId[] = ['clear-tool-results', 'provider-compaction'];

const CASES: { format: 'anthropic-messages' | 'openai-chat'; provider: ProviderId }[] = [
  { format: 'anthropic-messages', provider: 'anthropic' },
  { format: 'openai-chat', provider: 'openai-chat' },
];

const arbOptions: fc.Arbitrary<PolicyOptions> = fc.record(
  {
    keepToolUses: fc.nat(4),
    clearAtLeast: fc.nat(60),
    clearToolInputs: fc.boolean(),
    summaryTokens: fc.nat(40),
    keepNewestExchanges: fc.nat(2),
  },
  { requiredKeys: [] },
);

describe.each(CASES)('no 400 from clearing or compaction ($provider)', ({ format, provider }) => {
  it('a valid transcript stays valid at every budget', () => {
    fc.assert(
      fc.property(
        arbValidTranscript(format),
        fc.double({ min: 0, max: 1.05, noNaN: true }),
        arbOptions,
        (t, frac, options) => {
          const table = countTokens(t, provider);
          const ctx = prepareEviction(t, table, provider);
          fc.pre(ctx.cuts.full.valid);
          const budget = Math.round(table.total * frac);
          for (const policy of SAFE) {
            const r = simulatePolicy(ctx, policy, budget, options);
            expect(r.firstError, `${policy} at ${budget}`).toBeNull();
            expect(r.validation.valid).toBe(true);
          }
        },
      ),
      { numRuns: 300 },
    );
  }, 60_000);
});

describe('no new 400 from clearing or compaction on the project fixtures', () => {
  const fixtures = projectFixtures();
  it.each(fixtures.map((f) => [f.name, f] as const))(
    '%s: every budget of the sweep',
    (_name, f) => {
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
          if (before.size === 0) expect(r.validation.valid, `${policy} at ${budget}`).toBe(true);
        }
    },
  );
});
