/**
 * The share panel's evictions are the simulator's (issue 34: nothing computed twice): the chosen
 * policy's result is the very object the simulator's `selectEviction` holds, and so is
 * `exchange`'s when the simulator shows it.
 */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../model/analyze.ts';
import { assistant, call, result, system, transcript, user } from '../../model/testing/index.ts';
import { CHARS_PER_4 } from '../../model/tokens.ts';
import {
  selectEviction,
  selectEvictionContext,
  selectPolicyChoices,
} from '../../state/eviction.ts';
import { selectTokens } from '../../state/selectors.ts';
import { selectShareEvictions } from './useShareData.ts';

const t = transcript('anthropic-messages', [
  system('You are a billing assistant.'),
  user('Look up invoice 1042.'),
  assistant(call('toolu_1', 'get_invoice', { id: 1042 })),
  user(result('toolu_1', 'Invoice 1042: $1,200, paid.')),
  assistant('Invoice 1042 is paid.'),
  user('And invoice 1043?'),
  assistant(call('toolu_2', 'get_invoice', { id: 1043 })),
  user(result('toolu_2', 'Invoice 1043: $80, due.')),
  assistant('Invoice 1043 is due.'),
]);
const a = analyze(t);
const tokens = selectTokens(a.transcript, a.provider, CHARS_PER_4);
const budget = Math.floor(tokens.total / 2);

describe('the share panel reuses the simulation', () => {
  it("returns the simulator's own results (same objects), exchange shown", () => {
    const fields = {
      budget,
      policies: ['message', 'exchange'] as [string, string],
      policyOptions: {},
    };
    const ctx = selectEvictionContext(a.transcript, tokens, a.provider);
    const choices = selectPolicyChoices(fields.policies, fields.policyOptions);
    const view = selectEviction(ctx, choices, budget);
    const share = selectShareEvictions(a, tokens, fields);
    expect(share.chosen).toBe(view.results[0]);
    expect(share.alternative).toBe(view.results[1]);
  });

  it('simulates exchange once when the simulator does not show it', () => {
    const fields = {
      budget,
      policies: ['message', 'turn-pair'] as [string, string],
      policyOptions: {},
    };
    const first = selectShareEvictions(a, tokens, fields);
    const again = selectShareEvictions(a, tokens, fields);
    expect(first.alternative?.policy).toBe('exchange');
    expect(first.chosen?.policy).toBe('message');
    expect(again.alternative).toBe(first.alternative);
  });

  it('has nothing without a budget', () => {
    const fields = {
      budget: null,
      policies: ['message', 'exchange'] as [string, string],
      policyOptions: {},
    };
    expect(selectShareEvictions(a, tokens, fields)).toEqual({ chosen: null, alternative: null });
  });
});
