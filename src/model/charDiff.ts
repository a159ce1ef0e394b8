/**
 * The character diff of a rewritten message (issue 33): its text before and after, as runs of
 * kept, removed and added characters. Myers' diff from the `diff` package (jsdiff), no size cap;
 * the page runs it in the diff worker, only when a rewritten row is opened.
 */
import { diffChars } from 'diff';

/** One run of a character diff: `same` on both sides, `del` before only, `add` after only. */
export interface CharPart {
  op: 'same' | 'del' | 'add';
  text: string;
}

/**
 * The character diff of `before` and `after`.
 * @returns runs in order; their `same` and `del` texts joined give `before`, `same` and `add`
 *   give `after`
 */
export function charDiff(before: string, after: string): CharPart[] {
  if (before === after) return before === '' ? [] : [{ op: 'same', text: before }];
  return diffChars(before, after).map((c) => ({
    op: c.added ? 'add' : c.removed ? 'del' : 'same',
    text: c.value,
  }));
}
