/**
 * One model call of a session log, written alone so that it reopens as that call. A call's
 * context (`callTranscript`) written in its log's format is a log again, whose calls are only the
 * earlier calls it holds: opened, it shows the context whole under a strip of those calls, none
 * of them the call that was shared (newcomer: "63 model calls; every one passes" above the 400 of
 * the call shared). Written with the first message of the call's reply after it, the copy holds
 * the call itself, and a link names it (`rq`): the reader opens the same call, chosen, with its
 * verdict, under a strip that agrees with it. Used by the page's structure-only link and the
 * CLI's `share --request N` of a session log.
 */
import { parseDocument, readSource } from './parse/index.ts';
import { parserFor } from './parse/registry.ts';
import { spanLength, type SessionCalls } from './parse/sessionCalls.ts';
import type { FormatId, Message, Transcript } from './types.ts';

/**
 * The call's context with its reply's first message after it (`ParsedTranscript.callReply`),
 * numbered as the next message. Usage records stay the context's. A log's lines (`raw`, when a
 * list of them) end at the last line of those messages: the lines after the call (later
 * compactions, snapshots, queue operations) are not the call's, and a writer that keeps every
 * line that is not a message's would carry them into the copy (newcomer: the structure-only
 * copy of call 45 held 618 later lines and reopened with a compaction made at call 84).
 */
export function withCallReply(t: Transcript, reply: Message): Transcript {
  const messages = [...t.messages, { ...reply, index: t.messages.length }];
  return { ...t, messages, raw: linesThrough(t.raw, messages) };
}

/**
 * `raw` cut after the last of its entries that is a line of one of `messages` (a message's `raw`
 * is its line, or its lines); `raw` itself when it is not a list or holds none of them. O(raw).
 */
function linesThrough(raw: unknown, messages: readonly Message[]): unknown {
  if (!Array.isArray(raw)) return raw;
  const lines = new Set<unknown>();
  for (const m of messages)
    if (Array.isArray(m.raw)) for (const l of m.raw as unknown[]) lines.add(l);
    else if (m.raw !== undefined) lines.add(m.raw);
  for (let i = raw.length - 1; i >= 0; i--) if (lines.has(raw[i])) return raw.slice(0, i + 1);
  return raw;
}

/** A copy's call found: its index among the copy's calls, and the calls read from the copy. */
export interface CopyCall {
  /** 0-based: the request index a link names (`rq` writes it 1-based). */
  index: number;
  calls: SessionCalls;
}

/**
 * The call `withCallReply` wrote, in the copy as written: the copy's call whose context is
 * exactly its first `n` messages and whose reply is message `n`.
 * @param text the copy (a log's text)
 * @param format the format it was written in (read with it as a hint, as `readBack` may)
 * @param n the messages of the call's context
 * @returns the call and the copy's calls, or null when the copy does not read as a session log
 *   of two calls or more holding that call (a format whose calls are not one per reply; the
 *   first call of a log, which is the copy's only one). Never throws. O(copy).
 */
export function callOfCopy(text: string, format: FormatId, n: number): CopyCall | null {
  try {
    const doc = readSource(text);
    if (!doc.ok) return null;
    const parsed = parseDocument(doc.value, { format });
    if (!parsed.ok) return null;
    const calls = parserFor(format)?.sessionCalls?.(doc.value, parsed.value.transcript);
    // One call is no choice: a log of one call opens whole (`withSessionCall`), its reply too.
    if (!calls || calls.calls.length < 2) return null;
    // Its spans lie before its reply: n messages of them are the first n.
    const index = calls.calls.findIndex((c) => c.reply === n && spanLength(c.spans) === n);
    return index < 0 ? null : { index, calls };
  } catch {
    return null;
  }
}
