import { describe, expect, it } from 'vitest';
import { assistant, call, result, text, transcript, user } from '../testing/index.ts';
import { countTokens } from '../tokens.ts';
import type { Message } from '../types.ts';
import { prepareEviction } from './policies.ts';
import { stepChain, stepValidation, type RewritePlan } from './rewrite.ts';

describe('stepValidation along a chain of requests (StepChain)', () => {
  const t = transcript('anthropic-messages', [
    user('go'),
    assistant(call('t1'), text('a')),
    user(result('t1')),
    assistant(text('b'), call('t2')),
    user(result('t2')),
    assistant('done'),
    user('next'),
  ]);
  const ctx = prepareEviction(t, countTokens(t, 'anthropic'), 'anthropic');
  const m = t.messages;
  /** A two-step plan whose step 1 keeps only the given blocks of messages 1 and 3 (copies). */
  const plan = (keep1: number, keep3: number): RewritePlan => {
    const one = m[1] as Message;
    const three = m[3] as Message;
    return {
      steps: [
        { edits: [], evicted: [], tokensKept: 10, marker: -1 },
        { edits: [], evicted: [], tokensKept: 5, marker: 3 },
      ],
      messages: () => [
        m[0] as Message,
        { ...one, blocks: [one.blocks[keep1]!] },
        m[2] as Message,
        { ...three, blocks: [three.blocks[keep3]!] },
        ...m.slice(4),
      ],
    };
  };

  it('each step validation equals the whole one, whether the copies it gets equal the kept ones or not', () => {
    // Message 1 keeps its call (t1 answered), then its text (t1's result an orphan), then its call
    // again: copies of one message with as many blocks, and not the same ones.
    const chain = stepChain();
    for (const [k1, k3] of [
      [0, 0],
      [1, 0],
      [0, 0],
      [0, 1],
      [1, 1],
    ] as const)
      expect(stepValidation(ctx, plan(k1, k3), 1, chain)).toEqual(
        stepValidation(ctx, plan(k1, k3), 1),
      );
    expect(stepValidation(ctx, plan(1, 0), 1).valid).toBe(false);
  });
});
