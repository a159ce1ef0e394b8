/**
 * The fast plans of the issue-39 policies equal the straightforward ones (issue 39, the sweep
 * under 250 ms): `ai-sdk-prune`, `clear-tool-results` and `langchain-trim` read roles, block kinds
 * and ids from the shared shapes (shapes.ts) instead of the message objects, and take their
 * verdicts from cached or derived validations; `provider-compaction` takes its cut points from
 * the prepared typed arrays. On generated transcripts each step's edits, dropped messages and
 * tokens equal the reference's (testing/rewrite.reference.ts), and its verdict equals validating
 * the edited request from scratch.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { arbAnyTranscript, arbTranscript, arbValidTranscript } from '../../testing/index.ts';
import {
  referenceAiSdkPrune,
  referenceClearToolResults,
  referenceLangchainTrim,
  type ReferenceStep,
} from '../../testing/rewrite.reference.ts';
import { countTokens } from '../../tokens.ts';
import type { ProviderId } from '../../types.ts';
import { validateTranscript } from '../../validate/index.ts';
import { cutPlan, planCutValid, prepareEviction, type EvictionContext } from '../policies.ts';
import { editedMessages, stepValidation } from '../rewrite.ts';
import { POLICY_REGISTRY } from '../registry.ts';
import type { PolicyId, PolicyOptions } from '../types.ts';

const CASES: { format: 'anthropic-messages' | 'openai-chat'; provider: ProviderId }[] = [
  { format: 'anthropic-messages', provider: 'anthropic' },
  { format: 'openai-chat', provider: 'openai-chat' },
];

const arbAny = (format: 'anthropic-messages' | 'openai-chat') =>
  fc.oneof(arbValidTranscript(format), arbTranscript(format), arbAnyTranscript(format));

const arbOptions: fc.Arbitrary<PolicyOptions> = fc.record(
  {
    keepToolUses: fc.nat(4),
    clearAtLeast: fc.nat(60),
    excludeTools: fc.constantFrom([], ['search'], ['lookup', 'search']),
  },
  { requiredKeys: [] },
);

/** Every step of the policy's plan equals the reference's, and so does its verdict. */
function expectPlanEquals(
  ctx: EvictionContext,
  policy: PolicyId,
  options: PolicyOptions,
  ref: ReferenceStep[],
): void {
  const plan = cutPlan(ctx, policy, options);
  const rewrite = plan.rewrite;
  expect(rewrite).toBeDefined();
  if (!rewrite) return;
  expect(rewrite.steps.length).toBe(ref.length);
  const t = ctx.cuts.t;
  ref.forEach((want, j) => {
    const step = rewrite.steps[j];
    expect(step?.tokensKept, `step ${j}`).toBe(want.tokensKept);
    expect(step?.evicted).toEqual(want.evicted);
    expect(step?.edits).toEqual(want.edits);
    const direct = validateTranscript(t, ctx.cuts.provider, {
      ...ctx.cuts.opts,
      messages: editedMessages(t.messages, want, t.format),
    });
    expect(planCutValid(ctx, plan, j), `step ${j} valid`).toBe(direct.valid);
    expect(stepValidation(ctx, rewrite, j).violations).toEqual(direct.violations);
  });
}

describe.each(CASES)(
  'fast plans equal the straightforward ones ($provider)',
  ({ format, provider }) => {
    it('ai-sdk-prune, clear-tool-results and langchain-trim: same steps, same verdicts', () => {
      fc.assert(
        fc.property(arbAny(format), arbOptions, (t, options) => {
          const ctx = prepareEviction(t, countTokens(t, provider), provider);
          expectPlanEquals(ctx, 'ai-sdk-prune', {}, referenceAiSdkPrune(ctx));
          expectPlanEquals(
            ctx,
            'clear-tool-results',
            options,
            referenceClearToolResults(ctx, options),
          );
          expectPlanEquals(ctx, 'langchain-trim', {}, referenceLangchainTrim(ctx));
        }),
        { numRuns: 300 },
      );
    }, 120_000);

    it('provider-compaction: its cut points are the starts of its units', () => {
      fc.assert(
        fc.property(arbAny(format), (t) => {
          const ctx = prepareEviction(t, countTokens(t, provider), provider);
          const def = POLICY_REGISTRY['provider-compaction'];
          const units = def.units(t.messages, ctx.grouping.exchanges, undefined);
          const starts = units.slice(1).map((u) => u[0] as number);
          // Every unit but the first starts at a turn start; the first may open on a non-assistant.
          const first = units[0]?.[0];
          if (first !== undefined && t.messages[first]?.role === 'assistant') starts.unshift(first);
          const task = ctx.nonPinned[0] ?? t.messages.length;
          expect(Array.from(def.cuts(ctx, task).candidates)).toEqual(starts);
        }),
        { numRuns: 300 },
      );
    }, 60_000);
  },
);
