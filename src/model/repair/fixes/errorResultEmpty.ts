/**
 * An error result with no content (B6): given a short text.
 */
import type { Block } from '../../types.ts';
import type { Violation } from '../../validate/index.ts';
import { isClientResult, type Work } from '../work.ts';

/** B6: an error result with no content gets a short text. */
export function fixErrorResultEmpty(w: Work, v: Violation): boolean {
  let changed = false;
  w.msgs.forEach((m, i) => {
    if (
      !m.blocks.some(
        (b) =>
          isClientResult(b) &&
          b.isError &&
          b.content.length === 0 &&
          (v.ids.length === 0 || v.ids.includes(b.toolUseId ?? '')),
      )
    )
      return;
    const blocks = m.blocks.map(
      (b): Block =>
        isClientResult(b) && b.isError && b.content.length === 0
          ? { ...b, content: [{ type: 'text', text: 'Error: the tool failed without a message.' }] }
          : b,
    );
    const n = w.setBlocks(i, blocks);
    w.note(
      'error_result_filled',
      m,
      n,
      v.ids,
      'Gave an empty error result a short message: an error result needs content.',
    );
    changed = true;
  });
  return changed;
}
