/**
 * Unanswered, partial, trailing and text-first calls (A2, A3, O2, B2, …): every id the provider
 * reports missing gets its answer.
 */
import type { Message, ToolResultBlock } from '../../types.ts';
import type { RuleId, Violation } from '../../validate/index.ts';
import { isClientResult, type Ref, type Work } from '../work.ts';

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

/** No result anywhere: add an error result naming the cause. */
function addErrorResult(w: Work, id: string, c: number, text: string): void {
  const call = w.msgs[c] as Message;
  const block: ToolResultBlock = {
    type: 'tool_result',
    toolUseId: id,
    isError: true,
    content: [{ type: 'text', text }],
  };
  const target = w.placeResults(c, [block]);
  w.note(
    'error_result_added',
    call,
    target,
    [id],
    `Added an error result for ${id}: ${text.replace(/^Error: /, '')}`,
  );
}

/**
 * Answer every id the provider reports missing. The validator decides what is missing; this
 * decides how: reorder the answering message when the result is in it behind other content, move
 * the real result there when it sits elsewhere, or add an error result naming the cause.
 * @returns true when anything changed
 */
export function fixMissing(w: Work, v: Violation): boolean {
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
    else addErrorResult(w, id, c, causes.get(id) ?? causeText(v.rule, w.msgs[start]));
    changed = true;
  }
  return changed;
}
