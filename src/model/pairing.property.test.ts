import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { pairToolCalls } from './pairing.ts';
import { referencePairToolCalls } from './testing/pairing.reference.ts';
import {
  arbAnyTranscript,
  arbBlock,
  arbTranscript,
  assistant,
  call,
  msg,
  result,
} from './testing/index.ts';
import { transcript, user } from './testing/index.ts';
import type { Message, Role } from './types.ts';

/**
 * The batch scan and the lazily built id → call Map must give exactly the pairs of the plain
 * one-Map pairing, whatever the transcript: duplicates, late answers, orphans, results before
 * their calls, id-less calls, server tools, Responses-style call-only messages.
 */
describe('pairToolCalls agrees with the one-Map reference', () => {
  it('on any transcript (random roles and blocks from a small id pool)', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          arbAnyTranscript('anthropic-messages', 30),
          arbAnyTranscript('openai-chat', 30),
          arbTranscript('anthropic-messages'),
        ),
        (t) => {
          expect(pairToolCalls(t.messages)).toEqual(referencePairToolCalls(t.messages));
        },
      ),
      { numRuns: 1500 },
    );
  });

  it('on batches larger than the scanned window, answered in any order and late', () => {
    const arbBigBatch = fc
      .tuple(
        fc.integer({ min: 1, max: 150 }),
        fc.array(fc.nat(149), { maxLength: 200 }),
        fc.array(fc.tuple(fc.constantFrom<Role>('user', 'assistant', 'tool'), fc.array(arbBlock)), {
          maxLength: 4,
        }),
      )
      .map(([n, answers, noise]): Message[] => {
        const ids = Array.from({ length: n }, (_, i) => `c${i}`);
        return transcript('anthropic-messages', [
          user('go'),
          assistant(...ids.map((id) => call(id))),
          user(...answers.slice(0, 100).map((k) => result(`c${k % (n + 3)}`))),
          ...noise.map(([role, blocks]) => msg(role, blocks)),
          user(...answers.slice(100).map((k) => result(`c${k % (n + 3)}`))),
          assistant(call('c0'), call(`c${n}`)),
          user(result(`c${n}`), result('c0')),
        ]).messages;
      });
    fc.assert(
      fc.property(arbBigBatch, (ms) => {
        expect(pairToolCalls(ms)).toEqual(referencePairToolCalls(ms));
      }),
      { numRuns: 400 },
    );
  });
});
