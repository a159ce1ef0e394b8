import { describe, expect, it } from 'vitest';
import { overshootNote } from './report.ts';

describe('overshootNote (the CLI report and the fleet view say it alike)', () => {
  it('explains a mean below 0, and says nothing for 0 and above or no mean', () => {
    expect(overshootNote(-29.83)).toBe('below 0: what it adds, a summary, outweighs what it drops');
    expect(overshootNote(0)).toBeNull();
    expect(overshootNote(1.4)).toBeNull();
    expect(overshootNote(null)).toBeNull();
  });
});
