import { describe, expect, it } from 'vitest';
import { policyVerdict, verdictClass } from './policyVerdict.ts';

describe('policyVerdict (one reading for the summary line and the card)', () => {
  const base = { tokensKept: 1200, budget: 800 };
  it('valid and within the budget: ok', () => {
    const v = policyVerdict({ ...base, tokensKept: 700, fits: true, validation: { valid: true } });
    expect(v).toMatchObject({ kind: 'ok', short: 'valid' });
    expect(verdictClass(v.kind)).toBe('ok');
  });
  it('valid but over the budget: a warning that says why, never a plain "valid"', () => {
    const v = policyVerdict({ ...base, fits: false, validation: { valid: true } }, true);
    expect(v.kind).toBe('over');
    expect(v.short).toBe('valid, over budget');
    expect(v.long).toBe(
      'valid, but over budget: it cannot drop more and keeps ≈1,200 tokens of a 800-token budget',
    );
    expect(verdictClass(v.kind)).toBe('warn');
  });
  it('a 400 is an error whether or not it fits', () => {
    for (const fits of [true, false])
      expect(policyVerdict({ ...base, fits, validation: { valid: false } }).kind).toBe('error');
    expect(verdictClass('error')).toBe('bad');
  });
});
