/**
 * Unanswered, partial, trailing and text-first calls (A2, A3, O2, B2, G3, …): every call the
 * provider reports missing gets its answer (Gemini calls without ids: by count).
 */
import type { Message, ToolResultBlock } from '../../types.ts';
import { apiOf, type RuleId, type Violation } from '../../validate/index.ts';
import { isClientCall, isClientResult, sameBlocks, type Ref, type Work } from '../work.ts';
import { callBefore, matchByCount } from './countMatch.ts';

/** Short cause text for a synthetic error result, by the shape around the call. */
function causeText(rule: RuleId, next: Message | undefined): string {
  if (!next)
    return 'Error: no result was recorded. The loop stopped (or the history was cut) before this tool call returned.';
  if (rule === 'partial_answer')
    return 'Error: no result was recorded for this call while its parallel siblings returned (it timed out or raised).';
  if (next.role === 'user' && !next.blocks.some(isClientResult))
    return "Error: the tool call was interrupted before it returned; the user's next message came first.";
  return 'Error: the tool did not return a result (it raised, or the loop never stored its output).';
}

/**
 * The result is in the answering message but behind other content (A3): move that content after
 * the results. @returns true when it moved anything
 */
function resultsFirst(w: Work, start: number, inFirst: Ref): boolean {
  const firstAnswer = w.msgs[start] as Message;
  const lead = firstAnswer.blocks.findIndex((b) => !isClientResult(b));
  if (lead < 0 || inFirst.block <= lead) return false;
  const others = firstAnswer.blocks.filter((b) => !isClientResult(b));
  const n = w.setBlocks(start, [...firstAnswer.blocks.filter(isClientResult), ...others]);
  w.note(
    'text_moved',
    firstAnswer,
    n,
    firstAnswer.blocks.filter(isClientResult).map((b) => b.toolUseId ?? ''),
    `Moved ${others.length} block${others.length === 1 ? '' : 's'} after the tool results: results must come first in the message that answers the calls.`,
  );
  return true;
}

/** A real result elsewhere: move it next to its call (merged with its siblings, or re-attached). */
function moveResultHere(w: Work, id: string, c: number, end: number, away: Ref): void {
  const from = w.msgs[away.message] as Message;
  const merged = away.message > c && away.message <= end;
  const block = w.takeBlock(away) as ToolResultBlock;
  const target = w.placeResults(w.callMessage(id), [block]);
  if (merged)
    w.note(
      'results_merged',
      from,
      target,
      [id],
      `Moved the result for ${id} into the message that answers its parallel siblings: the results of one turn belong together, first in that message.`,
    );
  else
    w.note(
      'result_reattached',
      from,
      target,
      [id],
      `Re-attached the result for ${id} right after its call; it sat ${away.message < c ? 'before the call' : 'further down'}.`,
    );
}

/**
 * No result anywhere: add an error result naming the cause, with the call's name (Gemini's
 * functionResponse must name its call) and its id, or none when the call has none.
 */
function addErrorResult(w: Work, id: string | null, c: number, text: string, name: string): void {
  const call = w.msgs[c] as Message;
  const block: ToolResultBlock = {
    type: 'tool_result',
    toolUseId: id,
    isError: true,
    content: [{ type: 'text', text }],
    name,
  };
  const target = w.placeResults(c, [block]);
  const what = id ?? `${name || 'a tool'} (a call without an id)`;
  w.note(
    'error_result_added',
    call,
    target,
    id !== null ? [id] : [],
    `Added an error result for ${what}: ${text.replace(/^Error: /, '')}`,
  );
}

/**
 * Move the orphan result at `away` (no id, named `name`) to the answer of the call message
 * `call`, the way `moveResultHere` does for a result with an id.
 */
function reattachUnnamed(w: Work, call: Message, away: Ref, name: string): void {
  const from = w.msgs[away.message] as Message;
  const below = away.message > w.msgs.indexOf(call);
  const block = w.takeBlock(away) as ToolResultBlock;
  const target = w.placeResults(w.msgs.indexOf(call), [block]);
  w.note(
    'result_reattached',
    from,
    target,
    [],
    `Re-attached the result of ${name || 'a tool'} (a call without an id) right after its call; it sat ${below ? 'further down' : 'before the call'}, where no call turn came before it.`,
  );
}

/** The name of the client call `id` in message `c` ('' when not found). */
function callName(w: Work, id: string, c: number): string {
  const b = (w.msgs[c] as Message).blocks.find((x) => isClientCall(x, id));
  return b?.type === 'tool_use' ? b.name : '';
}

