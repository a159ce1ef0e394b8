/**
 * A replayed turn or a repeated call id (A6): the replay, or the repeated calls in it, removed.
 */
import type { Message } from '../../types.ts';
import type { Violation } from '../../validate/index.ts';
import { isClientCall, sameBlocks, type Work } from '../work.ts';

/** Duplicate tool_use id: drop the replayed turn (or the repeated calls in it). */
export function fixDuplicateCall(w: Work, v: Violation): boolean {
  const id = v.ids[0];
  if (id === undefined) return false;
  const occ = w.msgs.flatMap((m, i) =>
    m.role === 'assistant' && m.blocks.some((b) => isClientCall(b, id)) ? [i] : [],
  );
  if (occ.length < 2) return false;
  const results = w.resultsFor(id);
  const answered = occ.filter((c) => {
    const [s, e] = w.run(c);
    return results.some((r) => r.message >= s && r.message < e);
  });
  let keep = answered.length > 0 ? (answered[answered.length - 1] as number) : (occ[0] as number);
  const keepMsg = w.msgs[keep] as Message;
  // A full replay right before the kept copy: keep the older object (it carries `raw`).
  const prev = occ[occ.indexOf(keep) - 1];
  if (
    prev !== undefined &&
    sameBlocks(w.msgs[prev] as Message, keepMsg) &&
    w.msgs.slice(prev + 1, keep).every((m) => m.role === 'assistant')
  )
    keep = prev;
  const kept = w.msgs[keep] as Message;
  const drop = occ.filter((c) => c !== keep).sort((a, b) => b - a);
  for (const c of drop) {
    const m = w.msgs[c] as Message;
    if (sameBlocks(m, kept)) {
      w.remove(c);
      const ids = m.blocks.flatMap((b) => (b.type === 'tool_use' && b.id ? [b.id] : []));
      w.note(
        'replayed_turn_removed',
        m,
        null,
        ids,
        `Removed a replayed copy of an assistant turn (a retry stored it twice): tool_use ids must be unique.`,
      );
    } else {
      const n = w.setBlocks(
        c,
        m.blocks.filter((b) => !isClientCall(b, id)),
      );
      w.note(
        'duplicate_call_removed',
        m,
        n,
        [id],
        `Removed a repeated tool_use ${id}; the copy next to its result stays.`,
      );
    }
  }
  return true;
}
