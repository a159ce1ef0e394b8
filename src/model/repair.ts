/**
 * Repair: for each violation of the chosen provider, the fix that keeps the most history, done
 * the way the agent loop should have done it (rule codes from the rule catalogue, docs/rules.md):
 *
 * - an unanswered call (A2, O2, G3) gets an error result (`is_error: true`; a `tool` message for
 *   the OpenAI family; a functionResponse naming the call for Gemini, whose calls may carry no id
 *   and are then counted) with a short message naming the cause, at the start of the next user
 *   message or in a new message right after the call — unless its real result exists elsewhere,
 *   which is then moved there (re-attached; split parallel results are merged the same way, B2);
 * - text placed before the tool results (A3) is moved after them; content after a tool_use in its
 *   assistant turn (A5) is moved in front of the calls;
 * - an orphan result (A1, B1, G1, O1, O3) is re-attached where its call is still present (by
 *   name for a Gemini call without an id); when the call is gone the result alone is removed (a
 *   Chat `tool` message with it), and so are the results a Gemini turn holds beyond its calls
 *   (G3): the text beside it and the replies after it are not part of the violation and stay;
 * - duplicate results (A6b, O6) are collapsed to the one next to the call;
 * - a replayed turn (duplicate tool_use ids, A6) is removed, or the repeated calls in it;
 * - empty messages and empty or whitespace-only text blocks (A10, A11) are removed; a prefill's
 *   trailing whitespace (A12) is trimmed;
 * - what cannot be repaired without inventing content (a stripped thinking block, a lost
 *   reasoning item, missing tool definitions, a rejected prefill) is explained in `unrepaired`.
 *
 * Messages the repair does not touch keep their objects (see the identity contract in
 * `faults.ts`); new or changed messages have `raw: undefined`.
 */
import { pairToolCalls } from './pairing.ts';
import type { Message, ProviderId, Transcript } from './types.ts';
import {
  defaultProviderOf,
  validateTranscript,
  type RuleId,
  type Validation,
  type Violation,
} from './validate/index.ts';
import {
  fix,
  fixDuplicateCall,
  fixDuplicateResult,
  isFixTarget,
  priority,
} from './repair/fixes/index.ts';
import { DEFAULT_NOTE, UNREPAIRABLE_NOTES } from './repair/notes.ts';
import type { RepairChange, RepairResult, Unrepaired } from './repair/types.ts';
import { Work } from './repair/work.ts';

export { UNREPAIRABLE_NOTES } from './repair/notes.ts';
export type { RepairChange, RepairKind, RepairResult, Unrepaired } from './repair/types.ts';

function keyOf(v: Violation): string {
  return `${v.rule}|${v.code}|${v.ids.join(',')}|${v.messageIndex}|${v.blockIndex ?? ''}`;
}

/** A warning standing for a duplicate the pairing found, for the duplicate fixes. */
function duplicateOf(rule: RuleId, id: string): Violation {
  return {
    rule,
    code: 'pairing',
    severity: 'warning',
    messageIndex: 0,
    index: -1,
    blockIndex: null,
    ids: [id],
    providerPath: null,
    status: null,
    error: null,
    message: '',
    title: '',
    why: '',
    confidence: 'I',
  };
}

/**
 * A replayed turn or a doubled result is a bug whichever way the provider words the error
 * (Gemini and Mistral report it as a count mismatch): when the request is refused, remove the
 * replay first, so the other fixes do not answer the copies.
 * @returns true when anything changed
 */
function removeDuplicates(w: Work): boolean {
  let any = false;
  const duplicated = (status: 'duplicate_id' | 'duplicate_result') =>
    new Set(
      pairToolCalls(w.msgs)
        .filter((q) => q.status === status && q.id !== null && !q.server)
        .map((q) => q.id as string),
    );
  w.rule = 'duplicate_tool_use_id';
  for (const id of duplicated('duplicate_id'))
    any = fixDuplicateCall(w, duplicateOf('duplicate_tool_use_id', id)) || any;
  w.rule = 'duplicate_tool_result';
  for (const id of duplicated('duplicate_result'))
    any = fixDuplicateResult(w, duplicateOf('duplicate_tool_result', id)) || any;
  w.rule = null;
  return any;
}

/**
 * One validation round: fix several violations as long as they touch different calls. A
 * violation is left for the next round when a fix of this round touched one of its ids (its
 * report may be stale), when it names no ids (a global fix), or when it is of a lower priority
 * group.
 * @param attempts fixes tried per violation key (a violation is given up after 3)
 * @returns true when a fix changed anything
 */
