/**
 * A streamed session log's model calls, for the page's request strip (issue 33). A log too
 * large to read whole on the page reaches the worker only (stream.ts): the diff worker, which
 * lists the calls of a file the page holds as text, never sees it. So the inspect worker reads
 * the calls itself, once, from the records as parsed (before `releaseRecords` lets go of the
 * fields they are read from: compaction boundaries, API errors, sub-agent threads), and sends
 * the listing with its answer; choosing a call then narrows the parse it holds instead of
 * streaming the file again. Each call's verdict is a validation of its whole context, so a log
 * of many long calls is judged in order after the load, within `JUDGE_BUDGET` messages.
 */
import {
  listSessionCalls,
  requestJudge,
  type RequestJudge,
  type RequestInfo,
  type RequestListing,
  type RequestVerdict,
  type SessionCalls,
} from '../model/diff/index.ts';
import type { ParsedTranscript } from '../model/parse/index.ts';
import type { SourceDoc } from '../model/parse/json.ts';
import { parserFor } from '../model/parse/registry.ts';
import { withSessionCall } from '../model/sessionCall.ts';
import type { ProviderId } from '../model/types.ts';
import type { RequestsAnswer, RequestSummary } from './diffProtocol.ts';
import { packRequests } from './requestColumns.ts';

/**
 * Most messages validated to judge a streamed log's calls (the sum of the judged calls' costs,
 * `RequestJudge.cost`: a call that extends the last one costs what it adds where the validator
 * resumes, else its length): about 2–3 s of the worker at 1–1.5 µs a message. A log whose calls hold more is
 * judged from its first call on until the budget is spent; the strip says how many were.
 */
export const JUDGE_BUDGET = 2_500_000;

/** A streamed session log's calls and the whole log's parse they are spans of. */
export interface StreamedSession {
  whole: ParsedTranscript;
  /**
   * The log's calls, read from its records on first use (issue 38: after the load's answer,
   * `hasCalls`); fewer than two when the log turned out to be one call. They must be read
   * before the records are released (run.ts `settleFile` reads them first).
   */
  readonly calls: SessionCalls;
  /** Called once, right after the calls are read (run.ts: then the records are released). */
  onRead?: () => void;
  /** The calls listed (sizes, labels), made on first use (`listingOf`): after the load's answer. */
  listing: RequestListing | null;
  /**
   * Verdicts made so far, in call order, the provider they were made for, and the judge that
   * goes on from there (each thread's calls along one chain validation: `requestJudge`).
   */
  verdicts: { provider: ProviderId | null; list: RequestSummary[]; judge: RequestJudge } | null;
}

/**
 * The calls of a parsed session log, read from `doc` as parsed on first use of `calls` (or
 * `hasCalls`): before its records are released. Null for a log of a format that lists no calls,
 * or a file of several requests. A log whose calls cannot be read has none.
 */
export function streamedSession(doc: SourceDoc, whole: ParsedTranscript): StreamedSession | null {
  if (whole.requests) return null;
  const t = whole.transcript;
  const list = parserFor(t.format)?.sessionCalls;
  if (!list) return null;
  let calls: SessionCalls | null = null;
  const s: StreamedSession = {
    whole,
    get calls(): SessionCalls {
      if (!calls) {
        try {
          calls = list(doc, t);
        } catch {
          calls = { transcript: t, calls: [] };
        }
        s.onRead?.();
      }
      return calls;
    },
    listing: null,
    verdicts: null,
  };
  return s;
}

/** Whether a session log holds two calls or more (a strip to show); reads its calls. */
export function hasCalls(s: StreamedSession): boolean {
  return s.calls.calls.length >= 2;
}

/**
 * The log's parse narrowed to call `k` (`withSessionCall` with the calls already read), or the
 * whole log when `k` is undefined.
 */
export function sessionParse(s: StreamedSession, k: number | undefined): ParsedTranscript {
  // No call: the whole log, as `withSessionCall` gives it, without reading the calls yet.
  if (k === undefined) return s.whole;
  return withSessionCall({ kind: 'jsonl', lines: [], brokenLines: [] }, s.whole, k, s.calls);
}

/** The session's listing, made once. */
function listingOf(s: StreamedSession): RequestListing {
  s.listing ??= listSessionCalls(s.calls);
  return s.listing;
}

/**
 * The strip's answer: every call, the first `judged` of them with their verdicts (the others
 * say `valid: true` and no rule, and are not judged: `judged` says so).
 */
export function sessionAnswer(s: StreamedSession, provider: ProviderId | null): RequestsAnswer {
  const v = s.verdicts?.provider === provider ? s.verdicts.list : [];
  const listing = listingOf(s);
  // In columns: the page takes 28,000 calls in without a long task (requestColumns.ts).
  const requests = packRequests(
    listing.requests.length,
    (k) => v[k] ?? summary(listing.requests[k] as RequestInfo, { valid: true, firstRule: null }),
  );
  return {
    ok: true,
    kind: 'session',
    requests,
    defaultIndex: listing.defaultIndex,
    judged: v.length,
  };
}

/** A call's row of the strip, built field by field (a spread of 28,000 rows is slow). */
function summary(r: RequestInfo, v: RequestVerdict): RequestSummary {
  const out: RequestSummary = {
    request: r.request,
    label: r.label,
    messages: r.messages,
    tokens: r.tokens,
    compaction: r.compaction,
    valid: v.valid,
    firstRule: v.firstRule,
    retry: r.retryOf !== undefined,
  };
  if (r.thread !== undefined) out.thread = r.thread;
  if (r.usageTokens !== undefined) out.usageTokens = r.usageTokens;
  if (r.apiError !== undefined) out.apiError = r.apiError;
  if (r.retryOf !== undefined) out.retryOf = r.retryOf;
  return out;
}

/**
 * Judge the calls not judged yet for `provider`, in order, until `budget` messages were
 * validated or every call is judged; yields between calls (`pause`) and stops when `stale`.
 * @returns false when it stopped because the request went stale
 */
export async function judgeCalls(
  s: StreamedSession,
  provider: ProviderId | null,
  pause: () => Promise<void>,
  stale: () => boolean,
  budget = JUDGE_BUDGET,
): Promise<boolean> {
  const listing = listingOf(s);
  if (s.verdicts?.provider !== provider)
    s.verdicts = { provider, list: [], judge: requestJudge(listing, provider ?? undefined) };
  const { list, judge } = s.verdicts;
  let spent = 0;
  let sinceYield = 0;
  for (let k = list.length; k < listing.requests.length; k++) {
    const r = listing.requests[k];
    const cost = judge.cost(k);
    if (!r || spent + cost > budget) break;
    spent += cost;
    sinceYield += cost;
    list.push(summary(r, judge.verdict(k)));
    if (sinceYield > 100_000) {
      sinceYield = 0;
      await pause();
      if (stale()) return false;
    }
  }
  return true;
}
