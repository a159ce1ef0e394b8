/**
 * A file's requests, for every format (issue 33): the model calls of a session log (Claude Code,
 * Codex, Gemini CLI, SWE-agent, an Inspect sample's model events: `parse/sessionCalls.ts`), the requests of an archive or container
 * (OpenTelemetry, HAR, batch, LiteLLM, Inspect samples, exports: `parseDocument`'s `requests`),
 * or the one request a file holds. Each with its size, verdict and compaction; each one's
 * transcript on demand.
 */
import type { FormatId, ParseError, ProviderId, Result, Transcript } from '../types.ts';
import {
  parseDocument,
  readSource,
  type ParsedTranscript,
  type ParseOptions,
} from '../parse/index.ts';
import type { ContainerNote } from '../parse/containers.ts';
import { parserFor } from '../parse/registry.ts';
import { brokenLinesNote, type SourceDoc } from '../parse/json.ts';
import {
  callTranscript,
  commonSpanPrefix,
  spanLength,
  spanMessages,
  type CompactionEvent,
  type SessionCall,
  type SessionCalls,
} from '../parse/sessionCalls.ts';
import { CHARS_PER_4, countTokens, type TextCounter, type TokenTable } from '../tokens.ts';
import {
  chainValidation,
  defaultProviderOf,
  resumesChain,
  validateTranscript,
  type ChainValidator,
} from '../validate/index.ts';
import type { RuleId } from '../validate/index.ts';

export type { CompactionEvent, SessionCall, SessionCalls } from '../parse/sessionCalls.ts';

/** One request of a file, as `check --requests` lists it. */
export interface RequestInfo {
  /** 1-based, as the picker, `--request N` and the link number it. */
  request: number;
  /** `#3 · claude-opus-4-7 · 12 messages`, `call 14 · 211 messages`. */
  label: string;
  messages: number;
  /** Tokens of the request (system prompt included), by the listing's counter. */
  tokens: number;
  /** The compaction or rollback made just before this call, or null. */
  compaction: CompactionEvent | null;
  /** Session calls: the thread (`main`, `side-1`, …); archives: undefined. */
  thread?: string;
  /** Input tokens the provider reported for this call, when the log has them. */
  usageTokens?: number;
  /**
   * The call failed with this error in the log (Claude Code's API error lines), or the request
   * with this answer in its container (a HAR entry's 4xx/5xx: `HTTP 400: …`).
   */
  apiError?: string;
  /** The failed request (1-based) of the same thread this call came right after: a retry. */
  retryOf?: number;
}

/** A request's verdict: valid, or the first error's rule and code. */
export interface RequestVerdict {
  valid: boolean;
  firstRule: { rule: RuleId; code: string } | null;
}

/** The requests of a file. */
export interface RequestListing {
  /** `session`: a log's model calls; `archive`: a file of several requests; `single`: one request. */
  kind: 'session' | 'archive' | 'single';
  format: FormatId;
  requests: RequestInfo[];
  /** The request opened when none is chosen, 0-based (the page's and `check`'s default). */
  defaultIndex: number;
  /** For `session`: the calls over the session's transcript (spans of it); else null. */
  session: SessionCalls | null;
  /** Request `k`'s transcript (0-based), its messages numbered from 0. @throws RangeError out of range */
  transcriptOf: (k: number) => Transcript;
  /** Notes for the reader (how the calls were found, what a listing leaves out). */
  notes: string[];
}

export interface ListOptions extends Pick<ParseOptions, 'format' | 'name'> {
  /** Token counter (default `CHARS_PER_4`). */
  counter?: TextCounter;
  /** Provider the tokens are counted for (default: the format's). */
  provider?: ProviderId;
}

