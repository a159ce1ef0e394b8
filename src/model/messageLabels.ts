/**
 * Row labels: how the page names a message to the user. Rows, violations, fault descriptions and
 * lost-meaning notes all use these, so a text and the row it talks about always agree.
 *
 * A message is named by its source position, `#rawIndex` (as pasted). Several of our messages can
 * share one raw index — a retry fault's copy, a Vercel AI UIMessage or a Gemini CLI turn split into
 * several of ours, log lines merged per reply — and then each gets a sub-position: `#3.1`, `#3.2`
 * (1-based, in our order among the messages with that raw index). A raw index used once stays `#3`.
 */
import type { Message } from './types.ts';

export interface MessageLabels {
  /**
   * Row label of message `i` (ours: a position in the labelled list): `#3` or `#3.2`. A position
   * outside the list gets `#i` (the old fallback, never thrown).
   */
  of: (i: number) => string;
}

const CACHE = new WeakMap<readonly Message[], MessageLabels>();

/**
 * The row labels of a message list (usually `t.messages` of the transcript the rows show).
 * @param messages the messages in our order
 * @returns a lookup; O(n) once per list (cached by reference), O(1) per label. When the raw
 *   indices ascend strictly (most pastes) no table is built.
 */
export function messageLabels(messages: readonly Message[]): MessageLabels {
  const cached = CACHE.get(messages);
  if (cached) return cached;
  const n = messages.length;
  let ascending = true;
  for (let i = 1; i < n && ascending; i++)
    if ((messages[i] as Message).rawIndex <= (messages[i - 1] as Message).rawIndex)
      ascending = false;
  let sub: Int32Array | null = null;
  if (!ascending) {
    // Count per raw index, then number the shared ones in our order (0 = not shared).
    const count = new Map<number, number>();
    for (const m of messages) count.set(m.rawIndex, (count.get(m.rawIndex) ?? 0) + 1);
    const seen = new Map<number, number>();
    sub = new Int32Array(n);
    for (let i = 0; i < n; i++) {
      const r = (messages[i] as Message).rawIndex;
      if ((count.get(r) ?? 0) < 2) continue;
      const k = (seen.get(r) ?? 0) + 1;
      seen.set(r, k);
      sub[i] = k;
    }
  }
  const table = sub;
  const labels: MessageLabels = {
    of: (i) => {
      const m = messages[i];
      if (!m) return `#${i}`;
      const k = table ? (table[i] as number) : 0;
      return k > 0 ? `#${m.rawIndex}.${k}` : `#${m.rawIndex}`;
    },
  };
  CACHE.set(messages, labels);
  return labels;
}

/**
 * Row label of one message (ours) in a list: `messageLabels(messages).of(i)`.
 * @param messages the messages in our order
 * @param i a position in `messages`
 */
export function messageLabel(messages: readonly Message[], i: number): string {
  return messageLabels(messages).of(i);
}
