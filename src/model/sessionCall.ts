/**
 * One model call of a session log, shown as the request (issue 33): a Claude Code, Codex or
 * Gemini CLI log opens as the whole log; choosing call k (the page's strip, `rq=k+1`,
 * `--request k+1`) shows the context the model saw at that call, compactions and rollbacks
 * applied (`parse/sessionCalls.ts`, `callTranscript`). Page (engine) and CLI both call this, so
 * a link's `rq` names the same call in both.
 */
import type { ParsedTranscript } from './parse/index.ts';
import type { SourceDoc } from './parse/json.ts';
import { parserFor } from './parse/registry.ts';
import { callTranscript, spanLength, type SessionCalls } from './parse/sessionCalls.ts';

/**
 * `parsed` narrowed to session call `k` of its log (0-based; clamped to the calls there are),
 * with `requests` (one label per call) and `requestIndex` set, as a file of several requests
 * has them, and `callReply`: the first message of the call's reply (when the log has one).
 * @param doc the document `parsed` was read from
 * @param k the call chosen, or undefined (none chosen: `parsed` as it is)
 * @param calls the log's calls when already read from `doc` (`FormatParser.sessionCalls` of
 *   `parsed.transcript`); read from `doc` when undefined
 * @returns `parsed` itself when it is not a session log of two calls or more, or none is chosen
 */
export function withSessionCall(
  doc: SourceDoc,
  parsed: ParsedTranscript,
  k: number | undefined,
  calls?: SessionCalls,
): ParsedTranscript {
  if (k === undefined || parsed.requests) return parsed;
  const t = parsed.transcript;
  const s = calls ?? parserFor(t.format)?.sessionCalls?.(doc, t);
  if (!s || s.calls.length < 2) return parsed;
  const i = Math.max(0, Math.min(s.calls.length - 1, k));
  const call = s.calls[i];
  if (!call) return parsed;
  const transcript = callTranscript(s, call);
  transcript.warnings = [
    ...t.warnings,
    `This log holds ${s.calls.length} model calls; showing call ${i + 1}: the context the model saw then (${spanLength(call.spans)} of the log's ${t.messages.length} messages), compactions applied.`,
  ];
  const reply = call.reply === null ? undefined : s.transcript.messages[call.reply];
  return {
    ...parsed,
    transcript,
    requests: s.calls.map((c, j) => ({
      label: `call ${j + 1} · ${spanLength(c.spans)} messages${c.thread === 'main' ? '' : ` · ${c.thread}`}`,
    })),
    requestIndex: i,
    // The reply, numbered as the message after the context (a copy written with it: callCopy.ts).
    ...(reply ? { callReply: { ...reply, index: transcript.messages.length } } : {}),
  };
}