/** The label of a session call: `call 14 · 211 messages · after a compaction`. */
function callLabel(k: number, c: SessionCall, messages: number): string {
  const side = c.thread === 'main' ? '' : ` · ${c.thread}`;
  const event = c.compaction
    ? ` · after a ${c.compaction.kind === 'rollback' ? 'rollback' : 'compaction'}`
    : '';
  return `call ${k + 1} · ${messages} message${messages === 1 ? '' : 's'}${side}${event}`;
}

/** A call's tokens: the system prompt and its spans of the session's messages. */
function callTokens(table: TokenTable, c: SessionCall): number {
  let tokens = table.system;
  for (const [a, b] of c.spans) tokens += (table.prefix[b] as number) - (table.prefix[a] as number);
  return tokens;
}

function sessionListing(
  s: SessionCalls,
  format: FormatId,
  opts: ListOptions,
  defaultIndex: number | null,
): RequestListing {
  const t = s.transcript;
  const provider = opts.provider ?? defaultProviderOf(t);
  const table = countTokens(t, provider, opts.counter ?? CHARS_PER_4);
  const lastOfThread = new Map<string, number>();
  const requests = s.calls.map((c, k): RequestInfo => {
    const tokens = callTokens(table, c);
    const messages = spanLength(c.spans);
    const info: RequestInfo = {
      request: k + 1,
      label: callLabel(k, c, messages),
      messages,
      tokens,
      compaction: c.compaction,
      thread: c.thread,
    };
    if (c.usageTokens !== undefined) info.usageTokens = c.usageTokens;
    if (c.apiError !== undefined) info.apiError = c.apiError;
    const before = lastOfThread.get(c.thread);
    if (before !== undefined && s.calls[before]?.apiError !== undefined) info.retryOf = before + 1;
    lastOfThread.set(c.thread, k);
    return info;
  });
  return {
    kind: 'session',
    format,
    requests,
    defaultIndex: defaultIndex ?? Math.max(0, requests.length - 1),
    session: s,
    transcriptOf: (k) => {
      const c = s.calls[k];
      if (!c) throw new RangeError(outOfRange(k, s.calls.length));
      return callTranscript(s, c);
    },
    notes: [
      `Each call is the context the model saw before its reply, with the compactions and rollbacks the log records applied.`,
    ],
  };
}

/**
 * The listing of a session log's calls already read (`FormatParser.sessionCalls`): what
 * `listParsedRequests` gives for such a log, without reading the calls again (the page's worker
 * reads them once from a streamed log's records, before it lets them go).
 * @param s the calls over the session's transcript; @param opts the token counter and provider
 */
export function listSessionCalls(s: SessionCalls, opts: ListOptions = {}): RequestListing {
  return sessionListing(s, s.transcript.format, opts, null);
}

/** "request 9 is out of range: this file holds requests 1–4". */
export function outOfRange(k: number, n: number): string {
  return `request ${k + 1} is out of range: ${n === 0 ? 'this file holds no request' : n === 1 ? 'this file holds one request (1)' : `this file holds requests 1–${n}`}`;
}

function archiveListing(
  doc: SourceDoc,
  opts: ListOptions,
  count: Pick<ListOptions, 'counter' | 'provider'>,
  first: {
    transcript: Transcript;
    labels: { label: string }[];
    index: number;
    container: ContainerNote | undefined;
  },
): RequestListing {
  const cache = new Map<number, Transcript>([[first.index, first.transcript]]);
  // Each request's recorded error (a HAR entry's 4xx/5xx), read with its transcript.
  const errors = new Map<number, string>();
  if (first.container?.apiError !== undefined) errors.set(first.index, first.container.apiError);
  const transcriptOf = (k: number): Transcript => {
    if (k < 0 || k >= first.labels.length) throw new RangeError(outOfRange(k, first.labels.length));
    const hit = cache.get(k);
    if (hit) return hit;
    const r = parseDocument(doc, { ...opts, requestIndex: k });
    // A request that does not parse is listed with no message (its parse error is the check's).
    const t: Transcript = r.ok
      ? r.value.transcript
      : { ...first.transcript, messages: [], usage: [], warnings: [r.error.message] };
    const apiError = r.ok ? r.value.container?.apiError : undefined;
    if (apiError !== undefined) errors.set(k, apiError);
    cache.set(k, t);
    return t;
  };
  const requests = first.labels.map((l, k): RequestInfo => {
    const t = transcriptOf(k);
    const provider = count.provider ?? defaultProviderOf(t);
    const apiError = errors.get(k);
    return {
      request: k + 1,
      label: l.label,
      messages: t.messages.length,
      tokens: countTokens(t, provider, count.counter ?? CHARS_PER_4).total,
      compaction: null,
      ...(apiError !== undefined ? { apiError } : {}),
    };
  });
  return {
    kind: 'archive',
    format: first.transcript.format,
    requests,
    defaultIndex: first.index,
    session: null,
    transcriptOf,
    notes: [],
  };
}

