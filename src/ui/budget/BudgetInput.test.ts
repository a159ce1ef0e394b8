import { describe, expect, it } from 'vitest';
import {
  acceptedBudget,
  budgetKeyStep,
  budgetRefusalText,
  parseBudgetDraft,
} from './BudgetInput.tsx';

describe('parseBudgetDraft', () => {
  it('an empty or partial draft is not a budget (the box keeps it while the user types)', () => {
    expect(parseBudgetDraft('')).toBeNull();
    expect(parseBudgetDraft('  ')).toBeNull();
    expect(parseBudgetDraft(',')).toBeNull();
    expect(parseBudgetDraft('-')).toBeNull();
    expect(parseBudgetDraft('-5')).toBeNull();
    expect(parseBudgetDraft('abc')).toBeNull();
  });
  it('a number of tokens is committed as typed', () => {
    expect(parseBudgetDraft('0')).toBe(0);
    expect(parseBudgetDraft('5')).toBe(5);
    expect(parseBudgetDraft('500')).toBe(500);
  });
  it('thousands separators are ignored (the box shows them; a pasted figure may carry them)', () => {
    expect(parseBudgetDraft('150,000')).toBe(150_000);
    expect(parseBudgetDraft('150 000')).toBe(150_000);
    expect(parseBudgetDraft('1\u202f500\u00a0000')).toBe(1_500_000);
    expect(parseBudgetDraft("150'000")).toBe(150_000);
    expect(parseBudgetDraft(' 2,500 ')).toBe(2500);
  });
});

describe('a refused budget', () => {
  it('signs, decimals, exponents and hex are not a whole number of tokens in digits', () => {
    expect(parseBudgetDraft('1e3')).toBeNull();
    expect(parseBudgetDraft('1.5')).toBeNull();
    expect(parseBudgetDraft('0x10')).toBeNull();
    expect(parseBudgetDraft('+5')).toBeNull();
    expect(parseBudgetDraft('9'.repeat(30))).toBeNull();
  });
  it('the box takes 0 to the total, no more', () => {
    expect(acceptedBudget('0', 1747)).toBe(0);
    expect(acceptedBudget('1,747', 1747)).toBe(1747);
    expect(acceptedBudget('1,748', 1747)).toBeNull();
    expect(acceptedBudget('99999999999', 1747)).toBeNull();
    expect(acceptedBudget('12,000', 150_000)).toBe(12_000);
  });
  it('the note says what is taken and that the budget stays', () => {
    expect(budgetRefusalText(150_000, 1100)).toBe(
      'Type a whole number of tokens from 0 to 150,000; the budget stays at 1,100.',
    );
  });
});

describe('budgetKeyStep', () => {
  it('steps as the slider does: one token, a hundredth with Shift, a tenth by page', () => {
    expect(budgetKeyStep('ArrowUp', false, 150_000)).toBe(1);
    expect(budgetKeyStep('ArrowDown', false, 150_000)).toBe(-1);
    expect(budgetKeyStep('ArrowUp', true, 150_000)).toBe(1500);
    expect(budgetKeyStep('PageDown', false, 150_000)).toBe(-15_000);
    expect(budgetKeyStep('PageUp', false, 5)).toBe(1);
    expect(budgetKeyStep('a', false, 150_000)).toBeNull();
    expect(budgetKeyStep('Enter', false, 150_000)).toBeNull();
  });
});
