/**
 * An item sent twice (R6): the replayed copy removed, or the later one sent without its id.
 */
import type { Message } from '../../types.ts';
import type { Violation } from '../../validate/index.ts';
import { sameBlocks, type Work } from '../work.ts';
import { dropItemId, itemRefs } from './itemIds.ts';

/** R6: an item sent twice: remove the replayed copy, or the id of the later one. */
export function fixDuplicateItem(w: Work, v: Violation): boolean {
  const id = v.ids[0];
  if (id === undefined) return false;
  const refs = itemRefs(w, id);
  const first = refs[0];
  const later = refs.slice(1).filter((r) => r.message !== first?.message);
  if (!first || later.length === 0) return false;
  const keep = w.msgs[first.message] as Message;
  for (const r of [...later].sort((a, b) => b.message - a.message)) {
    const m = w.msgs[r.message] as Message;
    if (sameBlocks(m, keep)) {
      w.remove(r.message);
      w.note(
        'replayed_turn_removed',
        m,
        null,
        [id],
        `Removed a second copy of item ${id}: item ids must be unique in a request.`,
      );
    } else {
      const n = dropItemId(w, r.message, id);
      w.note(
        'item_id_dropped',
        m,
        n,
        [id],
        `Sent the later item with id ${id} without its id: item ids must be unique in a request.`,
      );
    }
  }
  return true;
}
