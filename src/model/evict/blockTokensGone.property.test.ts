/**
 * `blockTokensGone` (what removing a message's blocks frees, summed in one call) equals the sum
 * of `blockTokens` over the same blocks, on every path: blocks counted one by one, a reply
 * counted as a whole from its usage figure (its blocks −1: the share by weight), and a table
 * with no per-block counts at all.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  arbAnyTranscript,
  arbTranscript,
  arbValidTranscript,
  assistant,
  call,
  result,
  text,
  thinking,
  transcript,
  user,
} from '../testing/index.ts';
import { countTokens, type TokenTable } from '../tokens.ts';
import type { Block } from '../types.ts';
import { prepareEviction } from './policies.ts';
import { blockTokens, blockTokensGone } from './rewrite.ts';

const arbAny = fc.oneof(
  arbValidTranscript('anthropic-messages'),
  arbTranscript('anthropic-messages'),
  arbAnyTranscript('anthropic-messages'),
  arbAnyTranscript('openai-chat'),
);

/** The table as counted, with no per-block counts, or with some messages counted as a whole. */
function variant(table: TokenTable, kind: number, seed: number): TokenTable {
  const blocks = table.blocks;
  if (kind === 0 || !blocks) return table;
  if (kind === 1) return { ...table, blocks: undefined };
  const tokens = blocks.tokens.slice();
  for (let i = 0; i + 1 < blocks.start.length; i++)
    if ((i * 7 + seed) % 3 === 0) tokens.fill(-1, blocks.start[i], blocks.start[i + 1]);
  return { ...table, blocks: { start: blocks.start, tokens } };
}

describe('blockTokensGone', () => {
  it('equals the sum of blockTokens over the blocks that do not stay', () => {
    fc.assert(
      fc.property(
        arbAny,
        fc.nat(2),
        fc.nat(10),
        fc.array(fc.boolean(), { minLength: 64, maxLength: 64 }),
        (t, kind, seed, bits) => {
          const ctx = prepareEviction(
            t,
            variant(countTokens(t, 'anthropic'), kind, seed),
            'anthropic',
          );
          let at = 0;
          for (const m of t.messages) {
            const stays = new Uint8Array(at + m.blocks.length);
            let want = 0;
            for (let j = 0; j < m.blocks.length; j++) {
              const stay = bits[(at + j) % bits.length] === true;
              stays[at + j] = stay ? 1 : 0;
              if (!stay) want += blockTokens(ctx, m, j);
            }
            expect(blockTokensGone(ctx, m, stays, at)).toBe(want);
            at += m.blocks.length;
          }
        },
      ),
      { numRuns: 300 },
    );
  });

  it('shares a reply counted as a whole by weight, fixed tokens (an image, a document) included', () => {
    const image: Block = { type: 'image', mediaType: 'image/png', bytes: 900 };
    const doc: Block = { type: 'document', mediaType: 'application/pdf', bytes: 4000 };
    const withFiles: Block = {
      type: 'tool_result',
      toolUseId: 'A',
      content: [text('see'), image],
      isError: false,
    };
    const t = transcript('anthropic-messages', [
      user('Look.', image),
      assistant(thinking('hm'), text('Reading.'), call('A', 'read', { path: 'a.pdf' }), doc),
      user(withFiles),
      assistant(image, call('B', 'read', {}), result('A', 'late')),
      user(result('B', 'x')),
    ]);
    // Every block −1, as for replies counted from their usage figures.
    const table = countTokens(t, 'anthropic');
    const blocks = table.blocks && { ...table.blocks, tokens: table.blocks.tokens.map(() => -1) };
    const ctx = prepareEviction(t, { ...table, ...(blocks ? { blocks } : {}) }, 'anthropic');
    let at = 0;
    for (const m of t.messages) {
      for (let mask = 0; mask < 1 << m.blocks.length; mask++) {
        const stays = new Uint8Array(at + m.blocks.length);
        let want = 0;
        for (let j = 0; j < m.blocks.length; j++)
          if ((mask >> j) & 1) stays[at + j] = 1;
          else want += blockTokens(ctx, m, j);
        expect(blockTokensGone(ctx, m, stays, at)).toBe(want);
      }
      at += m.blocks.length;
    }
  });
});
