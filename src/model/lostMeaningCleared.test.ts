/**
 * Lost meaning of clearing: a tool result cleared to a placeholder (clear-tool-results) whose
 * distinctive tokens a later kept message still quotes is marked; an unquoted one is not. The
 * policy's own edits give the marks the simulator shows.
 */
import { describe, expect, it } from 'vitest';
import { prepareEviction, simulatePolicy } from './evict/policies.ts';
import { findLostMeaning } from './lostMeaning.ts';
import { assistant, call, result, transcript, user } from './testing/index.ts';
import { countTokens } from './tokens.ts';

const t = transcript('anthropic-messages', [
  user('Find the failing invoice.'), // 0
  assistant(call('toolu_1', 'search', { q: 'failing' })), // 1
  user(result('toolu_1', 'Invoice INV-7731 failed: card_declined at checkout_v2.')), // 2
  assistant(call('toolu_2', 'search', { q: 'weather' })), // 3
  user(result('toolu_2', 'It is sunny.')), // 4
  assistant('INV-7731 failed with card_declined; retry it.'), // 5
  user('Do it.'), // 6
]);

describe('findLostMeaning: cleared results', () => {
  it('marks a cleared result that a later kept message quotes, and not one nobody quotes', () => {
    const all = [0, 1, 2, 3, 4, 5, 6];
    const lm = findLostMeaning(
      t,
      all,
      [],
      [
        { index: 2, block: 0 },
        { index: 4, block: 0 },
      ],
    );
    expect(lm.marks).toEqual([
      expect.objectContaining({
        kind: 'cleared_reference',
        messageIndex: 2,
        blockIndex: 0,
        referencedBy: [5],
        tokens: expect.arrayContaining(['INV-7731', 'card_declined']),
      }),
    ]);
    expect(lm.marks[0]?.note).toContain('was cleared');
  });

  it('the marks of clear-tool-results at a budget it must clear: the quoted result', () => {
    const table = countTokens(t, 'anthropic');
    const r = simulatePolicy(
      prepareEviction(t, table, 'anthropic'),
      'clear-tool-results',
      table.total - 1,
      {
        keepToolUses: 0,
      },
    );
    expect(r.edits?.map((e) => e.index)).toEqual([2, 4]);
    const lm = findLostMeaning(t, r.kept, r.evicted, r.edits);
    expect(lm.marks.map((m) => [m.kind, m.messageIndex])).toEqual([['cleared_reference', 2]]);
  });
});