/**
 * The requests of a file, for every format.
 * @param text the file's text (JSON, JSON Lines; a container: HAR, OTel, batch, curl, SSE)
 * @param opts format and name hints, the token counter and provider
 * @returns the listing, or the parse error of the file. A session log's calls come from its
 *   format's `sessionCalls` (one per model call); a file of several requests lists them; any
 *   other file is one request. O(file) plus one parse per archived request.
 */
export function listFileRequests(text: string, opts: ListOptions = {}): Result<RequestListing> {
  const src = readSource(text, opts.name);
  if (!src.ok) {
    // An empty or unreadable file: the same error a parse gives.
    return src as { ok: false; error: ParseError };
  }
  return listDocumentRequests(src.value, opts);
}

/** `listFileRequests` for an already read document. */
export function listDocumentRequests(
  doc: SourceDoc,
  opts: ListOptions = {},
): Result<RequestListing> {
  const parsed = parseDocument(doc, parseOptions(opts));
  if (!parsed.ok) return parsed;
  return { ok: true, value: listParsedRequests(doc, parsed.value, opts) };
}

function counting(opts: ListOptions): Pick<ListOptions, 'counter' | 'provider'> {
  return {
    ...(opts.counter ? { counter: opts.counter } : {}),
    ...(opts.provider ? { provider: opts.provider } : {}),
  };
}

function parseOptions(opts: ListOptions): ParseOptions {
  return {
    ...(opts.format ? { format: opts.format } : {}),
    ...(opts.name ? { name: opts.name } : {}),
  };
}

/**
 * `listDocumentRequests` for a document already parsed (the page's worker has both): no second
 * parse, except of an archive's other requests when their transcripts are asked for.
 * @param doc the document as read; @param p `parseDocument(doc, …)`'s value, by default options
 *   (no `requestIndex`: the default request)
 */
export function listParsedRequests(
  doc: SourceDoc,
  p: ParsedTranscript,
  opts: ListOptions = {},
): RequestListing {
  const listing = listParsed(doc, p, opts);
  // The lines a JSON Lines file skipped (the parse's warning, which a listing does not print).
  const broken = doc.kind === 'jsonl' ? brokenLinesNote(doc.lines, doc.brokenLines) : null;
  if (broken) listing.notes.unshift(broken);
  return listing;
}

function listParsed(doc: SourceDoc, p: ParsedTranscript, opts: ListOptions): RequestListing {
  if (p.requests && p.requestIndex !== undefined)
    // Parsed by the format and name only; counted by the caller's counter and provider (they
    // were dropped here: a batch's requests were counted by chars/4 under check --requests while
    // diff counted the same request by o200k, 618 against 871).
    return archiveListing(doc, parseOptions(opts), counting(opts), {
      transcript: p.transcript,
      labels: p.requests,
      index: p.requestIndex,
      container: p.container,
    });
  const t = p.transcript;
  const calls = parserFor(t.format)?.sessionCalls?.(doc, t);
  if (calls && calls.calls.length > 0) return sessionListing(calls, t.format, opts, null);
  const provider = opts.provider ?? defaultProviderOf(t);
  return {
    kind: 'single',
    format: t.format,
    requests: [
      {
        request: 1,
        label: `the request · ${t.messages.length} message${t.messages.length === 1 ? '' : 's'}`,
        messages: t.messages.length,
        tokens: countTokens(t, provider, opts.counter ?? CHARS_PER_4).total,
        compaction: null,
        ...(p.container?.apiError !== undefined ? { apiError: p.container.apiError } : {}),
      },
    ],
    defaultIndex: 0,
    session: null,
    transcriptOf: (k) => {
      if (k !== 0) throw new RangeError(outOfRange(k, 1));
      return t;
    },
    notes: [],
  };
}

