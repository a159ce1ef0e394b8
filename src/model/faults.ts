/**
 * Fault injection: the agent-loop failures that leave a tool call unanswered without any
 * compaction (issue 8). Each fault is a pure function on a normalised `Transcript`.
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
import { groupExchanges } from './exchanges.ts';
import { messageLabels } from './messageLabels.ts';
import { pairToolCalls, type ToolPair } from './pairing.ts';
import type { Block, Message, Result, Transcript } from './types.ts';

export type FaultKind = 'tool_raised' | 'timeout' | 'cancel' | 'retry' | 'truncate' | 'drop';

/** A fault and its target: a pair key (`p3`, from `pairToolCalls`), a message index, or a count. */
export type FaultSpec =
  | { kind: 'tool_raised'; pairKey: string }
  | { kind: 'timeout'; pairKey: string }
  | { kind: 'cancel'; messageIndex: number; userText?: string }
  | { kind: 'retry'; messageIndex: number }
  | { kind: 'truncate'; count: number }
  /** Not a loop fault: one message removed, as a naive "drop the oldest message" trim does (the lesson's step two). */
  | { kind: 'drop'; messageIndex: number };

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

/** A fault applied, its description still to be worded with the labels of the rows shown. */
interface Applied {
  transcript: Transcript;
  describe: (label: (m: Message) => string) => string;
}

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

/** Labels for menus, in the order the issue lists them. */
export const FAULT_LABELS: Record<FaultKind, string> = {
  tool_raised: 'Tool raised',
  timeout: 'Timeout of one parallel call',
  cancel: 'Cancel mid-turn',
  retry: 'Retry after a network error',
  truncate: 'Trailing truncation',
  drop: 'Drop this message',
};

/** The user's next message appended by `cancel` when the transcript has none after the turn. */
export const DEFAULT_CANCEL_TEXT = 'Stop. Do something else instead.';

/**
 * A new message (raw undefined) derived from `from`: its `rawIndex`/`path` name the source message
 * it comes from; `index` is fixed by `finish`.
 */
export function derivedMessage(
  from: Message,
  patch: Partial<Pick<Message, 'role' | 'blocks' | 'stringContent'>>,
  isNew = false,
): Message {
  const m: Message = {
    index: from.index,
    rawIndex: from.rawIndex,
    path: isNew ? `new, after ${from.path}` : from.path,
    role: patch.role ?? from.role,
    blocks: patch.blocks ?? from.blocks,
    raw: undefined,
  };
  if (from.rawLine !== undefined) m.rawLine = from.rawLine;
  const sc = 'stringContent' in patch ? patch.stringContent : from.stringContent;
  if (sc && m.blocks.length === 1 && m.blocks[0]?.type === 'text') m.stringContent = true;
  if (from.meta) m.meta = from.meta;
  return m;
}

/**
 * Build the output transcript: same top-level fields, the new message list; new messages
 * (`raw === undefined` and not in `original`) get `index` = their position.
 */
export function withMessages(
  t: Transcript,
  messages: Message[],
  original: readonly Message[] = t.messages,
): Transcript {
  const old = new Set(original);
  messages.forEach((m, i) => {
    if (!old.has(m)) m.index = i;
  });
  return { ...t, messages };
}

function fail(error: string): Result<Applied, string> {
  return { ok: false, error };
}

/**
 * Remove the blocks `refs` and the messages `dropMessages`; a message left with no blocks is
 * dropped. Untouched messages keep their objects.
 */
function removeBlocks(
  t: Transcript,
  refs: { message: number; block: number }[],
  dropMessages: ReadonlySet<number> = new Set(),
): Message[] {
  const byMsg = new Map<number, Set<number>>();
  for (const r of refs) {
    const s = byMsg.get(r.message) ?? new Set<number>();
    s.add(r.block);
    byMsg.set(r.message, s);
  }
  const out: Message[] = [];
  t.messages.forEach((m, i) => {
    if (dropMessages.has(i)) return;
    const drop = byMsg.get(i);
    if (!drop) {
      out.push(m);
      return;
    }
    const blocks = m.blocks.filter((_, b) => !drop.has(b));
    if (blocks.length > 0) out.push(derivedMessage(m, { blocks }));
  });
  return out;
}

