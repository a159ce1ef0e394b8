/**
 * Ids repeated among the blocks of one turn, written once: two tool calls with one id in an
 * assistant turn, two results naming one call in a user turn (Bedrock B8/B9; Anthropic's
 * request-wide A6 and per-turn A6b keep their own scans, which also place the repeat).
 */
import type { Block, Message } from '../../types.ts';
import { idOf, type TurnBlock } from './pairing.ts';
import type { Turns } from './turns.ts';

/** The ids that stand more than once among turn `n`'s blocks that pass `keep`. */
export interface RepeatedIds {
  /** Each repeated id once, in the order of its first repeat. */
  ids: string[];
  /** The first block that repeats an id. */
  at: TurnBlock;
}

/**
 * Find repeated ids in one turn. Allocates nothing for a turn with fewer than two such blocks
 * (most turns): this runs on every turn of every Bedrock check.
 * @param keep which blocks count (client calls, or client results)
 * @returns null when every id stands once (blocks without an id are ignored)
 */
export function repeatedIdsIn(
  T: Turns,
  n: number,
  keep: (b: Block) => boolean,
): RepeatedIds | null {
  let seen: Set<string> | null = null;
  let first: string | null = null;
  let ids: string[] | null = null;
  let at: TurnBlock | null = null;
  let pos = 0;
  for (let s = T.start[n] as number; s < (T.start[n + 1] as number); s++) {
    const msg = T.msgs[s] as Message;
    for (let bi = 0; bi < msg.blocks.length; bi++, pos++) {
      const block = msg.blocks[bi] as Block;
      const id = keep(block) ? idOf(block) : null;
      if (id === null) continue;
      if (first === null) {
        first = id;
        continue;
      }
      seen ??= new Set([first]);
      if (!seen.has(id)) seen.add(id);
      else if (!(ids ??= []).includes(id)) {
        ids.push(id);
        at ??= { block, msg, blockIndex: bi, pos };
      }
    }
  }
  return at === null || ids === null ? null : { ids, at };
}