/**
 * Every request's tokens by `counter`, as the listing counts them (`RequestInfo.tokens`: the
 * system prompt and the messages sent, the reply not included), for a listing made with another
 * counter: the page lists a file once at chars/4 and counts it again once its o200k BPE has
 * loaded, so the strip's marks say what the header, the diff and `check --requests` say.
 * @param listing the file's requests; @param counter the text counter; @param provider the
 *   provider counted for (default: each request's format's). O(file's text) for a session log.
 */
export function requestTokens(
  listing: RequestListing,
  counter: TextCounter,
  provider?: ProviderId,
): number[] {
  const s = listing.session;
  if (s) {
    const table = countTokens(s.transcript, provider ?? defaultProviderOf(s.transcript), counter);
    return s.calls.map((c) => callTokens(table, c));
  }
  return listing.requests.map((_, k) => {
    const t = listing.transcriptOf(k);
    return countTokens(t, provider ?? defaultProviderOf(t), counter).total;
  });
}

/**
 * The verdict of request `k` (0-based) by a provider (default: the format's).
 * O(request): the page asks for the requests it shows; `check --requests` for all.
 */
export function requestVerdict(
  listing: RequestListing,
  k: number,
  provider?: ProviderId,
  validate: ChainValidator = validateTranscript,
): RequestVerdict {
  const s = listing.session;
  const call = s?.calls[k];
  // A session call is validated as a subset of the session's messages: no copies.
  const v =
    s && call
      ? validate(s.transcript, provider, { messages: spanMessages(s.transcript, call.spans) })
      : validate(listing.transcriptOf(k), provider);
  const first = v.violations.find((x) => x.severity === 'error');
  return { valid: v.valid, firstRule: first ? { rule: first.rule, code: first.code } : null };
}

/** Judges a listing's requests in order (`requestJudge`). */
export interface RequestJudge {
  /** Request `k`'s verdict, as `requestVerdict(listing, k, provider)` gives it. */
  verdict: (k: number) => RequestVerdict;
  /**
   * About how many messages judging request `k` validates: a session call extending the last
   * call of its thread costs what it adds and a pass over its list (÷ 32) when the provider's
   * validator resumes (`resumesChain`); any other request its whole length.
   */
  cost: (k: number) => number;
}

/**
 * A judge of a listing's requests taken in order (the strip's, `check --requests`'): each
 * thread's session calls are validated along one `chainValidation`, so a call that extends the
 * one before costs its new messages, not its whole context (a 20 MB log's 4,842 calls: the sum
 * of their lengths is quadratic in the log). Verdicts equal `requestVerdict`'s in any order
 * (requests.judge.property.test.ts); in order they cost least.
 */
