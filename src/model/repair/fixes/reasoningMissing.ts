/**
 * A lost reasoning item (R3, R4): the item that depended on it replayed without its server id.
 */
import type { Message } from '../../types.ts';
import type { Violation } from '../../validate/index.ts';
import type { Work } from '../work.ts';
import { dropItemId, itemRefs } from './itemIds.ts';

/** R3/R4: replay the item without its server id (content only), which the API accepts. */
export function fixReasoningMissing(w: Work, v: Violation): boolean {
  const id = v.ids[0];
  if (id === undefined) return false;
  const refs = itemRefs(w, id);
  const r = refs[0];
  if (!r) return false;
  const m = w.msgs[r.message] as Message;
  const n = dropItemId(w, r.message, id);
  w.note(
    'item_id_dropped',
    m,
    n,
    [id],
    `The reasoning item before ${id} is lost and cannot be rebuilt; the item is replayed without its server id (content only), which the API accepts. The model no longer sees that reasoning.`,
  );
  return true;
}