function describeCall(p: ToolPair): string {
  return `${p.name || 'tool'} (${p.id ?? 'no id'})`;
}

/** Results (tool_result refs) of the calls in assistant message `i`, wherever they are. */
function resultsOf(pairs: readonly ToolPair[], i: number): { message: number; block: number }[] {
  return pairs
    .filter(
      (p) => p.call?.message === i && p.result !== null && !p.server && p.status !== 'duplicate_id',
    )
    .map((p) => p.result as { message: number; block: number });
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

// One case per fault kind, each a short recipe over the same transcript: the switch reads as the
// catalogue of faults, whole.
// eslint-disable-next-line max-lines-per-function -- a switch over the fault kinds (see above)
function applyOne(t: Transcript, spec: FaultSpec): Result<Applied, string> {
  const rowOf = (i: number) => messageLabels(t.messages).of(i);
  switch (spec.kind) {
    case 'tool_raised':
    case 'timeout': {
      const all = pairToolCalls(t.messages);
      const p = all.find((q) => q.key === spec.pairKey);
      if (!p || !p.call) return fail(`No tool call with key ${spec.pairKey}.`);
      if (p.server)
        return fail(
          'Server tools run on the provider side; the agent loop cannot drop their results.',
        );
      if (!p.result || p.status === 'duplicate_id' || p.status === 'orphan')
        return fail(`${describeCall(p)} has no result to drop.`);
      const siblings = all.filter(
        (q) =>
          q !== p &&
          q.call?.message === p.call?.message &&
          !q.server &&
          q.status !== 'duplicate_id',
      );
      if (spec.kind === 'timeout' && siblings.length === 0)
        return fail(
          `${describeCall(p)} has no parallel siblings: a timeout of one parallel call needs at least two calls in the turn (use "tool raised").`,
        );
      const messages = removeBlocks(t, [p.result]);
      const description =
        spec.kind === 'tool_raised'
          ? `The tool ${describeCall(p)} raised and the loop never appended its tool_result; everything after was stored as usual.`
          : `${describeCall(p)} timed out; only the results of its ${siblings.length} parallel sibling${siblings.length === 1 ? '' : 's'} were appended.`;
      return {
        ok: true,
        value: { transcript: withMessages(t, messages), describe: () => description },
      };
    }
    case 'cancel': {
      const i = spec.messageIndex;
      const m = t.messages[i];
      if (!m || m.role !== 'assistant' || !m.blocks.some((b) => b.type === 'tool_use' && !b.server))
        return fail(
          `${m ? `Message ${rowOf(i)}` : `There is no message at position ${i}, so it`} is not an assistant turn with tool calls.`,
        );
      // The rest of the exchange (results, later turns) never happened; the next exchange stays.
      const { exchanges, exchangeOf } = groupExchanges(t.messages);
      const x = exchanges[exchangeOf[i] ?? -1];
      const nextStart = x ? x.last + 1 : i + 1;
      const dropped = new Set<number>();
      for (let k = i + 1; k < nextStart; k++) {
        const mk = t.messages[k] as Message;
        if (mk.role !== 'system' && mk.role !== 'developer') dropped.add(k);
      }
      // Results of this turn's calls placed further away are dropped as well (none were stored).
      const pairs = pairToolCalls(t.messages);
      const late = resultsOf(pairs, i).filter((r) => !dropped.has(r.message));
      const kept = removeBlocks(t, late, dropped);
      let messages = kept;
      let appended = false;
      const hasNextUser = t.messages.slice(nextStart).some((mm) => mm.role === 'user');
      if (!hasNextUser) {
        const text: Block = { type: 'text', text: spec.userText ?? DEFAULT_CANCEL_TEXT };
        messages = [
          ...kept,
          derivedMessage(m, { role: 'user', blocks: [text], stringContent: true }, true),
        ];
        appended = true;
      }
      const calls = m.blocks.filter((b) => b.type === 'tool_use' && !b.server).length;
      const describe = (label: (x: Message) => string) =>
        `The user cancelled while ${calls} tool call${calls === 1 ? ' was' : 's were'} running: the assistant turn (message ${label(m)}) was stored, none of its results, ${dropped.size} later message${dropped.size === 1 ? '' : 's'} of that exchange never happened, and ${appended ? 'a new user message was appended' : "the user's next message follows the turn"}.`;
      return { ok: true, value: { transcript: withMessages(t, messages), describe } };
    }
    case 'retry': {
      const i = spec.messageIndex;
      const m = t.messages[i];
      if (!m) return fail(`There is no message at position ${i} to retry.`);
      if (m.role !== 'assistant') return fail(`Message ${rowOf(i)} is not an assistant message.`);
      const copy = derivedMessage(m, { blocks: m.blocks.map((b) => ({ ...b })) }, true);
      copy.path = `retry copy of ${m.path}`;
      const messages = [...t.messages.slice(0, i + 1), copy, ...t.messages.slice(i + 1)];
      const calls = m.blocks.filter((b) => b.type === 'tool_use' && !b.server).length;
      const describe = (label: (x: Message) => string) =>
        `A network error hit after the reply; the retry stored assistant message ${label(m)} twice (the copy is ${label(copy)})${calls > 0 ? `, so its ${calls} tool_use id${calls === 1 ? '' : 's'} now appear${calls === 1 ? 's' : ''} twice,` : ''} and its results once.`;
      return { ok: true, value: { transcript: withMessages(t, messages), describe } };
    }
    case 'truncate': {
      const n = Math.floor(spec.count);
      if (!(n >= 1)) return fail('Truncation needs a count of at least 1.');
      if (n > t.messages.length)
        return fail(`The transcript has only ${t.messages.length} messages.`);
      const messages = t.messages.slice(0, t.messages.length - n);
      const description = `The last ${n} message${n === 1 ? ' was' : 's were'} dropped, as a retry path that rolls back does.`;
      return {
        ok: true,
        value: { transcript: withMessages(t, messages), describe: () => description },
      };
    }
    case 'drop': {
      const i = spec.messageIndex;
      const m = t.messages[i];
      if (!m) return fail(`There is no message at position ${i}.`);
      const messages = t.messages.filter((_, k) => k !== i);
      return {
        ok: true,
        value: {
          transcript: withMessages(t, messages),
          describe: (label) =>
            `Message ${label(m)} (${m.role}) was dropped, as a naive "drop the oldest message" trim does.`,
        },
      };
    }
  }
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
 * Every loop fault that fits this transcript (for menus and property tests; `drop` is not
 * listed, it fits any message): tool_raised for each
 * answered client call, timeout for each answered call with siblings, cancel and retry for each
 * assistant turn with client calls, truncate for 1…min(3, n) messages.
 * @param pairs `pairToolCalls(t.messages)` when the caller has it (an analysis' pairs), so the
 *   transcript is not paired again (issue 7: 90–190 ms at 67,000 messages)
 */
export function faultTargets(
  t: Transcript,
  pairs: readonly ToolPair[] = pairToolCalls(t.messages),
): FaultSpec[] {
  const out: FaultSpec[] = [];
  const callsIn = new Map<number, number>();
  for (const p of pairs)
    if (p.call && !p.server && p.status !== 'duplicate_id')
      callsIn.set(p.call.message, (callsIn.get(p.call.message) ?? 0) + 1);
  for (const p of pairs) {
    if (!p.call || !p.result || p.server || p.status === 'duplicate_id' || p.status === 'orphan')
      continue;
    out.push({ kind: 'tool_raised', pairKey: p.key });
    if ((callsIn.get(p.call.message) ?? 0) > 1) out.push({ kind: 'timeout', pairKey: p.key });
  }
  for (const i of callsIn.keys()) {
    out.push({ kind: 'cancel', messageIndex: i });
    out.push({ kind: 'retry', messageIndex: i });
  }
  for (let n = 1; n <= Math.min(3, t.messages.length); n++)
    out.push({ kind: 'truncate', count: n });
  return out;
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
