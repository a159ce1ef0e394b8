/**
 * Row labels: how the page names a message to the user. Rows, violations, fault descriptions and
 * lost-meaning notes all use these, so a text and the row it talks about always agree.
 *
 * One scheme: a row number `#N` is a message number, counted from 0 — the message's raw index
 * (`Message.rawIndex`): its position in the source's message list as pasted (`messages[N]`), or
 * in a log, which has lines rather than a message list, its position among the messages read
 * from it. File lines are never row numbers: they are named as lines (`line 4`, `lines 4–5`,
 * counted from 1, as an editor does) wherever a row shows its source. A provider counts the
 * messages of the request it receives (`messages.N` in its error text), after the format's
 * conversion (consecutive same-role records merged); `requestIndexNote` maps that to the row.
 *
 * Several of our messages can share one raw index — a retry fault's copy, a Vercel AI UIMessage
 * or a Gemini CLI turn split into several of ours — and then each gets a sub-position: `#3.1`,
 * `#3.2` (1-based, in our order among the messages with that raw index). A raw index used once
 * stays `#3`.
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

/**
 * How a message's file lines are named (1-based, as an editor numbers them): `line 4`,
 * `lines 4–5`, `lines 4–5, 8` (runs of consecutive lines joined).
 * @param lines the lines, ascending
 */
export function sourceLines(lines: readonly number[]): string {
  // One line (most messages of a log): no list of runs to join, one string made.
  if (lines.length === 1) return `line ${lines[0] as number}`;
  const runs: string[] = [];
  for (let i = 0; i < lines.length; ) {
    let j = i;
    while (j + 1 < lines.length && (lines[j + 1] as number) === (lines[j] as number) + 1) j++;
    runs.push(j > i ? `${lines[i]}–${lines[j]}` : `${lines[i]}`);
    i = j + 1;
  }
  return `${lines.length === 1 ? 'line' : 'lines'} ${runs.join(', ')}`;
}

/**
 * What a row number means, for the row's tooltip: the message number and its base, and where the
 * message sits in the source (a list path, or a log's file lines).
 * @param m the message; @param label its row label (`messageLabels(ms).of(i)`)
 */
export function rowNumberTitle(m: Message, label: string): string {
  const shared = label.includes('.') ? ', one of several rows made from it' : '';
  return m.rawLine !== undefined
    ? `Row ${label}: message ${m.rawIndex} of the log, counting from 0 (a reply written over several lines is one message)${shared}; in the file: ${m.path}`
    : `Row ${label}: message ${m.rawIndex} of the source, counting from 0${shared}; in the source: ${m.path}`;
}

/** `messages.3…`, `messages.[3]…`, `contents[3]…`, `input[3]…`: the request's list and index. */
const REQUEST_INDEX_RE = /^(?:messages|contents|input)(?:\.\[|\[|\.)(\d+)/;

/**
 * The index a provider's error path names in the request it received (`messages.9969.content.0`
 * → 9969), or null when the path names none (`messages`, `toolConfig`, null).
 */
export function requestIndexOf(providerPath: string | null): number | null {
  const m = providerPath === null ? null : REQUEST_INDEX_RE.exec(providerPath);
  return m ? Number(m[1]) : null;
}

/**
 * The mapping shown next to a provider's error text, so its request index is not taken for a row
 * number: `request message 9969 = row #17755`. Null when the path names no index or no row holds
 * the cause.
 * @param providerPath `Violation.providerPath`; @param rowLabel the cause's row label, or null
 */
export function requestIndexNote(
  providerPath: string | null,
  rowLabel: string | null,
): string | null {
  const n = requestIndexOf(providerPath);
  return n === null || rowLabel === null ? null : `request message ${n} = row ${rowLabel}`;
}

/**
 * The row label of a violation's cause: by our index (`Violation.index`) when a row holds it,
 * else `#messageIndex` (a message outside the rows), or `the summary` (an eviction's summary,
 * raw index −1).
 */
export function causeLabel(
  labels: MessageLabels,
  v: { index: number; messageIndex: number },
): string {
  if (v.index >= 0) return labels.of(v.index);
  return v.messageIndex >= 0 ? `#${v.messageIndex}` : 'the summary';
}
