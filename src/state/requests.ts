/**
 * A file's requests for the strip (issue 33): the listing the diff worker makes of the file
 * shown (a session log's model calls, an archive's requests: `model/diff/requests.ts`), each
 * with its verdict, adopted here (the one owner of that answer); and the strip's model derived
 * from it and the request shown (memoised; the app store holds only the user's choice,
 * `requestIndex`).
 */
import type { StoreApi } from 'zustand';
import { diffJobOffThread, releaseDiffWorker } from '../engine/diffClient.ts';
import type { RequestsAnswer, RequestsJob } from '../engine/diffProtocol.ts';
import {
  firstRuleAt,
  labelAt,
  retryAt,
  sparseAt,
  validAt,
  type RequestColumns,
} from '../engine/requestColumns.ts';
import { apiErrorSummaryOf, apiErrorWords, type CompactionEvent } from '../model/diff/index.ts';
import { MarkList } from './markList.ts';
import { activeSession, memoN, sessionSlot, type Held } from './session/index.ts';
import type { AppState } from './store.ts';
import type { ParsedTranscript } from '../model/parse/index.ts';
import { parserFor } from '../model/parse/registry.ts';

/**
 * The listing of the file shown, once the worker has made it (one file at a time: the one shown),
 * held by the session: `requestListingStore` is its store (`job`, and `value`: null while being
 * made).
 */
const listing = sessionSlot<RequestsJob, RequestsAnswer>('requests', diffJobOffThread);

/** The session's listing answer, as a store (read when used: the active session's). */
export const requestListingStore: StoreApi<Held<RequestsJob, RequestsAnswer>> = {
  get getState() {
    return listing.store.getState;
  },
  get getInitialState() {
    return listing.store.getInitialState;
  },
  get setState() {
    return listing.store.setState;
  },
  get subscribe() {
    return listing.store.subscribe;
  },
};

/**
 * The job that lists the store's file; the same object while its inputs do not change.
 * `exact`: count its requests' tokens by the BPE, as the page's header (its own counter loaded).
 */
export const selectRequestsJob = memoN(
  (
    source: AppState['source'],
    format: AppState['formatOverride'],
    provider: AppState['provider'],
    exact = false,
    listable = true,
  ): RequestsJob | null =>
    // A streamed large file holds no text on the page: its strip shows the labels the parse gave.
    // A file of one request has no strip: it is not listed (`mayListRequests`).
    source.text === '' || !listable
      ? null
      : {
          kind: 'requests',
          text: source.text,
          name: source.name,
          format,
          provider,
          // Counted as the header counts once the page's BPE has loaded (`exact`), chars/4 before.
          tokens: exact ? 'exact' : 'estimate',
        },
);

/**
 * Whether the parse shown can have a strip, so its file is worth listing: a file of several
 * requests (the parse's `requests`: an archive's) or a log whose format reads its model calls
 * (`FormatParser.sessionCalls`). Any other file is one request and lists as one, which draws
 * nothing: listing it started the diff worker and loaded a tokenizer there, 23 MiB held for the
 * page's life (issue 38: beside a 115 MB log's load, from the sample the page opened with).
 * @param parsed the parse shown (null or undefined while there is none)
 */
export function mayListRequests(parsed: ParsedTranscript | null | undefined): boolean {
  if (!parsed) return false;
  if (parsed.requests !== undefined) return true;
  return parserFor(parsed.transcript.format)?.sessionCalls !== undefined;
}

/**
 * The listing of the streamed session log shown (the inspect worker reads its calls: a file too
 * large to read whole reaches no other worker), or null when what is shown is not one; held by
 * the session (`answers.streamedListing`, set by its sink with each answer of the inspect worker).
 * A `useSession` selector: the same object until the session adopts another listing.
 */
export function selectStreamedListing(): RequestsAnswer | null {
  return activeSession().answers.streamedListing;
}

/**
 * Ask the worker for `job`'s listing unless it is the one held or being made; the answer is
 * adopted only while `job` is still the one asked for last. When the page goes from a listed file
 * to one it does not list (`job` null), the diff worker is let go with the listing it kept and
 * its tokenizer (`releaseDiffWorker`: 23 MiB or more held for nothing); the next job starts one.
 */
export function ensureRequestListing(job: RequestsJob | null): void {
  const listed = listing.store.getState().job !== null;
  listing.ensure(job);
  if (job === null && listed) releaseDiffWorker();
}

