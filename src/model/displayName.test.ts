import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { displayName } from './displayName.ts';

describe('displayName', () => {
  it('shows a right-to-left override as its code point, so the name reads as it is', () => {
    expect(displayName('invoice\u202Enosj.exe')).toBe('invoice[U+202E]nosj.exe');
    expect(displayName('a\u2066b\u2069\u200F')).toBe('a[U+2066]b[U+2069][U+200F]');
  });
  it('leaves every other name as it is, and leaves no bidi control in any name', () => {
    expect(displayName('session-2026.jsonl')).toBe('session-2026.jsonl');
    fc.assert(
      fc.property(fc.string({ unit: 'binary' }), (s) => {
        expect(displayName(s)).not.toMatch(/[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/);
      }),
    );
  });
});
