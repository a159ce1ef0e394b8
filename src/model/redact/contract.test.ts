import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { occurring } from './contract.ts';

describe('occurring: the wanted strings found in a text', () => {
  it('equals searching each string on its own (short and long, overlapping, repeated)', () => {
    const alphabet = fc.constantFrom('a', 'b', '-', '0', '1');
    const str = (min: number, max: number) =>
      fc.array(alphabet, { minLength: min, maxLength: max }).map((cs) => cs.join(''));
    fc.assert(
      fc.property(fc.array(str(1, 14), { maxLength: 12 }), str(0, 200), (wanted, text) => {
        const naive = [...new Set(wanted.filter((s) => text.includes(s)))].sort();
        expect([...new Set(occurring(wanted, text))].sort()).toEqual(naive);
      }),
      { numRuns: 500 },
    );
  });

  it('finds a long id at the very end, and each string once however often it occurs', () => {
    const id = 'toolu_01ABCDEFGH';
    expect(occurring([id, 'absent_id_12345'], `xx ${id} yy ${id}`)).toEqual([id]);
    expect(occurring([id], `…${id}`)).toEqual([id]);
  });
});
