/**
 * Gemini's count matching (G3), for calls and results without ids: which call of a call turn
 * each result of its answer run stands for, which calls are left open, and which results stand
 * for no call.
 */
import type { Message, ToolUseBlock } from '../../types.ts';
import { isClientCall, isClientResult, type Ref, type Work } from '../work.ts';

/** The outcome of matching a call turn's calls with its answer run's results. */
export interface CountMatch {
  /** The calls no result stands for, in the turn's order. */
  open: ToolUseBlock[];
  /** The results that stand for no call (more results than calls), in the run's order. */
  extra: Ref[];
}

/**
 * Match the client calls of message `c` with the client results of its answer run (`Work.run`),
 * as Gemini counts them: a result naming a call's id stands for that call; any other stands for
 * a call without an id still open — of its own name first, else the first one.
 */
export function matchByCount(w: Work, c: number): CountMatch {
  const calls = (w.msgs[c] as Message).blocks.filter(
    (b): b is ToolUseBlock => b.type === 'tool_use' && isClientCall(b),
  );
  const [start, end] = w.run(c);
  const open = new Set(calls);
  /** The results no id matched, with their names. */
  const rest: [Ref, string | undefined][] = [];
  for (let mi = start; mi < end; mi++)
    (w.msgs[mi] as Message).blocks.forEach((r, bi) => {
      if (!isClientResult(r)) return;
      const named = calls.find((k) => k.id !== null && k.id === r.toolUseId && open.has(k));
      if (named) open.delete(named);
      else rest.push([{ message: mi, block: bi }, r.name]);
    });
  const free = (name?: string) =>
    calls.find((k) => k.id === null && open.has(k) && (name === undefined || k.name === name));
  // Two passes: a result takes a call of its own name before any result takes the first free one.
  const unnamed: Ref[] = [];
  for (const [ref, name] of rest) {
    const k = name === undefined ? undefined : free(name);
    if (k) open.delete(k);
    else unnamed.push(ref);
  }
  const extra: Ref[] = [];
  for (const ref of unnamed) {
    const k = free();
    if (k) open.delete(k);
    else extra.push(ref);
  }
  return { open: calls.filter((k) => open.has(k)), extra };
}

/**
 * The call message whose answer run holds message `i`: the nearest assistant message before it,
 * when it holds client calls and its run reaches `i`; −1 when there is none (an orphan turn).
 */
export function callBefore(w: Work, i: number): number {
  for (let c = i - 1; c >= 0; c--) {
    const m = w.msgs[c] as Message;
    if (m.role !== 'assistant') continue;
    const [start, end] = w.run(c);
    return m.blocks.some((b) => isClientCall(b)) && i >= start && i < end ? c : -1;
  }
  return -1;
}