/**
 * Answer the ids `v` names: reorder the answering message when the result is in it behind other
 * content, move the real result there when it sits elsewhere, or add an error result.
 * @returns true when anything changed
 */
function answerIds(w: Work, v: Violation): boolean {
  let changed = false;
  // The cause is read from the shape before this fix adds anything.
  const causes = new Map<string, string>();
  for (const id of v.ids) {
    const c = w.callMessage(id);
    if (c >= 0) causes.set(id, causeText(v.rule, w.msgs[w.run(c)[0]]));
  }
  for (const id of v.ids) {
    const c = w.callMessage(id);
    if (c < 0) continue;
    const [start, end] = w.run(c);
    const results = w.resultsFor(id);
    const firstAnswer = w.msgs[start];
    const inFirst = results.find((r) => r.message === start);
    if (firstAnswer && inFirst && firstAnswer.role === 'user') {
      changed = resultsFirst(w, start, inFirst) || changed;
      continue;
    }
    const away =
      results.find((r) => r.message !== start && r.message > c) ??
      results.find((r) => r.message !== start);
    if (away) moveResultHere(w, id, c, end, away);
    else
      addErrorResult(
        w,
        id,
        c,
        causes.get(id) ?? causeText(v.rule, w.msgs[start]),
        callName(w, id, c),
      );
    changed = true;
  }
  return changed;
}

/**
 * A result without an id named `name` that answers no call (no call turn comes right before its
 * message, G1), for the open call of message `c` without an id: after the call first, else before.
 */
function orphanNamed(w: Work, c: number, name: string): Ref | undefined {
  const found: Ref[] = [];
  w.msgs.forEach((m, mi) => {
    if (mi === c || callBefore(w, mi) >= 0) return;
    m.blocks.forEach((b, bi) => {
      if (isClientResult(b) && b.toolUseId === null && b.name === name)
        found.push({ message: mi, block: bi });
    });
  });
  return found.find((r) => r.message > c) ?? found[0];
}

/**
 * Gemini calls without ids (G3 counts parts, so the violation names no ids): answer by count.
 * The calls left open that carry an id are answered as by id; each one without gets the orphan
 * functionResponse of its name when one is elsewhere (moved right after the call turn), else an
 * error functionResponse with its name, in the user turn right after the call turn.
 */
function answerByCount(w: Work, v: Violation, c: number): boolean {
  const call = w.msgs[c] as Message;
  const copy = w.msgs[c + 1];
  if (copy && sameBlocks(call, copy)) {
    // A retry stored the turn twice; with no ids to tell, the copy's results answer the first.
    w.remove(c + 1);
    w.note(
      'replayed_turn_removed',
      copy,
      null,
      [],
      'Removed a replayed copy of an assistant turn (a retry stored it twice): its calls carry no ids, so Gemini counts the first turn as unanswered.',
    );
    return true;
  }
  const { open } = matchByCount(w, c);
  const text = causeText(v.rule, w.msgs[w.run(c)[0]]);
  const ids = open.flatMap((k) => (k.id !== null ? [k.id] : []));
  let changed = ids.length > 0 && answerIds(w, { ...v, ids });
  for (const k of open) {
    if (k.id !== null) continue;
    // Moving a real result can remove a message before the call: find the call again.
    const at = w.msgs.indexOf(call);
    if (at < 0) return changed;
    const away = orphanNamed(w, at, k.name);
    if (away) reattachUnnamed(w, call, away, k.name);
    else addErrorResult(w, null, at, text, k.name);
    changed = true;
  }
  return changed;
}

/**
 * Answer every call the provider reports missing. The validator decides what is missing; this
 * decides how: reorder the answering message when the result is in it behind other content, move
 * the real result there when it sits elsewhere, or add an error result naming the cause. Gemini
 * calls without ids are told apart by count and position (`answerByCount`).
 * @returns true when anything changed
 */
export function fixMissing(w: Work, v: Violation): boolean {
  const cause = w.causeOf(v);
  const c = cause ? w.msgs.indexOf(cause) : -1;
  if (
    apiOf(w.provider) === 'gemini' &&
    cause?.role === 'assistant' &&
    c >= 0 &&
    cause.blocks.some((b) => b.type === 'tool_use' && isClientCall(b) && b.id === null)
  )
    return answerByCount(w, v, c);
  return answerIds(w, v);
}
