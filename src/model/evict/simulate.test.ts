import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  arbAnyTranscript,
  arbTranscript,
  arbValidTranscript,
  assistant,
  call,
  result,
  system,
  tool,
  transcript,
  user,
} from '../testing/index.ts';
import { countTokens } from '../tokens.ts';
import type { ProviderId, Transcript } from '../types.ts';
import { MONOTONE_POLICIES, POLICIES, prepareEviction, simulatePolicy } from './policies.ts';
import { merges } from './cutTables.ts';
import { checkCut, prepareCuts, type CutContext } from './simulate.ts';
import { spansCuts } from '../testing/spansCuts.reference.ts';
import { referenceCut, referencePolicy } from '../testing/simulate.reference.ts';
import type { PolicyOptions } from './types.ts';

/** Transcripts whose cuts take the direct path by design (spansCuts.ts); every other stays fast. */
function requestWide(ctx: CutContext): boolean {
  return spansCuts(ctx.full, merges(ctx.provider), ctx.t.messages);
}

const CASES: { format: 'anthropic-messages' | 'openai-chat'; provider: ProviderId }[] = [
  { format: 'anthropic-messages', provider: 'anthropic' },
  { format: 'openai-chat', provider: 'openai-chat' },
];

const arbOptions: fc.Arbitrary<PolicyOptions> = fc.record(
  {
    pinFirst: fc.boolean(),
    keepNewestExchanges: fc.nat(3),
    summaryTokens: fc.nat(40),
    keepToolUses: fc.nat(4),
    clearAtLeast: fc.nat(60),
    clearToolInputs: fc.boolean(),
    excludeTools: fc.constantFrom([], ['search'], ['lookup', 'search']),
  },
  { requiredKeys: [] },
);

/** Any transcript the tests use: valid, mutated, or random. */
const arbAny = (format: 'anthropic-messages' | 'openai-chat') =>
  fc.oneof(arbValidTranscript(format), arbTranscript(format), arbAnyTranscript(format));

function strip(v: { violations: unknown[]; valid: boolean }) {
  return { valid: v.valid, violations: v.violations };
}

describe.each(CASES)(
  'fast cut validation agrees with the reference ($provider)',
  ({ format, provider }) => {
    it('every cut: same verdict, same violations (renumbered paths included)', () => {
      fc.assert(
        fc.property(arbAny(format), (t) => {
          const ctx = prepareCuts(t, provider);
          for (let k = 0; k <= t.messages.length; k++) {
            const fast = checkCut(ctx, k);
            const ref = referenceCut(t, provider, k);
            expect(fast.valid).toBe(ref.valid);
            expect(fast.firstError).toEqual(
              ref.violations.find((v) => v.severity === 'error') ?? null,
            );
            expect(strip(fast.validation())).toEqual(strip(ref));
          }
        }),
        { numRuns: 400 },
      );
    }, 60_000);

    it('every cut agrees when raw indices are unique but out of order (a log reordered by parentUuid)', () => {
      fc.assert(
        fc.property(
          arbAny(format),
          fc.array(fc.integer(), { minLength: 64, maxLength: 64 }),
          (t0, keys) => {
            const n = t0.messages.length;
            const order = t0.messages
              .map((_, i) => i)
              .sort((a, b) => (keys[a % 64] as number) - (keys[b % 64] as number) || a - b);
            const rawOf = new Array<number>(n);
            order.forEach((i, j) => (rawOf[i] = j));
            const t = {
              ...t0,
              messages: t0.messages.map((m, i) => ({ ...m, rawIndex: rawOf[i] as number })),
            };
            const ctx = prepareCuts(t, provider);
            expect(ctx.fast).toBe(!requestWide(ctx));
            for (let k = 0; k <= n; k++) {
              const fast = checkCut(ctx, k);
              const ref = referenceCut(t, provider, k);
              expect(fast.valid).toBe(ref.valid);
              expect(strip(fast.validation())).toEqual(strip(ref));
            }
          },
        ),
        { numRuns: 300 },
      );
    }, 60_000);

    it('every policy, budget and option: same kept set, tokens, fit and validation', () => {
      fc.assert(
        fc.property(
          arbAny(format),
          fc.double({ min: 0, max: 1.05, noNaN: true }),
          arbOptions,
          (t, frac, options) => {
            const table = countTokens(t, provider);
            const ctx = prepareEviction(t, table, provider);
            const budget = Math.round(table.total * frac);
            for (const policy of POLICIES) {
              const fast = simulatePolicy(ctx, policy, budget, options);
              const ref = referencePolicy(t, table, provider, policy, budget, options);
              expect({
                policy,
                kept: fast.kept,
                evicted: fast.evicted,
                tokensKept: fast.tokensKept,
                fits: fast.fits,
                summary: fast.summary !== undefined,
              }).toEqual({
                policy,
                kept: ref.kept,
                evicted: ref.evicted,
                tokensKept: ref.tokensKept,
                fits: ref.fits,
                summary: ref.summarised,
              });
              const refFirst =
                ref.validation.violations.find((v) => v.severity === 'error') ?? null;
              expect(fast.validation.valid).toBe(ref.validation.valid);
              expect(fast.firstError?.rule).toBe(refFirst?.rule);
              expect(fast.firstError?.messageIndex).toBe(refFirst?.messageIndex);
              expect(fast.firstError?.message).toBe(refFirst?.message);
              expect(fast.firstError).toEqual(refFirst);
              expect(strip(fast.validation)).toEqual(strip(ref.validation));
            }
          },
        ),
        { numRuns: 300 },
      );
    }, 60_000);
  },
);

