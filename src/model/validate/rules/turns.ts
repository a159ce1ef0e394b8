/**
 * The request as a provider checks it: a list of turns, each a range of our messages. Shared by
 * every validator whose rules speak of "the previous / next message" (Anthropic, Bedrock, Gemini).
 *
 * System/developer messages leave the list (they go beside it), every role but assistant is
 * `user`, and with `merge` consecutive messages of one role form one turn (Anthropic merges them,
 * A9; converters do it for Bedrock and Gemini). Turns are index ranges, not objects per block:
 * validators run over every block of 100k-message transcripts.
 */
import { isPinned } from '../../exchanges.ts';
import type { Block, Message } from '../../types.ts';
import type { RenderedItem, RenderedMessage } from '../types.ts';

export interface Turns {
  /** The request's messages without the pinned (system/developer) ones. */
  msgs: readonly Message[];
  /** First message of each turn; `start[count]` is `msgs.length`. */
  start: Int32Array;
  count: number;
}

/** A turn's role: `user` for every role but assistant (tool results are user content). */
export type TurnRole = 'user' | 'assistant';

export function roleOf(m: Message): TurnRole {
  return m.role === 'assistant' ? 'assistant' : 'user';
}

/**
 * Build the turns of a request.
 * @param source the request's messages (normalised)
 * @param merge true when consecutive messages of one role form one turn
 */
export function buildTurns(source: readonly Message[], merge: boolean): Turns {
  let msgs = source;
  for (let i = 0; i < source.length; i++)
    if (isPinned(source[i] as Message)) {
      msgs = source.filter((m) => !isPinned(m));
      break;
    }
  const start = new Int32Array(msgs.length + 1);
  let count = 0;
  let lastRole = '';
  for (let i = 0; i < msgs.length; i++) {
    const role = roleOf(msgs[i] as Message);
    if (!merge || role !== lastRole) start[count++] = i;
    lastRole = role;
  }
  start[count] = msgs.length;
  return { msgs, start, count };
}

export function turnRole(T: Turns, n: number): TurnRole {
  return roleOf(T.msgs[T.start[n] as number] as Message);
}

/** The first message of turn `n` (the one turn-level findings point at). */
export function turnHead(T: Turns, n: number): Message {
  return T.msgs[T.start[n] as number] as Message;
}

/** Number of content blocks in turn `n`. */
export function turnSize(T: Turns, n: number): number {
  let size = 0;
  for (let s = T.start[n] as number; s < (T.start[n + 1] as number); s++)
    size += (T.msgs[s] as Message).blocks.length;
  return size;
}

/** The items of turn `n` ({block, msg, blockIndex} per block), for checks of a single turn. */
export function turnItems(T: Turns, n: number): RenderedItem[] {
  const items: RenderedItem[] = [];
  for (let s = T.start[n] as number; s < (T.start[n + 1] as number); s++) {
    const msg = T.msgs[s] as Message;
    for (let bi = 0; bi < msg.blocks.length; bi++)
      items.push({ block: msg.blocks[bi] as Block, msg, blockIndex: bi });
  }
  return items;
}

/**
 * True when turn `n` is an empty string as the provider sees it: its first message gave no blocks
 * or `content: ""` (an empty text block from a string), and no later message of the turn adds any.
 */
export function turnEmptyString(T: Turns, n: number, size: number): boolean {
  const head = turnHead(T, n);
  if (size !== head.blocks.length) return false;
  if (size === 0) return true;
  if (head.stringContent !== true) return false;
  for (const b of head.blocks) if (b.type !== 'text' || b.text !== '') return false;
  return true;
}

/**
 * The turns as rendered messages (an object per block): for the eviction model's per-turn
 * lookups and the UI, not for the validators' scans.
 * @param assistantRole the provider's name for the assistant role (`assistant`, `model`)
 */
export function renderTurnList(T: Turns, assistantRole: string): RenderedMessage[] {
  const out: RenderedMessage[] = new Array<RenderedMessage>(T.count);
  for (let n = 0; n < T.count; n++) {
    const items = turnItems(T, n);
    out[n] = {
      role: turnRole(T, n) === 'assistant' ? assistantRole : 'user',
      items,
      sources: T.msgs.slice(T.start[n], T.start[n + 1]),
      emptyString: turnEmptyString(T, n, items.length),
    };
  }
  return out;
}
