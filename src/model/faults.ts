/**
 * Fault injection: the agent-loop failures that leave a tool call unanswered without any
 * compaction (issue 8). Each fault is a pure function on a normalised `Transcript`, one file each
 * in `faults/` and one entry in `faults/registry.ts`; this module applies them.
 *
 * - `tool_raised`: the tool threw and the loop never appended its tool_result.
 * - `timeout`: one of several parallel calls timed out; only its siblings' results were appended.
 * - `cancel`: the user cancelled mid-turn; the assistant turn was stored, none of its results,
 *   the rest of that exchange never happened, and the user's next message follows the turn
 *   (anthropics/claude-code#1956, openai/codex#394; reported cases 08 and 09).
 * - `retry`: a network error after the reply; the retry stored the assistant message twice and its
 *   results once (a replayed turn: duplicate tool_use ids, A6).
 * - `truncate`: the last N messages dropped, as a retry path that rolls back does.
 * - `drop` (not a loop fault, for teaching): one message removed, as a naive trim does.
 *
 * Identity contract (shared with `repair.ts`): a message the fault did not touch is the same
 * object in the output (its `index`/`rawIndex`/`path` still name its place in the source, so they
 * are not renumbered); a new or changed message is a new object with `raw: undefined`,
 * `index` = its position in the output, `rawIndex` and `path` borrowed from the source message
 * it derives from. Undo is the caller keeping the original transcript.
 */
import { messageLabels } from './messageLabels.ts';
import { pairToolCalls, type ToolPair } from './pairing.ts';
import type { Message, Result, Transcript } from './types.ts';
import { faultDef, FAULT_KINDS, FAULT_REGISTRY, type FaultSpec } from './faults/registry.ts';
import type { Applied, TargetContext } from './faults/types.ts';

export { FAULT_KINDS, FAULT_LABELS, type FaultKind, type FaultSpec } from './faults/registry.ts';
export { derivedMessage, withMessages } from './faults/common.ts';
export { DEFAULT_CANCEL_TEXT } from './faults/cancel.ts';

export interface FaultResult {
  transcript: Transcript;
  /**
   * One or two sentences: what the loop did, in the field's words. Messages are named by their
   * row label (`#3`, `#3.2`: `messageLabels`) in the output transcript (the rows shown after the
   * fault), or in the input for a message the fault removed.
   */
  description: string;
}

/** Row label of a message: `(m) => '#3.2'`, or null when it is not in that list. */
type LabelOf = (m: Message) => string | null;

/** Row label of `m` in `messages` (by identity), or null when it is not there. O(n). */
function labelIn(messages: readonly Message[]): LabelOf {
  return (m) => {
    const i = messages.indexOf(m);
    return i < 0 ? null : messageLabels(messages).of(i);
  };
}

/** The first list that holds `m` names it; `#rawIndex` when none does. */
function firstLabel(...lists: LabelOf[]): (m: Message) => string {
  return (m) => {
    for (const l of lists) {
      const s = l(m);
      if (s !== null) return s;
    }
    return `#${m.rawIndex}`;
  };
}

function applyOne(t: Transcript, spec: FaultSpec): Result<Applied, string> {
  return faultDef(spec.kind).apply(t, spec);
}

/**
 * Apply one fault.
 * @param t a transcript (usually valid; any works)
 * @param spec the fault and its target: `pairKey` is a key from `pairToolCalls(t.messages)`,
 *   `messageIndex` a position in `t.messages` (an assistant message with tool calls), `count` ≥ 1
 * @returns the faulted transcript and a description (messages named by their row labels in the
 *   output, `#3` / `#3.2`), or an error string when the target does not fit the fault (no such
 *   pair, a call without a result, a timeout on a call with no siblings, a message that is not
 *   an assistant tool turn; messages named by their row labels in `t`). Never throws.
 */
export function applyFault(t: Transcript, spec: FaultSpec): Result<FaultResult, string> {
  const r = applyOne(t, spec);
  if (!r.ok) return r;
  const { transcript, describe } = r.value;
  const description = describe(firstLabel(labelIn(transcript.messages), labelIn(t.messages)));
  return { ok: true, value: { transcript, description } };
}

/**
 * Apply faults in order, each to the result of the previous one (the page's stack of applied
 * faults; pair keys and message indices refer to the transcript as it is at that step).
 * @returns the final transcript, the descriptions, and the error of the first fault that did not
 *   fit (the faults after it are not applied). Descriptions name messages by their row labels in
 *   the final transcript (the rows shown: a later retry turns `#3` into `#3.1`), or, for a
 *   message a later step removed, where that step's output or input last showed it.
 */
export function applyFaults(
  t: Transcript,
  specs: readonly FaultSpec[],
): { transcript: Transcript; descriptions: string[]; error: string | null } {
  let cur = t;
  const steps: { before: Transcript; applied: Applied }[] = [];
  let error: string | null = null;
  for (const s of specs) {
    const r = applyOne(cur, s);
    if (!r.ok) {
      error = r.error;
      break;
    }
    steps.push({ before: cur, applied: r.value });
    cur = r.value.transcript;
  }
  const final = labelIn(cur.messages);
  const descriptions = steps.map(({ before, applied }) =>
    applied.describe(
      firstLabel(final, labelIn(applied.transcript.messages), labelIn(before.messages)),
    ),
  );
  return { transcript: cur, descriptions, error };
}

/**
 * Every loop fault that fits this transcript (for menus and property tests; `drop` lists none,
 * it fits any message), each kind's own `targets`: pair faults first (by pair, in registry
 * order), then message faults (by message), then counts.
 * @param pairs `pairToolCalls(t.messages)` when the caller has it (an analysis' pairs), so the
 *   transcript is not paired again (issue 7: 90–190 ms at 67,000 messages)
 */
export function faultTargets(
  t: Transcript,
  pairs: readonly ToolPair[] = pairToolCalls(t.messages),
): FaultSpec[] {
  const callsIn = new Map<number, number>();
  for (const p of pairs)
    if (p.call && !p.server && p.status !== 'duplicate_id')
      callsIn.set(p.call.message, (callsIn.get(p.call.message) ?? 0) + 1);
  const ctx: TargetContext = { pairs, callsIn };
  const pairOrder = new Map(pairs.map((p, i) => [p.key, i]));
  const GROUP = { pair: 0, message: 1, count: 2 } as const;
  const keyed = FAULT_KINDS.flatMap((kind, rank) =>
    faultDef(kind)
      .targets(t, ctx)
      .map((spec) => {
        const s = spec as Record<string, unknown>;
        const at =
          typeof s.pairKey === 'string'
            ? (pairOrder.get(s.pairKey) ?? 0)
            : typeof s.messageIndex === 'number'
              ? s.messageIndex
              : Number(s.count ?? 0);
        return { spec, group: GROUP[FAULT_REGISTRY[kind].target], at, rank };
      }),
  );
  keyed.sort((a, b) => a.group - b.group || a.at - b.at || a.rank - b.rank);
  return keyed.map((k) => k.spec);
}

/**
 * A view copy for pages that use `Message.index` as the row position: messages whose `index`
 * differs from their position are shallow-copied with the position (raw and blocks shared).
 * Use it for display only; repair and the diff need the un-reindexed transcript (identity).
 * @returns `t` itself when every index already matches
 */
export function reindexForView(t: Transcript): Transcript {
  if (t.messages.every((m, i) => m.index === i)) return t;
  return { ...t, messages: t.messages.map((m, i) => (m.index === i ? m : { ...m, index: i })) };
}
