/**
 * Orphan and wrong-id results (A1, B1, G1, O1, O3, GW1): re-attached where the call is, else
 * removed — the result block alone (a Chat `tool` message is its result, so that message), never
 * the text or the replies around it: they are not part of the violation. A result without an id
 * (Gemini before 3, a Chat `tool` message without `tool_call_id`) has no call to look up: it is
 * removed (the fix of its call, when the call is still open, re-attaches it by name first). When
 * what is left still breaks a rule (a history that now starts with the model's turn, G2, B3),
 * that rule's own fix answers it and says so in its change.
 */
import type { Violation } from '../../validate/index.ts';
import type { Message } from '../../types.ts';
import { isClientResult, removeResults, type Ref, type Work } from '../work.ts';
import { fixMissing } from './missing.ts';
import { fixStrayToolContent } from './strayToolContent.ts';

/** Orphan or wrong-id result: re-attach where its call is, else remove the result alone. */
export function fixOrphan(w: Work, v: Violation): boolean {
  const id = v.ids[0];
  if (id === undefined) return fixStrayToolContent(w) || removeUnnamed(w, v);
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

/**
 * The results without an id in the message that holds an orphan violation naming no id (G1
 * counts turns, not ids: the turn before calls nothing; O1: a `tool` message outside any run):
 * remove them, noting one change each.
 * @returns true when anything was removed
 */
export function removeUnnamed(w: Work, v: Violation): boolean {
  const cause = w.causeOf(v);
  const i = cause ? w.msgs.indexOf(cause) : -1;
  if (i < 0) return false;
  const refs: Ref[] = [];
  (w.msgs[i] as Message).blocks.forEach((b, block) => {
    if (isClientResult(b) && b.toolUseId === null) refs.push({ message: i, block });
  });
  return removeEach(
    w,
    refs,
    (name) =>
      `Removed the result of ${name} (it carries no id): no call comes right before it for it to answer.`,
  );
}

/**
 * Remove result blocks without an id (from the last, so earlier refs stay valid), noting one
 * 'orphan_removed' change each, worded by `note` from the result's name.
 * @returns true when anything was removed
 */
export function removeEach(w: Work, refs: readonly Ref[], note: (name: string) => string): boolean {
  const sorted = [...refs].sort((a, b) => b.message - a.message || b.block - a.block);
  for (const r of sorted) {
    const m = w.msgs[r.message] as Message;
    const b = m.blocks[r.block];
    const name = (b?.type === 'tool_result' && b.name) || 'a tool';
    const before = w.msgs.length;
    w.takeBlock(r);
    const target = w.msgs.length < before ? null : (w.msgs[r.message] as Message);
    w.note('orphan_removed', m, target, [], note(name));
  }
  return sorted.length > 0;
}
