/**
 * Empty or whitespace-only text blocks (A11, B12): removed.
 */
import type { Message } from '../../types.ts';
import type { Work } from '../work.ts';

/** Empty or whitespace-only text blocks (A11, B12). */
export function fixEmptyText(w: Work): boolean {
  let changed = false;
  for (let i = w.msgs.length - 1; i >= 0; i--) {
    const m = w.msgs[i] as Message;
    if (m.role === 'system' || m.role === 'developer') continue;
    // Content sent as the empty string is an empty message (A10, B11), removed by fixEmpty; a
    // whitespace-only string is a blank text block (A11, B12): removed here.
    const only = m.blocks[0];
    if (m.stringContent && m.blocks.length === 1 && only?.type === 'text' && only.text === '')
      continue;
    const blocks = m.blocks.filter((b) => !(b.type === 'text' && b.text.trim() === ''));
    if (blocks.length === m.blocks.length) continue;
    const n = w.setBlocks(i, blocks);
    w.note('empty_removed', m, n, [], 'Removed empty or whitespace-only text blocks.');
    changed = true;
  }
  return changed;
}