export function requestJudge(listing: RequestListing, provider?: ProviderId): RequestJudge {
  const s = listing.session;
  const resumes =
    s !== null && resumesChain(provider ?? defaultProviderOf(s.transcript), s.transcript.format);
  const chains = new Map<string, ChainValidator>();
  const lastOf = new Map<string, SessionCall>();
  const threadOf = (k: number) => s?.calls[k]?.thread ?? 'main';
  return {
    verdict: (k) => {
      if (!resumes) return requestVerdict(listing, k, provider);
      const thread = threadOf(k);
      let validate = chains.get(thread);
      if (validate === undefined) chains.set(thread, (validate = chainValidation()));
      const call = s?.calls[k];
      if (call) lastOf.set(thread, call);
      return requestVerdict(listing, k, provider, validate);
    },
    cost: (k) => {
      const messages = listing.requests[k]?.messages ?? 0;
      const call = s?.calls[k];
      if (!resumes || !call) return messages;
      const last = lastOf.get(call.thread);
      const shared = last ? commonSpanPrefix(last.spans, call.spans) : 0;
      return messages - shared + Math.ceil(messages / 32);
    },
  };
}

/**
 * How a call's logged API error is introduced: beside a valid call it is an error the structure
 * rules do not explain (a model name, a quota, the server: newcomer, "VALID" above a logged 400
 * read as a contradiction). One wording for the CLI and the page's strip.
 */
export function apiErrorWords(valid: boolean): string {
  return valid
    ? 'the log records an API error that no structure rule explains (the messages are valid; e.g. the model, a quota, the server)'
    : 'the log records an API error';
}

/** `87–89, 93`: ascending 1-based numbers as runs; past five runs, the first five and `…`. */
function numberRuns(list: readonly number[]): string {
  const runs: string[] = [];
  for (let i = 0; i < list.length; ) {
    let j = i;
    while (j + 1 < list.length && list[j + 1] === (list[j] as number) + 1) j++;
    runs.push(i === j ? `${list[i]}` : `${list[i]}–${list[j]}`);
    i = j + 1;
  }
  return runs.length > 5 ? `${runs.slice(0, 5).join(', ')}, …` : runs.join(', ');
}

/**
 * The calls a log records an API error for, in one clause for a listing's headline (the strip's
 * sentence, `check --requests`' last line): a reader must not read "every one passes" and miss
 * three recorded 400s (newcomer, solsmile-windows.jsonl calls 87–89).
 * @param calls the requests in order, each with its logged error (if any) and its structural
 *   verdict (null: not judged yet)
 * @param what how one request is named (`call`, `request`)
 * @returns `the log records an API error for 3 calls (87–89); their messages are valid, so the
 *   structure is not the cause (e.g. the model, a quota, the server)`, or null when none has one
 */
export function apiErrorSummary(
  calls: readonly { apiError?: string | null | undefined; valid: boolean | null }[],
  what: string,
): string | null {
  const hits: { call: number; valid: boolean | null }[] = [];
  calls.forEach((c, k) => {
    if (c.apiError != null) hits.push({ call: k + 1, valid: c.valid });
  });
  return apiErrorSummaryOf(hits, what);
}

/**
 * `apiErrorSummary` from the calls with an API error alone (a listing held in columns need not
 * make an object of each of its calls).
 * @param hits the calls with an error, ascending: 1-based number and verdict (null: not judged)
 */
export function apiErrorSummaryOf(
  hits: readonly { call: number; valid: boolean | null }[],
  what: string,
): string | null {
  if (hits.length === 0) return null;
  let valid = 0;
  let unjudged = 0;
  for (const h of hits) {
    if (h.valid === true) valid++;
    else if (h.valid === null) unjudged++;
  }
  const one = hits.length === 1;
  const numbers = numberRuns(hits.map((h) => h.call));
  const head = `the log records an API error for ${one ? `${what} ${numbers}` : `${hits.length} ${what}s (${numbers})`}`;
  if (unjudged > 0) return head;
  if (valid === hits.length)
    return `${head}; ${one ? 'its' : 'their'} messages are valid, so the structure is not the cause (e.g. the model, a quota, the server)`;
  if (valid === 0) return `${head}; ${one ? 'it fails' : 'they fail'} the structure rules too`;
  return `${head}; ${valid} of them ${valid === 1 ? 'is' : 'are'} valid in structure (there the structure is not the cause)`;
}