describe.each(CASES)('policy properties ($provider)', ({ format, provider }) => {
  it('exchange eviction of a valid transcript is valid and within budget, or says it cannot fit', () => {
    fc.assert(
      fc.property(
        arbValidTranscript(format),
        fc.double({ min: 0, max: 1, noNaN: true }),
        (t, frac) => {
          const table = countTokens(t, provider);
          const ctx = prepareEviction(t, table, provider);
          const budget = Math.round(table.total * frac);
          const r = simulatePolicy(ctx, 'exchange', budget);
          if (r.fits) expect(r.tokensKept).toBeLessThanOrEqual(budget);
          else expect(r.tokensKept).toBeGreaterThan(budget);
          expect(r.validation.valid).toBe(true);
          expect(r.firstError).toBeNull();
        },
      ),
      { numRuns: 300 },
    );
  }, 60_000);

  it('a larger budget never evicts more (monotone policies)', () => {
    fc.assert(
      fc.property(
        arbAny(format),
        fc.double({ min: 0, max: 1, noNaN: true }),
        fc.double({ min: 0, max: 1, noNaN: true }),
        arbOptions,
        (t, a, b, options) => {
          const table = countTokens(t, provider);
          const ctx = prepareEviction(t, table, provider);
          const [lo, hi] = [Math.min(a, b), Math.max(a, b)].map((f) =>
            Math.round(f * table.total),
          ) as [number, number];
          for (const policy of MONOTONE_POLICIES) {
            const small = simulatePolicy(ctx, policy, lo, options);
            const big = simulatePolicy(ctx, policy, hi, options);
            expect(big.evicted.length).toBeLessThanOrEqual(small.evicted.length);
            for (const i of big.evicted) expect(small.evicted).toContain(i);
          }
        },
      ),
      { numRuns: 200 },
    );
  }, 60_000);
});

