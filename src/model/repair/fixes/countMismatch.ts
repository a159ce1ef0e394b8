/**
 * Calls and results differ in number (Gemini G3, Mistral).
 */
import type { Violation } from '../../validate/index.ts';
import type { Work } from '../work.ts';
import { callBefore, matchByCount } from './countMatch.ts';
import { fixMissing } from './missing.ts';
import { fixOrphan, removeEach } from './orphan.ts';

/**
 * Calls and results differ in number (Gemini G3, Mistral): answer the calls named that have no
 * result next to them, and treat results named that answer no call as orphans. Naming no ids
 * (Gemini calls and results without ids), the results that stand for no call of the turn before
 * (`matchByCount`) are removed, as orphans are.
 */
export function fixCountMismatch(w: Work, v: Violation): boolean {
  if (v.ids.length === 0) return removeExtra(w, v);
  const missing: string[] = [];
  let changed = false;
  for (const id of v.ids) {
    const c = w.callMessage(id);
    if (c < 0) {
      changed = fixOrphan(w, { ...v, ids: [id] }) || changed;
      continue;
    }
    const [start, end] = w.run(c);
    if (!w.resultsFor(id).some((r) => r.message >= start && r.message < end)) missing.push(id);
  }
  if (missing.length > 0) changed = fixMissing(w, { ...v, ids: missing }) || changed;
  return changed;
}

/** More results than calls, none with an id: remove the results that stand for no call. */
function removeExtra(w: Work, v: Violation): boolean {
  const cause = w.causeOf(v);
  const c = cause ? callBefore(w, w.msgs.indexOf(cause)) : -1;
  if (c < 0) return false;
  return removeEach(
    w,
    matchByCount(w, c).extra,
    (name) =>
      `Removed a result of ${name} (it carries no id): the call turn before it has no call left for it to answer.`,
  );
}
