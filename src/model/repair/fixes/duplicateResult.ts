/**
 * Duplicate results (A6b, O6): collapsed to the one next to the call.
 */
import type { Violation } from '../../validate/index.ts';
import { removeResults, type Ref, type Work } from '../work.ts';

/** The same result twice: keep the one next to the call. */
export function fixDuplicateResult(w: Work, v: Violation): boolean {
  const id = v.ids[0];
  if (id === undefined) return false;
  const c = w.callMessage(id);
  const results = w.resultsFor(id);
  if (results.length < 2) return false;
  let keep = results[0] as Ref;
  if (c >= 0) {
    const [start, end] = w.run(c);
    keep =
      results.find((r) => r.message >= start && r.message < end) ??
      results.find((r) => r.message > c) ??
      keep;
  }
  return removeResults(
    w,
    results.filter((r) => r !== keep),
    id,
    'duplicate_result_removed',
    `Collapsed duplicate results for ${id}: one result per call, the one right after the call stays.`,
  );
}
