/**
 * Content after a tool_use in its assistant turn (A5): moved in front of the calls.
 */
import type { Block, Message } from '../../types.ts';
import type { Violation } from '../../validate/index.ts';
import { isClientCall, type Work } from '../work.ts';

/**
 * A5: content after a client tool_use in one (merged) assistant turn. The content that follows
 * the first call, in this message and in the assistant messages merged with it, moves in front of
 * that call (order kept), so the calls end the turn and their results follow immediately.
 */
export function fixContentAfterCall(w: Work, v: Violation): boolean {
  const c = w.msgs.indexOf(w.causeOf(v) as Message);
  if (c < 0) return false;
  let end = c + 1;
  while (end < w.msgs.length && (w.msgs[end] as Message).role === 'assistant') end++;
  const head = w.msgs[c] as Message;
  const at = head.blocks.findIndex((b) => isClientCall(b));
  if (at < 0) return false;
  const calls: Block[] = [];
  const moved: Block[] = [];
  for (let i = c; i < end; i++)
    for (const [bi, b] of (w.msgs[i] as Message).blocks.entries())
      if (i === c && bi < at) continue;
      else if (isClientCall(b)) calls.push(b);
      else moved.push(b);
  if (moved.length === 0) return false;
  for (let i = end - 1; i > c; i--) w.remove(i);
  const n = w.setBlocks(c, [...head.blocks.slice(0, at), ...moved, ...calls]);
  w.note(
    'text_moved',
    head,
    n,
    v.ids,
    `Moved ${moved.length} block(s) that followed a tool_use in front of the calls: a tool_use must end its assistant message so that its tool_result follows immediately.`,
  );
  return true;
}
