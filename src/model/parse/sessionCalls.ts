/**
 * The model calls of a session log (issue 33): a Claude Code, Codex or Gemini CLI log, a
 * SWE-agent trajectory or an Inspect sample holds one conversation that was sent to the model
 * many times. Each call is the context the model saw then — the messages before its reply, with
 * the compactions and rollbacks made so far applied — given as spans of one transcript that
 * holds every message the log ever had (`FormatParser.sessionCalls`).
 */
import type { Message, Transcript } from '../types.ts';

/** A half-open range of message indices `[from, to)`. */
export type Span = [number, number];

/**
 * A compaction: the context was replaced (by a summary) or cut back (a rollback) between two
 * calls. Indices are the session transcript's.
 */
export interface CompactionEvent {
  /** `compaction`: a summary replaced the earlier messages; `rollback`: turns were taken back. */
  kind: 'compaction' | 'rollback';
  /** What set it off, as the log says (`auto`, `manual`), or `unknown`. */
  trigger: string;
  /** Tokens in context before and after, as the log reports them (Claude Code), else null. */
  tokensBefore: number | null;
  tokensAfter: number | null;
  /** The messages that left the context, `[from, to)` (empty when nothing did). */
  removed: Span;
  /** The summary message that stands for them, or null. */
  summary: number | null;
  /** The log's file line (1-based) that records it, or null. */
  line: number | null;
}

/** One model call of a session. */
export interface SessionCall {
  /** The messages the model saw, in order: spans of the session transcript. */
  spans: Span[];
  /** The first message of the reply this call produced, or null. */
  reply: number | null;
  /**
   * The thread it belongs to: `main`, or a sub-agent's (`side-1`, `side-2`, …). Calls of one
   * thread are one conversation (the lineage follows them).
   */
  thread: string;
  /** The compaction or rollback made since the previous call of its thread, or null. */
  compaction: CompactionEvent | null;
  /** Input tokens the provider reported for this call (cache reads and writes included), when logged. */
  usageTokens?: number;
  /** The call failed: the error the log recorded instead of a reply (Claude Code's API error lines). */
  apiError?: string;
}

/** A session's calls over the transcript that holds every message of the log. */
export interface SessionCalls {
  /** Every message the log holds (a rolled-back turn's included), in reading order. */
  transcript: Transcript;
  calls: SessionCall[];
}

/** The number of messages in a list of spans. */
export function spanLength(spans: readonly Span[]): number {
  let n = 0;
  for (const [a, b] of spans) n += b - a;
  return n;
}

/** The messages of a call: the spans' messages, in order (shared objects, not copies). */
export function spanMessages(t: Transcript, spans: readonly Span[]): Message[] {
  const out: Message[] = [];
  for (const [a, b] of spans) for (let i = a; i < b; i++) out.push(t.messages[i] as Message);
  return out;
}

/**
 * The transcript of one call: the session transcript narrowed to the call's messages, each
 * renumbered (`index` is its position in the call; `rawIndex`, `path` and meta are the log's,
 * so two calls of one log are matched message for message). Usage records outside the call
 * are dropped.
 */
export function callTranscript(s: SessionCalls, call: SessionCall): Transcript {
  const t = s.transcript;
  const messages = spanMessages(t, call.spans).map((m, i) => ({ ...m, index: i }));
  const at = new Map<number, number>();
  let k = 0;
  for (const [a, b] of call.spans) for (let i = a; i < b; i++) at.set(i, k++);
  const usage = t.usage.flatMap((u) => {
    if (u.messageIndex === undefined) return [];
    const i = at.get(u.messageIndex);
    return i === undefined ? [] : [{ ...u, messageIndex: i }];
  });
  return { ...t, messages, usage, warnings: [] };
}

/** Common prefix (in messages) of two span lists over one transcript. O(spans). */
export function commonSpanPrefix(a: readonly Span[], b: readonly Span[]): number {
  let n = 0;
  let x = 0;
  let y = 0;
  let ax = a[0]?.[0] ?? 0;
  let by = b[0]?.[0] ?? 0;
  while (x < a.length && y < b.length) {
    const sa = a[x] as Span;
    const sb = b[y] as Span;
    if (ax >= sa[1]) {
      x++;
      ax = a[x]?.[0] ?? 0;
      continue;
    }
    if (by >= sb[1]) {
      y++;
      by = b[y]?.[0] ?? 0;
      continue;
    }
    if (ax !== by) break;
    const step = Math.min(sa[1] - ax, sb[1] - by);
    n += step;
    ax += step;
    by += step;
  }
  return n;
}
