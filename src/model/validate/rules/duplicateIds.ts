/**
 * Ids repeated among the blocks of one turn, written once: two tool calls with one id in an
 * assistant turn, two results naming one call in a user turn (Bedrock B8/B9; Anthropic's
 * request-wide A6 and per-turn A6b keep their own scans, which also place the repeat).
 */
import type { Block } from '../../types.ts';
import { blocksOf, idOf, type TurnBlock } from './pairing.ts';
import type { Turns } from './turns.ts';

/** The ids that stand more than once among turn `n`'s blocks that pass `keep`. */
export interface RepeatedIds {
  /** Each repeated id once, in the order of its first repeat. */
  ids: string[];
  /** The first block that repeats an id. */
  at: TurnBlock;
}

/**
 * Find repeated ids in one turn.
 * @param keep which blocks count (client calls, or client results)
 * @returns null when every id stands once (blocks without an id are ignored)
 */
export function repeatedIdsIn(
  T: Turns,
  n: number,
  keep: (b: Block) => boolean,
): RepeatedIds | null {
  const list = blocksOf(T, n, keep);
  if (list.length < 2) return null;
  const seen = new Set<string>();
  const ids: string[] = [];
  let at: TurnBlock | null = null;
  for (const it of list) {
    const id = idOf(it.block);
    if (id === null) continue;
    if (!seen.has(id)) seen.add(id);
    else if (!ids.includes(id)) {
      ids.push(id);
      at ??= it;
    }
  }
  return at === null ? null : { ids, at };
}
