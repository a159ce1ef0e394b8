/**
 * Calls and results differ in number (Gemini G3, Mistral).
 */
import type { Violation } from '../../validate/index.ts';
import type { Work } from '../work.ts';
import { fixMissing } from './missing.ts';
import { fixOrphan } from './orphan.ts';

/**
 * Calls and results differ in number (Gemini G3, Mistral): answer the calls named that have no
 * result next to them, and treat results named that answer no call as orphans.
 */
export function fixCountMismatch(w: Work, v: Violation): boolean {
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
