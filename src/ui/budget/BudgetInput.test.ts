import { describe, expect, it } from 'vitest';
import { parseBudgetDraft } from './BudgetInput.tsx';

describe('parseBudgetDraft', () => {
  it('an empty or partial draft is not a budget (the box keeps it while the user types)', () => {
    expect(parseBudgetDraft('')).toBeNull();
    expect(parseBudgetDraft('  ')).toBeNull();
    expect(parseBudgetDraft('-')).toBeNull();
    expect(parseBudgetDraft('-5')).toBeNull();
    expect(parseBudgetDraft('abc')).toBeNull();
  });
  it('a number of tokens is committed as typed', () => {
    expect(parseBudgetDraft('0')).toBe(0);
    expect(parseBudgetDraft('5')).toBe(5);
    expect(parseBudgetDraft('500')).toBe(500);
  });
});
