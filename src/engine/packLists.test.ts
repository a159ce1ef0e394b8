import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Exchange } from '../model/exchanges.ts';
import { PAIR_STATUSES, type BlockRef, type PairStatus, type ToolPair } from '../model/pairing.ts';
import type { UsageRecord } from '../model/types.ts';
import { packedListBuffers, packLists, unpackLists } from './packLists.ts';

const ref: fc.Arbitrary<BlockRef | null> = fc.option(
  fc.record({ message: fc.nat(), block: fc.nat() }, { noNullPrototype: true }),
  { nil: null },
);

const pair: fc.Arbitrary<ToolPair> = fc.record(
  {
    key: fc.string(),
    id: fc.option(fc.string(), { nil: null }),
    name: fc.string(),
    call: ref,
    result: ref,
    status: fc.constantFrom<PairStatus>(...PAIR_STATUSES),
    partial: fc.boolean(),
    server: fc.boolean(),
  },
  { noNullPrototype: true },
);

const exchange: fc.Arbitrary<Exchange> = fc.record(
  {
    index: fc.nat(),
    key: fc.string(),
    messages: fc.array(fc.nat(), { maxLength: 6 }),
    first: fc.nat(),
    last: fc.nat(),
    leading: fc.boolean(),
  },
  { noNullPrototype: true },
);

// Token counts as logs give them: whole, large, fractional or not finite.
const tokens = fc.oneof(fc.nat(), fc.double());
const usage: fc.Arbitrary<UsageRecord> = fc.record(
  {
    messageIndex: fc.nat(),
    inputTokens: tokens,
    outputTokens: tokens,
    cacheReadTokens: tokens,
    cacheWriteTokens: tokens,
    reasoningTokens: tokens,
  },
  { requiredKeys: [], noNullPrototype: true },
);

describe('packLists (issue 20: lists in columns)', () => {
  it('pack → structured clone → unpack is the identity', () => {
    fc.assert(
      fc.property(
        fc.array(pair, { maxLength: 8 }),
        fc.array(exchange, { maxLength: 8 }),
        fc.array(usage, { maxLength: 8 }),
        (pairs, exchanges, usages) => {
          const packed = packLists(pairs, exchanges, usages);
          const back = unpackLists(structuredClone(packed));
          expect(back).toStrictEqual({ pairs, exchanges, usage: usages });
        },
      ),
    );
  });

  it('names every typed array for the transfer list', () => {
    const p = packLists([], [], []);
    expect(packedListBuffers(p)).toHaveLength(11);
    expect(new Set(packedListBuffers(p)).size).toBe(11);
  });
});
