/**
 * Orphan and wrong-id results (A1, O1, O3, GW1): re-attached where the call is, else removed —
 * the result block alone (a Chat `tool` message is its result, so that message), never the text
 * or the replies around it: they are not part of the violation. When what is left still breaks a
 * rule (a history that now starts with the model's turn, G2, B3), that rule's own fix answers it
 * and says so in its change.
 */
import type { Violation } from '../../validate/index.ts';
import { removeResults, type Work } from '../work.ts';
import { fixMissing } from './missing.ts';
import { fixStrayToolContent } from './strayToolContent.ts';

/** Orphan or wrong-id result: re-attach where its call is, else remove the result alone. */
export function fixOrphan(w: Work, v: Violation): boolean {
  const id = v.ids[0];
  if (id === undefined) return fixStrayToolContent(w);
  const c = w.callMessage(id);
  const results = w.resultsFor(id);
  if (c >= 0) {
    const [start, end] = w.run(c);
    const proper = results.filter((r) => r.message >= start && r.message < end);
    const improper = results.filter((r) => !(r.message >= start && r.message < end));
    if (improper.length === 0) return false;
    if (proper.length > 0)
      return removeResults(
        w,
        improper,
        id,
        'duplicate_result_removed',
        `Removed a second result for ${id}; the one right after the call stays.`,
      );
    return fixMissing(w, { ...v, ids: [id] });
  }
  if (results.length === 0) return false;
  return removeResults(
    w,
    results,
    id,
    'orphan_removed',
    `Removed the result for ${id}: its call is no longer in the transcript.`,
  );
}
