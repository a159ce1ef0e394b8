import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { charDiff } from './charDiff.ts';

const side = (parts: ReturnType<typeof charDiff>, drop: 'add' | 'del') =>
  parts
    .filter((p) => p.op !== drop)
    .map((p) => p.text)
    .join('');

describe('charDiff', () => {
  it('marks the changed characters of a cleared tool result', () => {
    expect(charDiff('disk 93% full', 'disk full')).toEqual([
      { op: 'same', text: 'disk ' },
      { op: 'del', text: '93% ' },
      { op: 'same', text: 'full' },
    ]);
  });

  it('rebuilds both texts from its runs', () => {
    fc.assert(
      fc.property(fc.string({ maxLength: 60 }), fc.string({ maxLength: 60 }), (a, b) => {
        const parts = charDiff(a, b);
        expect(side(parts, 'add')).toBe(a);
        expect(side(parts, 'del')).toBe(b);
      }),
      { numRuns: 200 },
    );
  });
});
