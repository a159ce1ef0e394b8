/**
 * Tool-run pairing, written once for the OpenAI Chat family (OpenAI O1–O3, O6, O7, O9; DeepSeek,
 * Qwen and Mistral as dialects): an assistant message with tool calls must be followed,
 * contiguously, by a run of `tool` messages, one per call, in any order. The run is the logical
 * "next message" of the calls. This scan finds what breaks that and hands each finding to the
 * validator, which gives it its code, path and exact text from the rule catalogue. Findings come
 * in the order the provider meets them (array order).
 */
import type { ToolUseBlock } from '../../types.ts';
import type { RenderedItem, RenderedMessage, RuleId } from '../types.ts';
import { isClientCall } from './pairing.ts';

/** What breaks a tool run. `at` is the rendered index of the message that holds the cause. */
export type RunFinding =
  /** A tool message outside any run (O1). */
  | { kind: 'orphan'; at: number; id: string | null }
  /** A legacy `function` message not right after a `function_call` (O7). */
  | { kind: 'legacy_orphan'; at: number }
  /** A tool message without a tool_call_id (O9). */
  | { kind: 'result_without_id'; at: number }
  /** A tool message answering an id an earlier tool message answered (O6); `first` is that one. */
  | { kind: 'duplicate_result'; at: number; id: string; first: number }
  /** A tool message answering an id its run's assistant did not call (O3). */
  | { kind: 'wrong_id'; at: number; id: string }
  /** A call id an earlier assistant message used too (OW1). */
  | { kind: 'duplicate_call'; item: RenderedItem; id: string }
  /**
   * Calls of the assistant message at `call` without a tool message in its run (O2). `end` is
   * the first message after the run (`msgs.length` when the request ends there).
   */
  | { kind: 'open'; call: number; end: number; rule: RuleId; first: RenderedItem; ids: string[] };

export type RunEmit = (f: RunFinding) => void;

/** The tool_call_id a rendered `tool` message answers, or null. */
export function toolCallIdOf(m: RenderedMessage): string | null {
  const b = m.items[0]?.block;
  return b && b.type === 'tool_result' ? b.toolUseId : null;
}

/** A legacy `role: "function"` message as sent (O7): no id, a name. */
function isLegacyResult(m: RenderedMessage): boolean {
  const it = m.items[0];
  const b = it?.block;
  if (b === undefined || b.type !== 'tool_result' || b.toolUseId !== null) return false;
  const raw = it?.msg.raw;
  return typeof raw === 'object' && raw !== null && (raw as { role?: unknown }).role === 'function';
}

/** A legacy assistant `function_call` (O7): a client call without an id. */
function hasLegacyCall(m: RenderedMessage): boolean {
  return (
    m.role === 'assistant' && m.items.some((it) => isClientCall(it.block) && it.block.id === null)
  );
}

/** The client calls with an id of a rendered message (none unless it is an assistant message). */
function callsOf(m: RenderedMessage): RenderedItem[] {
  if (m.role !== 'assistant') return [];
  const out: RenderedItem[] = [];
  for (const it of m.items) if (isClientCall(it.block) && it.block.id !== null) out.push(it);
  return out;
}

/**
 * Scan rendered Chat messages for broken tool runs.
 * @param msgs the request's messages as the provider receives them (`renderOpenAIChat`)
 * @param emit receives each finding, in array order
 */
export function scanToolRuns(msgs: readonly RenderedMessage[], emit: RunEmit): void {
  /** Rendered index of the first tool message answering each id (O6 is request-wide). */
  const toolAt = new Map<string, number>();
  const seenCallIds = new Set<string>();
  let i = 0;
  while (i < msgs.length) {
    const m = msgs[i] as RenderedMessage;
    if (m.role === 'tool') {
      if (!isLegacyResult(m)) emit({ kind: 'orphan', at: i, id: toolCallIdOf(m) });
      else if (i === 0 || !hasLegacyCall(msgs[i - 1] as RenderedMessage))
        emit({ kind: 'legacy_orphan', at: i }); // else O7: it answers the function_call
      i++;
      continue;
    }
    const calls = callsOf(m);
    if (calls.length === 0) {
      i++;
      continue;
    }
    for (const it of calls) {
      const id = (it.block as ToolUseBlock).id as string;
      if (seenCallIds.has(id)) emit({ kind: 'duplicate_call', item: it, id });
      seenCallIds.add(id);
    }
    i = scanRun(msgs, i, calls, toolAt, emit);
  }
}

/**
 * The run of tool messages after assistant message `i` with `calls`: missing ids, duplicates,
 * wrong ids, then the calls left without a tool message.
 * @returns the index of the first message after the run
 */
function scanRun(
  msgs: readonly RenderedMessage[],
  i: number,
  calls: readonly RenderedItem[],
  toolAt: Map<string, number>,
  emit: RunEmit,
): number {
  const ids = calls.map((it) => (it.block as ToolUseBlock).id as string);
  const answered = new Set<string>();
  let j = i + 1;
  for (; j < msgs.length && (msgs[j] as RenderedMessage).role === 'tool'; j++) {
    const id = toolCallIdOf(msgs[j] as RenderedMessage);
    const first = id === null ? undefined : toolAt.get(id);
    if (id === null) emit({ kind: 'result_without_id', at: j });
    else if (first !== undefined) {
      emit({ kind: 'duplicate_result', at: j, id, first });
      answered.add(id); // it still answers its call (no O2 on top)
    } else if (!ids.includes(id)) emit({ kind: 'wrong_id', at: j, id });
    else {
      answered.add(id);
      toolAt.set(id, j);
    }
  }
  const open: number[] = [];
  for (let k = 0; k < ids.length; k++) if (!answered.has(ids[k] as string)) open.push(k);
  if (open.length === 0) return j;
  const ended = j >= msgs.length;
  const rule: RuleId =
    j === i + 1 && ended
      ? 'trailing_tool_use'
      : answered.size > 0
        ? 'partial_answer'
        : 'unanswered_tool_use';
  const first = calls[open[0] as number] as RenderedItem;
  emit({ kind: 'open', call: i, end: j, rule, first, ids: open.map((k) => ids[k] as string) });
  return j;
}
