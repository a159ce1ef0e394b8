/**
 * What a cut marker says it drops (newcomer: every marker read "drop everything up to #1 (system
 * pinned)" on a transcript without a system prompt, and the marker above #1 on one whose #0 is
 * the system prompt "dropped everything up to #0", which drops nothing, as a red dot). A cut at
 * `k` drops every non-pinned message before `k` (pinned: system and developer messages, kept).
 */
import { isPinned } from '../exchanges.ts';
import type { Message } from '../types.ts';

/** The words of one cut: the marker's name, and the tooltip's first line. */
export interface CutWords {
  /** `Cut above #2: drop #1, keep the system prompt #0 (pinned)` (the verdict is added after). */
  label: string;
  /** `Drop #1, keep the system prompt #0 (pinned):` */
  head: string;
}

/**
 * The words of the cut above message `k`, or null when that cut drops nothing (every message
 * before `k` is pinned, or `k` is 0): there is no cut there, so no marker.
 * @param messages the transcript's messages (ours); only their roles are read
 * @param labelOf a message's row label (`#3`, `#3.2`)
 * @param k the cut (message index, ours, 1..n)
 */
export function cutWords(
  messages: readonly Pick<Message, 'role'>[],
  labelOf: (message: number) => string,
  k: number,
): CutWords | null {
  let first = -1;
  let last = -1;
  const kept: number[] = [];
  // Linear in k, but only for the rows drawn; pinned messages are few, and the scan from the
  // start stops at the first non-pinned one, the one from k − 1 at the last.
  for (let i = 0; i < k; i++) {
    const m = messages[i];
    if (!m || !isPinned(m)) {
      first = i;
      break;
    }
    kept.push(i);
  }
  if (first < 0) return null;
  for (let i = k - 1; i >= first; i--) {
    const m = messages[i];
    if (!m || !isPinned(m)) {
      last = i;
      break;
    }
  }
  const drop = first === last ? labelOf(first) : `${labelOf(first)}–${labelOf(last)}`;
  const pinnedLater = hasPinnedBetween(messages, first, last);
  const keep = keepWords(messages, labelOf, kept, pinnedLater);
  const what = `drop ${drop}${keep}`;
  return {
    label: `Cut above ${labelOf(k)}: ${what}`,
    head: `D${what.slice(1)}:`,
  };
}

function hasPinnedBetween(
  messages: readonly Pick<Message, 'role'>[],
  from: number,
  to: number,
): boolean {
  for (let i = from + 1; i < to; i++) {
    const m = messages[i];
    if (m && isPinned(m)) return true;
  }
  return false;
}

/** `, keep the system prompt #0 (pinned)`; '' when nothing before the cut is pinned. */
function keepWords(
  messages: readonly Pick<Message, 'role'>[],
  labelOf: (message: number) => string,
  leading: readonly number[],
  pinnedLater: boolean,
): string {
  const only = leading[0];
  if (leading.length === 1 && only !== undefined && !pinnedLater) {
    const role = messages[only]?.role === 'developer' ? 'developer message' : 'system prompt';
    return `, keep the ${role} ${labelOf(only)} (pinned)`;
  }
  return leading.length > 0 || pinnedLater
    ? ', keep the system and developer messages (pinned)'
    : '';
}
