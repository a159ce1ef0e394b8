/**
 * Orphan and wrong-id results (A1, O1, O3, GW1): re-attached where the call is, else removed —
 * with the leading partial exchange they sit in when a trim cut its start.
 */
import { groupExchanges } from '../../exchanges.ts';
import type { Message } from '../../types.ts';
import type { Violation } from '../../validate/index.ts';
import { isClientResult, removeResults, type Ref, type Work } from '../work.ts';
import { fixMissing } from './missing.ts';
import { fixStrayToolContent } from './strayToolContent.ts';

/** Orphan or wrong-id result: re-attach where its call is, else remove it (or its leading exchange). */
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
  const { exchanges, exchangeOf } = groupExchanges(w.msgs);
  const r0 = results[0] as Ref;
  const x = exchanges[exchangeOf[r0.message] ?? -1];
  if (x && x.leading && exchanges.length > 1) {
    const gone = x.messages.map((i) => w.msgs[i] as Message);
    const ids = gone.flatMap((m) =>
      m.blocks.flatMap((b) =>
        b.type === 'tool_use' && b.id
          ? [b.id]
          : isClientResult(b) && b.toolUseId
            ? [b.toolUseId]
            : [],
      ),
    );
    w.removeExchange(
      gone,
      [...new Set(ids)],
      `Removed the ${gone.length} message${gone.length === 1 ? '' : 's'} left of an exchange whose start was cut: the result for ${id} answers a call that is gone, and the exchange is the unit to drop.`,
    );
    return true;
  }
  return removeResults(
    w,
    results,
    id,
    'orphan_removed',
    `Removed the result for ${id}: its call is no longer in the transcript.`,
  );
}
