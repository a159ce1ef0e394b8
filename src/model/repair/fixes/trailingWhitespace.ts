/**
 * A prefill that ends in whitespace (A12): its trailing whitespace trimmed.
 */
import type { Message } from '../../types.ts';
import type { Violation } from '../../validate/index.ts';
import type { Work } from '../work.ts';

/** A12 whitespace variant: trim the prefill's trailing whitespace. */
export function fixTrailingWhitespace(w: Work, v: Violation): boolean {
  if (!/trailing whitespace/.test(v.message)) return false;
  for (let i = w.msgs.length - 1; i >= 0; i--) {
    const m = w.msgs[i] as Message;
    if (m.role === 'system' || m.role === 'developer') continue;
    if (m.role !== 'assistant') return false;
    const k = m.blocks.map((b) => b.type).lastIndexOf('text');
    const b = m.blocks[k];
    if (!b || b.type !== 'text' || !/\s$/.test(b.text)) return false;
    const n = w.setBlocks(
      i,
      m.blocks.map((x, j) => (j === k && x.type === 'text' ? { ...x, text: x.text.trimEnd() } : x)),
    );
    w.note(
      'whitespace_trimmed',
      m,
      n,
      [],
      'Trimmed trailing whitespace from the final assistant text (a prefill must not end in whitespace).',
    );
    return true;
  }
  return false;
}
