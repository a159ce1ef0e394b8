/**
 * What the faults share: the identity contract for new and changed messages (`derivedMessage`,
 * `withMessages`), removing result blocks, naming a call, and dropping one pair's result.
 */
import type { ToolPair } from '../pairing.ts';
import { pairToolCalls } from '../pairing.ts';
import type { Message, Result, Transcript } from '../types.ts';
import type { Applied } from './types.ts';

/** A fault that does not fit its target: the sentence says why. */
export function fail(error: string): Result<Applied, string> {
  return { ok: false, error };
}

/**
 * A new message (raw undefined) derived from `from`: its `rawIndex`/`path` name the source message
 * it comes from; `index` is fixed by `withMessages`.
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

/**
 * Remove the blocks `refs` and the messages `dropMessages`; a message left with no blocks is
 * dropped. Untouched messages keep their objects.
 */
export function removeBlocks(
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

/** A call as sentences name it: `get_weather (toolu_01)`. */
export function describeCall(p: ToolPair): string {
  return `${p.name || 'tool'} (${p.id ?? 'no id'})`;
}

/** Results (tool_result refs) of the calls in assistant message `i`, wherever they are. */
export function resultsOf(
  pairs: readonly ToolPair[],
  i: number,
): { message: number; block: number }[] {
  return pairs
    .filter(
      (p) => p.call?.message === i && p.result !== null && !p.server && p.status !== 'duplicate_id',
    )
    .map((p) => p.result as { message: number; block: number });
}

/** True for a client call with a result of its own (a tool_raised or timeout target). */
export function droppableResult(p: ToolPair): boolean {
  return (
    !!p.call && !!p.result && !p.server && p.status !== 'duplicate_id' && p.status !== 'orphan'
  );
}

/**
 * The loop never appended one call's result (`tool_raised`, `timeout`): the pair `pairKey` of
 * `t`, its result block removed, and the call's parallel siblings (for the timeout's sentence).
 */
export function dropOneResult(
  t: Transcript,
  pairKey: string,
): Result<{ messages: Message[]; pair: ToolPair; siblings: number }, string> {
  const all = pairToolCalls(t.messages);
  const p = all.find((q) => q.key === pairKey);
  if (!p || !p.call) return { ok: false, error: `No tool call with key ${pairKey}.` };
  if (p.server)
    return {
      ok: false,
      error: 'Server tools run on the provider side; the agent loop cannot drop their results.',
    };
  if (!p.result || p.status === 'duplicate_id' || p.status === 'orphan')
    return { ok: false, error: `${describeCall(p)} has no result to drop.` };
  const siblings = all.filter(
    (q) =>
      q !== p && q.call?.message === p.call?.message && !q.server && q.status !== 'duplicate_id',
  ).length;
  return { ok: true, value: { messages: removeBlocks(t, [p.result]), pair: p, siblings } };
}
