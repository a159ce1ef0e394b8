/** What-if triggers: the budget a 413 retry or a smaller window implies, and the rows. */
import { describe, expect, it } from 'vitest';
import { assistant, call, result, transcript, user } from '../testing/index.ts';
import { countTokens } from '../tokens.ts';
import { prepareEviction, simulatePolicy } from './policies.ts';
import { ANTHROPIC_REQUEST_LIMIT_BYTES, triggerBudget, whatIfRows } from './triggers.ts';

const t = transcript('anthropic-messages', [
  user('Find the invoice.'),
  assistant(call('A', 'search')),
  user(result('A', 'x'.repeat(4000))),
  assistant('Found it.'),
  user('Now total it.'),
]);

describe('what-if triggers', () => {
  it('a smaller window: the window less the reply reserve; no event when the request fits', () => {
    expect(
      triggerBudget(10_000, { kind: 'smaller-window', window: 8_000, reserve: 1_000 }),
    ).toEqual({
      budget: 7_000,
      happens: true,
    });
    expect(
      triggerBudget(5_000, { kind: 'smaller-window', window: 8_000, reserve: 1_000 }).happens,
    ).toBe(false);
  });

  it('a 413: tokens scaled by the limit over the body bytes; none under the limit', () => {
    const over = {
      kind: 'retry-413' as const,
      limitBytes: ANTHROPIC_REQUEST_LIMIT_BYTES,
      bodyBytes: 64 * 1024 * 1024,
    };
    expect(triggerBudget(400_000, over)).toEqual({ budget: 200_000, happens: true });
    expect(triggerBudget(400_000, { ...over, bodyBytes: 1_000 })).toEqual({
      budget: 400_000,
      happens: false,
    });
  });

  it('rows run each policy at the trigger budget, as simulatePolicy does', () => {
    const table = countTokens(t, 'anthropic');
    const ctx = prepareEviction(t, table, 'anthropic');
    const window = Math.floor(table.total * 0.6);
    const [row] = whatIfRows(
      ctx,
      [{ kind: 'smaller-window', window, reserve: 10 }],
      [{ id: 'clear-tool-results' }, { id: 'exchange' }],
    );
    expect(row?.budget).toBe(window - 10);
    expect(row?.happens).toBe(true);
    expect(row?.label).toContain('smaller window');
    expect(row?.results.map((r) => [r.policy, r.tokensKept, r.validation.valid])).toEqual(
      (['clear-tool-results', 'exchange'] as const).map((p) => {
        const r = simulatePolicy(ctx, p, window - 10);
        return [p, r.tokensKept, r.validation.valid];
      }),
    );
    // Clearing the result keeps the pair: valid at the smaller window.
    expect(row?.results[0]?.validation.valid).toBe(true);
  });
});
