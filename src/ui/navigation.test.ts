import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import { groupExchanges, type Grouping } from '../model/exchanges.ts';
import type { Message } from '../model/types.ts';
import { nextInList, stepExchange, stepMessage } from './navigation.ts';

const msg = (index: number, role: Message['role'], toolResult = false): Message => ({
  index,
  rawIndex: index,
  path: `messages.${index}`,
  role,
  blocks: toolResult
    ? [{ type: 'tool_result', toolUseId: 't', isError: false, content: [] }]
    : [{ type: 'text', text: 'x' }],
  raw: null,
});

describe('navigation', () => {
  it('steps messages and clamps at both ends', () => {
    expect(stepMessage(3, -1, 1)).toBe(0);
    expect(stepMessage(3, -1, -1)).toBe(2);
    expect(stepMessage(3, 2, 1)).toBe(2);
    expect(stepMessage(3, 0, -1)).toBe(0);
    expect(stepMessage(0, -1, 1)).toBe(-1);
  });

  it('steps exchanges by their first message', () => {
    // system | user assistant user(tool_result) assistant | user assistant
    const ms = [
      msg(0, 'system'),
      msg(1, 'user'),
      msg(2, 'assistant'),
      msg(3, 'user', true),
      msg(4, 'assistant'),
      msg(5, 'user'),
      msg(6, 'assistant'),
    ];
    const g = groupExchanges(ms);
    expect(stepExchange(g, -1, 1)).toBe(1);
    expect(stepExchange(g, 2, 1)).toBe(5);
    expect(stepExchange(g, 5, 1)).toBe(5);
    expect(stepExchange(g, 6, -1)).toBe(5);
    expect(stepExchange(g, 5, -1)).toBe(1);
    expect(stepExchange(g, 0, 1)).toBe(1);
  });

  it('finds the next item after the current one and wraps', () => {
    expect(nextInList([2, 5, 9], -1)).toBe(2);
    expect(nextInList([2, 5, 9], 5)).toBe(9);
    expect(nextInList([2, 5, 9], 9)).toBe(2);
    expect(nextInList([2, 5, 9], 2, -1)).toBe(9);
    expect(nextInList([2, 5, 9], 6, -1)).toBe(5);
    expect(nextInList([], 3)).toBe(-1);
  });
});

describe('stepExchange (binary search) equals a walk over the exchanges', () => {
  it('for any exchange starts, current message and direction (property)', () => {
    fc.assert(
      fc.property(
        fc.uniqueArray(fc.integer({ min: 0, max: 60 }), { maxLength: 12 }),
        fc.integer({ min: -1, max: 70 }),
        fc.constantFrom<1 | -1>(1, -1),
        (starts, current, dir) => {
          const firsts = [...starts].sort((a, b) => a - b);
          const g = { exchanges: firsts.map((first) => ({ first })) } as unknown as Grouping;
          let want: number;
          if (firsts.length === 0) want = current;
          else if (current < 0) want = (dir === 1 ? firsts[0] : firsts[firsts.length - 1]) ?? -1;
          else if (dir === 1) want = firsts.find((f) => f > current) ?? current;
          else want = [...firsts].reverse().find((f) => f < current) ?? current;
          expect(stepExchange(g, current, dir)).toBe(want);
        },
      ),
    );
  });
});
