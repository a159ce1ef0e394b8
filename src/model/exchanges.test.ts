import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { countExchanges, groupExchanges, turnPairs } from './exchanges.ts';
import { assistant, call, result, system, tool, transcript, user } from './testing/index.ts';
import { arbAnyTranscript } from './testing/index.ts';

describe('groupExchanges', () => {
  it('a user message that is not a tool result starts an exchange; system is pinned', () => {
    const t = transcript('openai-chat', [
      system('s'),
      user('q1'),
      assistant(call('a')),
      tool('a'),
      assistant('x'),
      user('q2'),
      assistant('y'),
    ]);
    const g = groupExchanges(t.messages);
    expect(g.exchanges.map((x) => [x.key, x.messages, x.leading])).toEqual([
      ['x0', [1, 2, 3, 4], false],
      ['x1', [5, 6], false],
    ]);
    expect(Array.from(g.exchangeOf)).toEqual([-1, 0, 0, 0, 0, 1, 1]);
  });

  it('Anthropic tool_result user messages stay inside the exchange', () => {
    const t = transcript('anthropic-messages', [
      user('q'),
      assistant(call('a')),
      user(result('a')),
      assistant('done'),
    ]);
    expect(groupExchanges(t.messages).exchanges).toHaveLength(1);
  });

  it('messages before the first user message form a leading group', () => {
    const t = transcript('openai-chat', [tool('a'), assistant('x'), user('q'), assistant('y')]);
    const g = groupExchanges(t.messages);
    expect(g.exchanges.map((x) => [x.messages, x.leading])).toEqual([
      [[0, 1], true],
      [[2, 3], false],
    ]);
  });

  it('turn pairs: an assistant message and the user/tool messages after it', () => {
    const t = transcript('openai-chat', [
      user('q'),
      assistant(call('a')),
      tool('a'),
      assistant('x'),
      user('more'),
    ]);
    expect(turnPairs(t.messages)).toEqual([
      { assistant: 1, replies: [2] },
      { assistant: 3, replies: [4] },
    ]);
  });
});

describe('countExchanges', () => {
  it('counts the exchanges groupExchanges makes, on any transcript (pinned messages too)', () => {
    const pinned = transcript('anthropic-messages', [system('rules'), user('hi'), assistant('yo')]);
    expect(countExchanges(pinned.messages)).toBe(groupExchanges(pinned.messages).exchanges.length);
    expect(countExchanges([])).toBe(0);
    fc.assert(
      fc.property(
        fc.oneof(arbAnyTranscript('anthropic-messages', 30), arbAnyTranscript('openai-chat', 30)),
        (t) => {
          expect(countExchanges(t.messages)).toBe(groupExchanges(t.messages).exchanges.length);
        },
      ),
      { numRuns: 300 },
    );
  });
});
