/**
 * A reasoning item whose output item is gone (R5): removed.
 */
import type { Message } from '../../types.ts';
import type { Violation } from '../../validate/index.ts';
import type { Work } from '../work.ts';
import { itemRefs } from './itemIds.ts';

/** R5: a reasoning item whose output item is gone cannot be sent alone: remove it. */
export function fixReasoningAlone(w: Work, v: Violation): boolean {
  const id = v.ids[0];
  if (id === undefined) return false;
  const r = itemRefs(w, id).find(
    (x) =>
      x.block !== null &&
      (w.msgs[x.message] as Message).blocks[x.block]?.type === 'redacted_thinking',
  );
  if (!r || r.block === null) return false;
  const m = w.msgs[r.message] as Message;
  const n = w.setBlocks(
    r.message,
    m.blocks.filter((_, k) => k !== r.block),
  );
  w.note(
    'reasoning_removed',
    m,
    n,
    [id],
    `Removed reasoning item ${id}: the output item it led to is gone, and a reasoning item cannot be sent without it.`,
  );
  return true;
}
