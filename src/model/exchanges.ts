/**
 * Exchanges and turn pairs.
 *
 * An exchange starts at a user message that carries no tool result and runs through every
 * assistant turn and tool result up to the next such message. System and developer messages are
 * pinned outside exchanges. Messages before the first such user message form a leading group,
 * marked `leading` (a trimmed transcript that starts mid-exchange has one).
 */
import { hasToolResult } from './pairing.ts';
import type { Message } from './types.ts';

export interface Exchange {
  /** 0-based exchange number (the leading group, if any, is 0). */
  index: number;
  /** Stable key for permalinks and React (`x0`, `x1`, …). */
  key: string;
  /** Message indices (ours) in this exchange, in order, pinned system messages excluded. */
  messages: number[];
  /** First and last message index spanned (system messages inside the span are not members). */
  first: number;
  last: number;
  /** True for the group of messages before the first user message (no user-led start). */
  leading: boolean;
}

export interface Grouping {
  exchanges: Exchange[];
  /** For each message, its exchange index, or -1 for a pinned system/developer message. */
  exchangeOf: Int32Array;
}

/** True for messages pinned outside exchanges (system prompt, developer instructions). */
export function isPinned(m: Pick<Message, 'role'>): boolean {
  return m.role === 'system' || m.role === 'developer';
}

/** True for a message that opens an exchange: a user message that is not a tool result. */
export function startsExchange(m: Message): boolean {
  return m.role === 'user' && !hasToolResult(m);
}

/**
 * How many exchanges `groupExchanges(messages)` makes, without building them (the CLI's `check`
 * prints the count only: issue 38). O(n), no allocation.
 */
export function countExchanges(messages: readonly Message[]): number {
  let n = 0;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i] as Message;
    if (isPinned(m)) continue;
    if (n === 0 || startsExchange(m)) n++;
  }
  return n;
}

/**
 * Group messages into exchanges (a single fold, O(n)).
 * @param messages the transcript's messages
 * @returns the exchanges and, per message, its exchange index (-1 for pinned messages)
 */
export function groupExchanges(messages: readonly Message[]): Grouping {
  const exchanges: Exchange[] = [];
  const exchangeOf = new Int32Array(messages.length).fill(-1);
  let current: Exchange | null = null;
  for (let i = 0; i < messages.length; i++) {
    const m = messages[i] as Message;
    if (isPinned(m)) continue;
    const starts = startsExchange(m);
    if (current === null || starts) {
      current = {
        index: exchanges.length,
        key: `x${exchanges.length}`,
        messages: [],
        first: i,
        last: i,
        leading: !starts,
      };
      exchanges.push(current);
    }
    current.messages.push(i);
    current.last = i;
    exchangeOf[i] = current.index;
  }
  return { exchanges, exchangeOf };
}

export interface TurnPair {
  /** Index of the assistant message. */
  assistant: number;
  /** Indices of the user/tool messages after it, up to the next assistant message. */
  replies: number[];
}

/**
 * Turn pairs: each assistant message with the user (or tool) messages that follow it, up to the
 * next assistant message. Pinned messages are skipped.
 */
export function turnPairs(messages: readonly Message[]): TurnPair[] {
  const out: TurnPair[] = [];
  let cur: TurnPair | null = null;
  messages.forEach((m, i) => {
    if (isPinned(m)) return;
    if (m.role === 'assistant') {
      cur = { assistant: i, replies: [] };
      out.push(cur);
    } else if (cur) cur.replies.push(i);
  });
  return out;
}
