/**
 * Fault injection: the agent-loop failures that leave a tool call unanswered without any
 * compaction (issue 8). Each fault is a pure function on a normalised `Transcript`.
 *
 * - `tool_raised`: the tool threw and the loop never appended its tool_result.
 * - `timeout`: one of several parallel calls timed out; only its siblings' results were appended.
 * - `cancel`: the user cancelled mid-turn; the assistant turn was stored, none of its results,
 *   the rest of that exchange never happened, and the user's next message follows the turn
 *   (anthropics/claude-code#1956, openai/codex#394 in ../shared/cases 08 and 09).
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
  /** One or two sentences: what the loop did, in the field's words. */
  description: string;
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

function fail(error: string): Result<FaultResult, string> {
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
 * @returns the faulted transcript and a description, or an error string when the target does not
 *   fit the fault (no such pair, a call without a result, a timeout on a call with no siblings,
 *   a message that is not an assistant tool turn). Never throws.
 */
export function applyFault(t: Transcript, spec: FaultSpec): Result<FaultResult, string> {
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
      return { ok: true, value: { transcript: withMessages(t, messages), description } };
    }
    case 'cancel': {
      const i = spec.messageIndex;
      const m = t.messages[i];
      if (!m || m.role !== 'assistant' || !m.blocks.some((b) => b.type === 'tool_use' && !b.server))
        return fail(`Message ${i} is not an assistant turn with tool calls.`);
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
      const description = `The user cancelled while ${calls} tool call${calls === 1 ? ' was' : 's were'} running: the assistant turn (message ${i}) was stored, none of its results, ${dropped.size} later message${dropped.size === 1 ? '' : 's'} of that exchange never happened, and ${appended ? 'a new user message was appended' : "the user's next message follows the turn"}.`;
      return { ok: true, value: { transcript: withMessages(t, messages), description } };
    }
    case 'retry': {
      const i = spec.messageIndex;
      const m = t.messages[i];
      if (!m || m.role !== 'assistant') return fail(`Message ${i} is not an assistant message.`);
      const copy = derivedMessage(m, { blocks: m.blocks.map((b) => ({ ...b })) }, true);
      copy.path = `retry copy of ${m.path}`;
      const messages = [...t.messages.slice(0, i + 1), copy, ...t.messages.slice(i + 1)];
      const calls = m.blocks.filter((b) => b.type === 'tool_use' && !b.server).length;
      const description = `A network error hit after the reply; the retry stored assistant message ${i} twice${calls > 0 ? ` (its ${calls} tool_use id${calls === 1 ? '' : 's'} now appear twice)` : ''} and its results once.`;
      return { ok: true, value: { transcript: withMessages(t, messages), description } };
    }
    case 'truncate': {
      const n = Math.floor(spec.count);
      if (!(n >= 1)) return fail('Truncation needs a count of at least 1.');
      if (n > t.messages.length)
        return fail(`The transcript has only ${t.messages.length} messages.`);
      const messages = t.messages.slice(0, t.messages.length - n);
      return {
        ok: true,
        value: {
          transcript: withMessages(t, messages),
          description: `The last ${n} message${n === 1 ? ' was' : 's were'} dropped, as a retry path that rolls back does.`,
        },
      };
    }
    case 'drop': {
      const i = spec.messageIndex;
      const m = t.messages[i];
      if (!m) return fail(`There is no message ${i}.`);
      const messages = t.messages.filter((_, k) => k !== i);
      return {
        ok: true,
        value: {
          transcript: withMessages(t, messages),
          description: `Message ${i} (${m.role}) was dropped, as a naive "drop the oldest message" trim does.`,
        },
      };
    }
  }
}

/**
 * Apply faults in order, each to the result of the previous one (the page's stack of applied
 * faults; pair keys and message indices refer to the transcript as it is at that step).
 * @returns the final transcript, the descriptions, and the error of the first fault that did not
 *   fit (the faults after it are not applied)
 */
export function applyFaults(
  t: Transcript,
  specs: readonly FaultSpec[],
): { transcript: Transcript; descriptions: string[]; error: string | null } {
  let cur = t;
  const descriptions: string[] = [];
  for (const s of specs) {
    const r = applyFault(cur, s);
    if (!r.ok) return { transcript: cur, descriptions, error: r.error };
    cur = r.value.transcript;
    descriptions.push(r.value.description);
  }
  return { transcript: cur, descriptions, error: null };
}

/**
 * Every loop fault that fits this transcript (for menus and property tests; `drop` is not
 * listed, it fits any message): tool_raised for each
 * answered client call, timeout for each answered call with siblings, cancel and retry for each
 * assistant turn with client calls, truncate for 1…min(3, n) messages.
 */
export function faultTargets(t: Transcript): FaultSpec[] {
  const pairs = pairToolCalls(t.messages);
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
