/**
 * Empty messages (A10): removed, except a final assistant prefill.
 */
import type { Message } from '../../types.ts';
import type { Work } from '../work.ts';

function isEmpty(m: Message): boolean {
  return m.blocks.length === 0 || m.blocks.every((b) => b.type === 'text' && b.text === '');
}

/** Empty messages (A10). The final assistant message may be empty. */
export function fixEmpty(w: Work): boolean {
  let changed = false;
  for (let i = w.msgs.length - 1; i >= 0; i--) {
    const m = w.msgs[i] as Message;
    if (m.role === 'system' || m.role === 'developer') continue;
    if (!isEmpty(m) || (i === w.msgs.length - 1 && m.role === 'assistant')) continue;
    w.remove(i);
    w.note(
      'empty_removed',
      m,
      null,
      [],
      'Removed an empty message: every message but a final assistant prefill needs content.',
    );
    changed = true;
  }
  return changed;
}