describe('policies on a hand-made transcript', () => {
  // Anthropic: u0, a1(call A), u2(result A), a3 text, u4, a5(calls B C), u6(results B C), a7 text, u8
  const t: Transcript = transcript('anthropic-messages', [
    user('Find the invoice.'),
    assistant(call('A', 'search')),
    user(result('A', 'x'.repeat(400))),
    assistant('Found it.'),
    user('Now total it.'),
    assistant(call('B'), call('C')),
    user(result('B', 'y'.repeat(200)), result('C', 'z'.repeat(200))),
    assistant('The total is 12.'),
    user('Thanks, and the tax?'),
  ]);
  const table = countTokens(t, 'anthropic');
  const ctx = prepareEviction(t, table, 'anthropic');

  it('message eviction orphans a tool_result with the exact Anthropic error; exchange eviction stays valid', () => {
    // Budget just under the total minus the first two messages: message drops u0 and a1 only.
    const budget = table.total - (table.perMessage[0] as number) - (table.perMessage[1] as number);
    const m = simulatePolicy(ctx, 'message', budget);
    expect(m.evicted).toEqual([0, 1]);
    expect(m.validation.valid).toBe(false);
    expect(m.firstError?.rule).toBe('orphan_tool_result');
    expect(m.firstError?.message).toBe(
      'messages.0.content.0: unexpected `tool_use_id` found in `tool_result` blocks: A. Each `tool_result` block must have a corresponding `tool_use` block in the previous message.',
    );
    const x = simulatePolicy(ctx, 'exchange', budget);
    expect(x.evicted).toEqual([0, 1, 2, 3]);
    expect(x.validation.valid).toBe(true);
    expect(x.overshoot).toBeGreaterThan(1);
    expect(x.freed).toBe(x.tokensBefore - x.tokensKept);
    expect(x.overshoot).toBeCloseTo(x.freed / x.deficit);
  });

  it('turn-pair keeps the task and drops assistant + following user together', () => {
    const budget = table.total - (table.perMessage[1] as number) - (table.perMessage[2] as number);
    const r = simulatePolicy(ctx, 'turn-pair', budget);
    expect(r.evicted).toEqual([1, 2]);
    expect(r.kept[0]).toBe(0);
    expect(r.validation.valid).toBe(true);
  });

  it('summary replaces the oldest exchanges after the task with one user message', () => {
    const r = simulatePolicy(ctx, 'summary', table.total - 50, { summaryTokens: 10 });
    expect(r.kept[0]).toBe(0);
    expect(r.summary).toEqual({ before: 4, tokens: 10 });
    expect(r.evicted).toEqual([1, 2, 3]);
    expect(r.tokensKept).toBe(
      table.total -
        (table.perMessage[1] as number) -
        (table.perMessage[2] as number) -
        (table.perMessage[3] as number) +
        10,
    );
    expect(r.validation.valid).toBe(true);
  });

  it('no eviction when the budget covers everything; cannot fit below the newest exchange', () => {
    const all = simulatePolicy(ctx, 'exchange', table.total);
    expect(all).toMatchObject({ evicted: [], deficit: 0, overshoot: null, fits: true });
    const none = simulatePolicy(ctx, 'exchange', 1);
    expect(none.fits).toBe(false);
    expect(none.kept).toEqual([8]);
  });

  it('keepNewestExchanges protects the newest N exchanges', () => {
    const r = simulatePolicy(ctx, 'message', 1, { keepNewestExchanges: 2 });
    expect(r.fits).toBe(false);
    expect(r.kept).toEqual([4, 5, 6, 7, 8]);
  });

  it('OpenAI: a pinned system message stays and the orphan tool message gets the O1 text', () => {
    const o = transcript('openai-chat', [
      system('Be brief.'),
      user('Weather?'),
      assistant(call('call_1')),
      tool('call_1', '18 C'),
      assistant('18 C.'),
      user('Tomorrow?'),
    ]);
    const ot = countTokens(o, 'openai-chat');
    const octx = prepareEviction(o, ot, 'openai-chat');
    const r = simulatePolicy(
      octx,
      'message',
      ot.total - (ot.perMessage[1] as number) - (ot.perMessage[2] as number),
    );
    expect(r.kept).toEqual([0, 3, 4, 5]);
    expect(r.firstError?.message).toBe(
      "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
    );
    expect(r.firstError?.error).toEqual({
      error: {
        message: r.firstError?.message,
        type: 'invalid_request_error',
        param: 'messages.[1].role',
        code: null,
      },
    });
  });
});