/** The API error the log records for request `k` (0-based) of a listing, or null. */
export function apiErrorOf(requests: RequestColumns, k: number): string | null {
  return sparseAt(requests.apiError, k) ?? null;
}

/** One mark of the strip. */
export interface StripMark {
  /** 0-based (the store's `requestIndex`); the page writes it 1-based. */
  index: number;
  label: string;
  /** Tokens of the request (system prompt and messages, by `encoding`), or null while listed. */
  tokens: number | null;
  /** The counter of `tokens`: `o200k_base`, or `chars/4` (an estimate until the BPE loads). */
  encoding: string | null;
  /** Input tokens the log's usage records for this call, when it has them. */
  usageTokens: number | null;
  messages: number | null;
  /** `ok`, `bad` (a 400), `pending` (not judged yet). */
  tone: 'ok' | 'bad' | 'pending';
  /** The first error's catalogue code (`A1`), or null. */
  code: string | null;
  compaction: CompactionEvent | null;
  retry: boolean;
  /** The API error the log records for this call, or null. */
  fault: string | null;
  /** The mark's height, 0–1 of the tallest (tokens), 1 while unknown. */
  height: number;
}

/** What the strip draws: its marks, which is shown, and the sentence over them. */
export interface StripModel {
  /** One per request, made when read. */
  marks: MarkList<StripMark>;
  /** 0-based index of the request shown, or null (a session log shown whole). */
  chosen: number | null;
  /** 0-based index of the first request that gets a 400, or null (none, or not judged yet). */
  firstFailing: number | null;
  /** One sentence: how many requests, and the first failing one in words. */
  sentence: string;
  /** `session`: a log's model calls; `archive`: a file of several requests. */
  kind: 'session' | 'archive';
}

const fmt = (n: number) => n.toLocaleString('en-US');

function pendingMark(index: number, label: string): StripMark {
  return {
    index,
    label,
    tokens: null,
    encoding: null,
    usageTokens: null,
    messages: null,
    tone: 'pending',
    code: null,
    compaction: null,
    retry: false,
    fault: null,
    height: 1,
  };
}

function markOf(
  c: RequestColumns,
  index: number,
  max: number,
  judged: boolean,
  encoding: string,
): StripMark {
  const tokens = c.tokens[index] as number;
  const usage = c.usageTokens[index] as number;
  const valid = validAt(c, index);
  return {
    index,
    label: labelAt(c, index),
    tokens,
    encoding,
    usageTokens: Number.isNaN(usage) ? null : usage,
    messages: c.messages[index] as number,
    tone: !judged ? 'pending' : valid ? 'ok' : 'bad',
    code: judged ? (firstRuleAt(c, index)?.code ?? null) : null,
    compaction: sparseAt(c.compaction, index) ?? null,
    retry: retryAt(c, index),
    fault: sparseAt(c.apiError, index) ?? null,
    height: max > 0 ? Math.max(0.08, tokens / max) : 1,
  };
}

/** What the strip's sentence says of its marks, read without making every mark. */
interface MarksDigest {
  count: number;
  /** How many marks, from the first, are judged (null: none yet, the listing is being made). */
  judged: number | null;
  /** The first mark that fails, if any. */
  failing: StripMark | undefined;
  /** How many marks follow a compaction or rollback. */
  compactions: number;
  /** The marks with an API error: 1-based number and verdict (null: not judged). */
  faults: { call: number; valid: boolean | null }[];
  /** The first mark's API error, or null. */
  firstFault: string | null;
}

