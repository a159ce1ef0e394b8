import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { analyze } from './analyze.ts';
import type { ToolPair } from './pairing.ts';
import {
  blockPairTable,
  indexPairs,
  isArcPair,
  laneTable,
  pairTableBuffers,
  pairTables,
} from './pairTables.ts';
import { arbTranscript, pairsByBlockReference } from './testing/index.ts';
import { referenceIndexPairs, referenceLaneTable } from './testing/pairTables.reference.ts';

const arbAny = fc.oneof(arbTranscript('anthropic-messages'), arbTranscript('openai-chat'));

describe('pair tables (issue 7)', () => {
  it('list each block’s pairs as the old message:block Map did (property)', () => {
    fc.assert(
      fc.property(arbAny, (t) => {
        const { pairs } = analyze(t);
        const want = pairsByBlockReference(pairs);
        const { blockStart, pairStart, pairIdx } = blockPairTable(t.messages, pairs);
        let listed = 0;
        t.messages.forEach((m, mi) =>
          m.blocks.forEach((_, bi) => {
            const b = (blockStart[mi] as number) + bi;
            const got = Array.from(
              pairIdx.subarray(pairStart[b], pairStart[b + 1]),
              (k) => pairs[k],
            );
            const w = want.get(`${mi}:${bi}`) ?? [];
            expect(got).toEqual(w);
            if (w.length > 0) listed++;
          }),
        );
        expect(listed).toBe(want.size);
      }),
    );
  });

  it('build the arc tables over the drawn pairs and survive a transfer (property)', () => {
    fc.assert(
      fc.property(arbAny, (t) => {
        const { pairs } = analyze(t);
        const arcs = pairs.filter(isArcPair);
        const tables = pairTables(t.messages, pairs);
        const buffers = pairTableBuffers(tables);
        expect(new Set(buffers).size).toBe(buffers.length);
        const want = { lanes: laneTable(arcs), index: indexPairs(arcs) };
        const moved = structuredClone(tables, { transfer: buffers });
        expect(moved.arcLanes).toEqual(want.lanes);
        expect(moved.arcIndex).toEqual(want.index);
        expect(moved.blocks).toEqual(blockPairTable(t.messages, pairs));
      }),
    );
  });

  it('arc lanes and index equal the comparator-sorted reference, packed sort or not (property)', () => {
    // Ends near 0 and near 2^40: spans too spread to pack into one safe integer take the comparator.
    const end = fc.option(
      fc.oneof(fc.integer({ min: 0, max: 40 }), fc.integer({ min: 2 ** 40, max: 2 ** 40 + 40 })),
      { nil: null },
    );
    const near = fc.option(fc.integer({ min: 0, max: 200 }), { nil: null });
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.oneof(end, near), fc.oneof(end, near)), { maxLength: 60 }),
        (spec) => {
          const pairs = spec.map(
            ([c, r], k): ToolPair => ({
              key: `p${k}`,
              id: `t${k}`,
              name: 'f',
              call: c === null ? null : { message: c, block: 0 },
              result: r === null ? null : { message: r, block: 1 },
              status: 'answered',
              partial: false,
              server: false,
            }),
          );
          expect(laneTable(pairs)).toEqual(referenceLaneTable(pairs));
          expect(indexPairs(pairs)).toEqual(referenceIndexPairs(pairs));
        },
      ),
      { numRuns: 300 },
    );
    // And on transcripts, as the worker builds them.
    fc.assert(
      fc.property(arbAny, (t) => {
        const arcs = analyze(t).pairs.filter(isArcPair);
        expect(laneTable(arcs)).toEqual(referenceLaneTable(arcs));
        expect(indexPairs(arcs)).toEqual(referenceIndexPairs(arcs));
      }),
    );
  });

  it('an end naming no block is left out, never thrown', () => {
    const p: ToolPair = {
      key: 'p0',
      id: 'x',
      name: 'f',
      call: { message: 5, block: 0 },
      result: { message: 0, block: 9 },
      status: 'answered',
      partial: false,
      server: false,
    };
    const t = blockPairTable([], [p]);
    expect(Array.from(t.blockStart)).toEqual([0]);
    expect(t.pairIdx).toHaveLength(0);
  });
});
