/**
 * Responses item ids (`meta.sourceId`, a block's `itemId`): where an id sits, and a message
 * without it. Used by the R3–R6 fixes.
 */
import type { Block, Message } from '../../types.ts';
import type { Work } from '../work.ts';

/** Messages (and block) carrying a Responses item id: `meta.sourceId` or a block's `itemId`. */
export function itemRefs(w: Work, itemId: string): { message: number; block: number | null }[] {
  const out: { message: number; block: number | null }[] = [];
  w.msgs.forEach((m, i) => {
    if (m.meta?.sourceId === itemId) out.push({ message: i, block: null });
    m.blocks.forEach((b, k) => {
      if ((b.type === 'tool_use' || b.type === 'redacted_thinking') && b.itemId === itemId)
        out.push({ message: i, block: k });
    });
  });
  return out;
}

/** Replace message `i` by a copy without the item id `itemId` (meta and blocks). */
export function dropItemId(w: Work, i: number, itemId: string): Message | null {
  const m = w.msgs[i] as Message;
  const blocks = m.blocks.map((b): Block => {
    if ((b.type === 'tool_use' || b.type === 'redacted_thinking') && b.itemId === itemId) {
      const rest: Block = { ...b };
      delete (rest as { itemId?: string }).itemId;
      return rest;
    }
    return b;
  });
  const n = w.setBlocks(i, blocks);
  if (n && n.meta?.sourceId === itemId) {
    const meta = { ...n.meta };
    delete meta.sourceId;
    if (Object.keys(meta).length > 0) n.meta = meta;
    else delete n.meta;
  }
  return n;
}