function sentenceOf(kind: StripModel['kind'], d: MarksDigest): string {
  const { judged, failing } = d;
  const one = kind === 'session' ? 'call' : 'request';
  const what = kind === 'session' ? 'model calls' : 'requests';
  const n = `${fmt(d.count)} ${d.count > 1 ? what : kind === 'session' ? 'model call' : one}`;
  // A log of one call: that call's verdict, in words.
  if (d.count === 1 && judged !== null && judged > 0) {
    const code = failing?.code ? ` (${failing.code})` : '';
    const fault = d.firstFault;
    return `${n}; it ${failing ? `fails${code}` : 'passes'}${fault ? `; ${apiErrorWords(!failing)}` : ''}.`;
  }
  const compactions = d.compactions;
  const events =
    compactions > 0
      ? `, ${compactions} compaction${compactions === 1 ? '' : 's'} or rollback${compactions === 1 ? '' : 's'}`
      : '';
  if (judged === null) return `${n}; judging each…`;
  // Calls the log records an API error for are said beside any verdict: a structure that passes
  // does not mean the call succeeded (newcomer: three recorded 400s under "every one passes").
  const errors = apiErrorSummaryOf(d.faults, one);
  const also = errors ? `; ${errors}` : '';
  if (!failing && judged < d.count) {
    const rest = d.count - judged;
    const passed =
      judged === 0 ? '' : judged === 1 ? `; ${one} 1 passes` : `; ${one}s 1–${fmt(judged)} pass`;
    return `${n}${events}${passed}; ${fmt(rest)} not judged here (a long log: its ${what} are judged in order within a budget; choose one to see its verdict)${also}.`;
  }
  if (!failing)
    return errors
      ? `${n}${events}: every one passes the structure rules, but ${errors}.`
      : `${n}${events}; every one passes.`;
  const code = failing.code ? ` (${failing.code})` : '';
  const before =
    failing.index === 0
      ? ''
      : failing.index === 1
        ? `; ${one} 1 passes`
        : `; ${one}s 1–${fmt(failing.index)} pass`;
  return `${n}${events}; the first failing is ${one} ${fmt(failing.index + 1)}${code}${before}${also}.`;
}

/**
 * The marks of a listing (made when read) and what its sentence says of them: O(requests) over
 * its columns, O(1) per mark made.
 */
function listedMarks(c: RequestColumns, judged: number, encoding: string) {
  let max = 0;
  for (let k = 0; k < c.count; k++) max = Math.max(max, c.tokens[k] as number);
  const marks = new MarkList(c.count, (i) => markOf(c, i, max, i < judged, encoding));
  let failing: StripMark | undefined;
  for (let k = 0; k < Math.min(judged, c.count); k++)
    if (!validAt(c, k)) {
      failing = marks.at(k);
      break;
    }
  const faults = Array.from(c.apiError.at, (k) => ({
    call: k + 1,
    valid: k < judged ? validAt(c, k) : null,
  }));
  const first = sparseAt(c.apiError, 0);
  const digest: MarksDigest = {
    count: c.count,
    judged,
    failing,
    compactions: c.compaction.at.length,
    faults,
    firstFault: c.count > 0 ? (first ?? null) : null,
  };
  return { marks, digest };
}

/**
 * The strip's model.
 * @param labels the parse result's `requests` (one label per request), or undefined
 * @param chosen the parse result's `requestIndex` (the request shown), or undefined
 * @param answer the worker's listing of the same file, or null while being made
 * @returns null when the file holds fewer than two requests
 */
export const selectStrip = memoN(
  (
    labels: readonly { label: string }[] | undefined,
    chosen: number | undefined,
    answer: RequestsAnswer | null,
  ): StripModel | null => {
    // A session log's strip shows even one call: the whole log's verdict points to it (a call
    // is judged as the provider got it only when chosen there).
    const n = answer?.ok ? answer.requests.count : 0;
    const listed = answer?.ok && (n > 1 || (n === 1 && answer.kind === 'session')) ? answer : null;
    if (!listed && (!labels || labels.length < 2)) return null;
    const kind = listed?.kind === 'session' ? 'session' : 'archive';
    let marks: MarkList<StripMark>;
    let digest: MarksDigest;
    if (listed) {
      const judged = listed.judged ?? listed.requests.count;
      const encoding = listed.tokenEncoding ?? 'chars/4';
      ({ marks, digest } = listedMarks(listed.requests, judged, encoding));
    } else {
      const list = labels ?? [];
      marks = new MarkList(list.length, (i) => pendingMark(i, list[i]?.label ?? ''));
      digest = {
        count: list.length,
        judged: null,
        failing: undefined,
        compactions: 0,
        faults: [],
        firstFault: null,
      };
    }
    const failing = digest.failing;
    return {
      marks,
      // A session log opens whole: no call is the one shown until one is chosen.
      chosen: chosen ?? (kind === 'session' ? null : marks.length - 1),
      firstFailing: failing ? failing.index : null,
      sentence: sentenceOf(kind, digest),
      kind,
    };
  },
);
