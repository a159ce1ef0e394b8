/**
 * The verdict the page shows, with the context window judged by the best count it has: the
 * analysis (worker or page) judged the window by the text's bounds; when an exact token table
 * arrives later (the worker's BPE count, or the page's once its counter loads), the window is
 * judged again by it (`rejudgeWindow`), and the verdict says when that changed it.
 */
import type { Analysis } from '../model/analyze.ts';
import type { TokenTable } from '../model/tokens.ts';
import { rejudgeWindow } from '../model/validate/contextWindow.ts';
import type { Validation } from '../model/validate/index.ts';
import { memoN } from './session/index.ts';

/** The analysis to show, and a note when the count that arrived changed the first verdict. */
export interface WindowVerdict {
  /** The analysis itself when the count changes nothing, else a copy with the new validation. */
  analysis: Analysis;
  /** Set when the exact count changed the first answer's verdict: what changed and why. */
  updated: string | null;
}

/**
 * The analysis with its validation judged by `tokens` when they are a BPE count (not chars/4);
 * memoised per analysis and table (the page's selectors of the analysis then run once per count).
 */
export const selectWindowVerdict = memoN((a: Analysis, tokens: TokenTable): WindowVerdict => {
  if (tokens.basis.encoding === 'chars/4') return { analysis: a, updated: null };
  const count = { tokens: tokens.total, exact: tokens.basis.exact, label: tokens.basis.label };
  const { validation, changed } = rejudgeWindow(a.validation, a.transcript, count);
  if (!changed)
    return same(validation, a.validation)
      ? { analysis: a, updated: null }
      : { analysis: { ...a, validation }, updated: null };
  const n = tokens.total.toLocaleString('en-US');
  const updated = `Verdict updated: the token count (${tokens.basis.exact ? '' : '≈ '}${n} tokens, ${tokens.basis.label}) arrived after the first answer, which judged the context window by the text's length alone.`;
  return {
    analysis: { ...a, validation: { ...validation, notes: [updated, ...validation.notes] } },
    updated,
  };
});

/** The same findings and notes (the window judged alike, and no note of it dropped). */
function same(x: Validation, y: Validation): boolean {
  return (
    x.valid === y.valid &&
    x.violations.length === y.violations.length &&
    x.notes.length === y.notes.length &&
    x.violations.every((v, i) => v === y.violations[i]) &&
    x.notes.every((n, i) => n === y.notes[i])
  );
}
