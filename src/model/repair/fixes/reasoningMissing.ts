/**
 * A lost reasoning item (R3, R4): the item that depended on it replayed without its server id.
 * DeepSeek's lost `reasoning_content` (D4): an empty one, which the API takes.
 */
import type { Message } from '../../types.ts';
import type { Violation } from '../../validate/index.ts';
import type { Work } from '../work.ts';
import { dropItemId, itemRefs } from './itemIds.ts';

/** R3/R4: replay the item without its server id (content only), which the API accepts. */
export function fixReasoningMissing(w: Work, v: Violation): boolean {
  if (v.code === 'D4') return emptyReasoning(w, v);
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

/** D4: the assistant message gets an empty `reasoning_content` (its reasoning is lost). */
function emptyReasoning(w: Work, v: Violation): boolean {
  const m = w.causeOf(v);
  const i = m ? w.msgs.indexOf(m) : -1;
  if (!m || i < 0 || m.role !== 'assistant') return false;
  if (m.meta?.reasoning !== undefined || m.blocks.length === 0) return false;
  const n = w.setBlocks(i, [...m.blocks]);
  if (!n) return false;
  n.meta = { ...n.meta, reasoning: '' };
  w.note(
    'reasoning_emptied',
    m,
    n,
    [],
    'The reasoning_content of this turn is lost and cannot be rebuilt; it is sent empty, which DeepSeek takes. The model no longer sees that reasoning.',
  );
  return true;
}