function fixRound(w: Work, validation: Validation, attempts: Map<string, number>): boolean {
  const candidates = validation.violations
    .filter(isFixTarget)
    .filter((v) => (attempts.get(keyOf(v)) ?? 0) < 3)
    .map((v, i) => ({ v, i }))
    .sort((a, b) => priority(a.v) - priority(b.v) || a.i - b.i);
  let progressed = false;
  w.touchedIds.clear();
  const group = candidates[0] ? priority(candidates[0].v) : 0;
  for (const { v } of candidates) {
    if (priority(v) !== group) break;
    if (progressed && (v.ids.length === 0 || v.ids.some((id) => w.touchedIds.has(id)))) continue;
    const k = keyOf(v);
    w.rule = v.rule;
    const changed = fix(w, v);
    w.rule = null;
    if (changed) {
      attempts.set(k, (attempts.get(k) ?? 0) + 1);
      progressed = true;
      if (v.ids.length === 0) break;
    } else if (!progressed) attempts.set(k, 3);
  }
  return progressed;
}

/**
 * Why an error the input did not have is there after the repair: the messages the repair removed
 * just before the message it names (their neighbours now meet), or the repair in general.
 */
function madeByRepair(v: Violation, t: Transcript, changes: RepairChange[]): string {
  const at = t.messages.findIndex((m) => m.rawIndex === v.messageIndex);
  const after = at > 0 ? (t.messages[at - 1] as Message).rawIndex : -1;
  const removed = changes
    .filter((c) => c.outputIndex === null)
    .flatMap((c) => c.replaced.map((i) => ({ i, note: c.note })))
    .filter(({ i }) => i > after && i < v.messageIndex);
  const what = removed.map(({ i, note }) => `message #${i} (“${note}”)`);
  return removed.length > 0
    ? `This repair made it (the input had no ${v.code} error): it removed ${what.join(' and ')}, so the messages around it now meet.`
    : `This repair made it (the input had no ${v.code} error).`;
}

/** The result of a finished repair: the changes by output position, what is left, explained. */
function report(w: Work, provider: ProviderId, input: Validation): RepairResult {
  const transcript = w.transcript();
  const validation = validateTranscript(transcript, provider);
  const pos = new Map<Message, number>();
  transcript.messages.forEach((m, i) => pos.set(m, i));
  const changes: RepairChange[] = w.changes.map((c) => ({
    kind: c.kind,
    rule: c.rule,
    messageIndex: c.origin,
    outputIndex: pos.get(w.resolve(c.target) as Message) ?? null,
    replaced: c.replaced,
    ids: c.ids,
    note: c.note,
  }));
  const had = new Set(input.violations.filter((v) => v.severity === 'error').map((v) => v.rule));
  const unrepaired: Unrepaired[] = validation.violations
    .filter((v) => v.severity === 'error')
    .map((v) => {
      const note = UNREPAIRABLE_NOTES[v.rule] ?? DEFAULT_NOTE;
      const made = !had.has(v.rule);
      return {
        rule: v.rule,
        code: v.code,
        messageIndex: v.messageIndex,
        ids: v.ids,
        message: v.message,
        note: made ? `${madeByRepair(v, transcript, changes)} ${note}` : note,
        ...(made ? { madeByRepair: true } : {}),
      };
    });
  return { transcript, changes, unrepaired, validation, provider };
}

/**
 * Repair a transcript for a provider: fix the provider's first violation (replayed turns and
 * doubled results first), validate again, and repeat until the validator says valid or nothing
 * more can be fixed. The fixes are in `repair/fixes/`, ordered by `repair/fixes/index.ts`.
 * @param t the transcript (faulted, trimmed or as pasted)
 * @param provider which provider's rules (default: the format's own provider)
 * @returns the repaired transcript (untouched messages are the same objects), the list of
 *   changes in the order made, what is still wrong with an explanation, and the final validation.
 *   Never throws. Cost: O(fixes × n) validations.
 */
export function repairTranscript(t: Transcript, provider?: ProviderId): RepairResult {
  const p = provider ?? defaultProviderOf(t);
  const w = new Work(t, p);
  const attempts = new Map<string, number>();
  const blocks = t.messages.reduce((s, m) => s + m.blocks.length, 0);
  const cap = 20 + 4 * (t.messages.length + blocks);
  const input = w.check();
  let validation = input;
  if (!validation.valid && removeDuplicates(w)) validation = w.check();
  for (let iter = 0; iter < cap; iter++) {
    if (!fixRound(w, validation, attempts)) break;
    validation = w.check();
  }
  return report(w, p, input);
}
