import { describe, expect, it } from 'vitest';
import { countOf } from './CountField.tsx';

describe('countOf (what a count option reads from its input)', () => {
  it('keeps the whole part of a number at or above the least count', () => {
    expect(countOf('3', 0)).toBe(3);
    expect(countOf('3.7', 0)).toBe(3);
    expect(countOf('250', 1)).toBe(250);
  });

  it('reads a blank, a non-number or a count below the least as the least', () => {
    expect(countOf('', 0)).toBe(0);
    expect(countOf('', 1)).toBe(1);
    expect(countOf('abc', 1)).toBe(1);
    expect(countOf('-4', 0)).toBe(0);
    expect(countOf('0', 1)).toBe(1);
  });
});
