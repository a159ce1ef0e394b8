/**
 * Messages between the page and the diff worker (diff.worker.ts): a file's requests with their
 * verdicts, for the strip, the diff of two requests, and the character diff of a rewritten
 * message (issue 33). Each job is answered by `answerDiffJob`, in the worker or, where no worker
 * runs, on the page. The model does the work (`model/diff/`).
 */
import {
  diffMessages,
  diffRequests,
  diffText,
  messageText,
  diffTranscripts,
  listFileRequests,
  requestVerdict,
  type RequestInfo,
  type RequestListing,
  type RequestVerdict,
  type TextHunk,
  type TranscriptDiff,
} from '../model/diff/index.ts';
import type { TextCounter } from '../model/tokens.ts';
import type { FormatId, ProviderId, Transcript } from '../model/types.ts';

/** The file a job reads: its text and the user's choices (format, provider). */
export interface FileRef {
  text: string;
  name: string;
  format: FormatId | null;
  provider: ProviderId | null;
}

/** The requests of a file, each with its verdict. */
export interface RequestsJob extends FileRef {
  kind: 'requests';
}

/**
 * A diff's token counter: `exact` counts as the CLI does (the o200k BPE, `loadBpeCounter`, and
 * for Claude its factors over it), `estimate` by chars/4. The page asks for `exact` once its own
 * exact tokenizer is loaded, and says "estimated" until then.
 */
export type DiffTokens = 'exact' | 'estimate';

/** The diff of request `right` of a file against `left` (0-based; null: its predecessor). */
export interface RequestDiffJob extends FileRef {
  kind: 'request-diff';
  left: number | null;
  right: number;
  tokens?: DiffTokens;
}

/** The diff of two transcripts (two pasted ones, two policies' cuts). */
export interface TranscriptDiffJob {
  kind: 'transcript-diff';
  left: Transcript;
  right: Transcript;
  leftLabel: string;
  rightLabel: string;
  provider: ProviderId | null;
  /** Both sides are cuts of one transcript (messages match by their source identity). */
  sameSource: boolean;
  tokens?: DiffTokens;
}

/** The character diff of two texts (a rewritten message's before and after). */
export interface CharsJob {
  kind: 'chars';
  before: string;
  after: string;
}

/**
 * The character diff of messages `[leftFrom, leftTo)` of request `left` (their texts joined: the
 * span a summary stands for, or one message) and message `rightIndex` of request `right`.
 */
export interface RequestCharsJob extends FileRef {
  kind: 'request-chars';
  left: number;
  right: number;
  leftFrom: number;
  leftTo: number;
  rightIndex: number;
}

export type DiffJob = RequestsJob | RequestDiffJob | TranscriptDiffJob | CharsJob | RequestCharsJob;

/** Longest text a diff row shows of a message (the whole text is in its character diff). */
export const BRIEF_CHARS = 160;

/** What a diff row shows of one message: role, the start of its text, its tool ids. */
export interface MessageBrief {
  role: string;
  text: string;
  /** Tool ids this message calls, and those it answers. */
  uses: string[];
  results: string[];
}

/** The briefs of a transcript's messages, in order. O(messages + their text up to the brief). */
export function briefsOf(t: Transcript): MessageBrief[] {
  return t.messages.map((m) => {
    const uses: string[] = [];
    const results: string[] = [];
    for (const b of m.blocks) {
      if (b.type === 'tool_use' && b.id) uses.push(b.id);
      if (b.type === 'tool_result' && b.toolUseId) results.push(b.toolUseId);
    }
    const text = messageText(m);
    return {
      role: m.role,
      text: text.length > BRIEF_CHARS ? `${text.slice(0, BRIEF_CHARS)}…` : text,
      uses,
      results,
    };
  });
}

/** One request of a file as the strip draws it: the listing's row, its verdict, a retry flag. */
export interface RequestSummary extends RequestInfo, RequestVerdict {
  /** The call retries a failed one (`retryOf`: the call before it in its thread recorded an API error). */
  retry: boolean;
}

/** A file's requests (`listFileRequests`), with verdicts; `error` when the file does not parse. */
export type RequestsAnswer =
  | {
      ok: true;
      kind: RequestListing['kind'];
      requests: RequestSummary[];
      defaultIndex: number;
      /**
       * How many requests, from the first, are judged (the others' `valid` and `firstRule` say
       * nothing yet): a streamed log's calls are judged within a budget (runRequests.ts).
       * Undefined: every one.
       */
      judged?: number;
    }
  | { ok: false; error: string };

/**
 * A diff, with what its rows show of each side's messages and the two sides' 0-based request
 * numbers (null: not requests of one file), or why there is none (out of range, no predecessor).
 */
export type DiffAnswer =
  | {
      ok: true;
      diff: TranscriptDiff;
      lineage: string;
      left: MessageBrief[];
      right: MessageBrief[];
      requests: { left: number; right: number } | null;
    }
  | { ok: false; error: string };

/** What each job answers. */
export interface DiffJobAnswers {
  requests: RequestsAnswer;
  'request-diff': DiffAnswer;
  'transcript-diff': DiffAnswer;
  chars: TextHunk[];
  'request-chars': TextHunk[];
}

export type DiffJobAnswer<J extends DiffJob> = DiffJobAnswers[J['kind']];

/** A job as posted: with its id. */
export type DiffJobMessage = DiffJob & { id: number };

export type DiffWorkerAnswer =
  | { id: number; ok: true; value: unknown }
  | { id: number; ok: false; error: string };

/**
 * The last file's listing, kept by whoever answers jobs: the diff worker holds one (a diff after
 * the strip's summaries reuses it); the page's fallback makes one per job (it keeps nothing).
 */
export class ListingMemo {
  private last: {
    text: string;
    name: string;
    format: FormatId | null;
    listing: RequestListing;
  } | null = null;

  /** The requests of a file (listed once per text, name and format), or why they cannot be. */
  of(f: FileRef): RequestListing | string {
    const l = this.last;
    if (l && l.text === f.text && l.name === f.name && l.format === f.format) return l.listing;
    const r = listFileRequests(f.text, {
      ...(f.format ? { format: f.format } : {}),
      ...(f.name ? { name: f.name } : {}),
      ...(f.provider ? { provider: f.provider } : {}),
    });
    if (!r.ok) return r.error.message;
    this.last = { text: f.text, name: f.name, format: f.format, listing: r.value };
    return r.value;
  }
}

function requestsAnswer(job: RequestsJob, memo: ListingMemo): RequestsAnswer {
  const listing = memo.of(job);
  if (typeof listing === 'string') return { ok: false, error: listing };
  const requests = listing.requests.map(
    (r, k): RequestSummary => ({
      ...r,
      ...requestVerdict(listing, k, job.provider ?? undefined),
      retry: r.retryOf !== undefined,
    }),
  );
  return { ok: true, kind: listing.kind, requests, defaultIndex: listing.defaultIndex };
}

function requestDiffAnswer(
  job: RequestDiffJob,
  counter: TextCounter | undefined,
  memo: ListingMemo,
): DiffAnswer {
  const listing = memo.of(job);
  if (typeof listing === 'string') return { ok: false, error: listing };
  const r = diffRequests(listing, job.right, job.left ?? undefined, {
    ...(job.provider ? { provider: job.provider } : {}),
    ...(counter ? { counter } : {}),
  });
  if (!r.ok) return r;
  const left = (r.value.left.request ?? 1) - 1;
  const right = (r.value.right.request ?? 1) - 1;
  return {
    ok: true,
    diff: r.value,
    lineage: r.lineage,
    left: briefsOf(listing.transcriptOf(left)),
    right: briefsOf(listing.transcriptOf(right)),
    requests: { left, right },
  };
}

function requestCharsAnswer(job: RequestCharsJob, memo: ListingMemo): TextHunk[] {
  const listing = memo.of(job);
  if (typeof listing === 'string') throw new Error(listing);
  const a = listing.transcriptOf(job.left).messages.slice(job.leftFrom, job.leftTo);
  const b = listing.transcriptOf(job.right).messages[job.rightIndex];
  if (a.length === 0 || !b) throw new RangeError('no such message');
  return a.length === 1 && a[0]
    ? diffMessages(a[0], b)
    : diffText(a.map(messageText).join('\n\n'), messageText(b));
}

/** True when `job` counts its tokens with the BPE (`tokens: 'exact'`): load it first. */
export function wantsBpe(job: DiffJob): boolean {
  return (job.kind === 'request-diff' || job.kind === 'transcript-diff') && job.tokens === 'exact';
}

/**
 * The answer to one job. Throws what the model throws (the worker turns it into `ok: false`).
 * @param bpe the loaded BPE counter (`loadBpeCounter()`), used by a job that asks for `exact`
 *   tokens; without it such a job is counted by chars/4 (its `tokenBasis` says so)
 * @param memo the last file's listing (the diff worker's; default: none kept)
 */
export function answerDiffJob<J extends DiffJob>(
  job: J,
  bpe?: TextCounter,
  memo: ListingMemo = new ListingMemo(),
): DiffJobAnswer<J> {
  const counter = wantsBpe(job) ? bpe : undefined;
  switch (job.kind) {
    case 'requests':
      return requestsAnswer(job, memo) as DiffJobAnswer<J>;
    case 'request-diff':
      return requestDiffAnswer(job, counter, memo) as DiffJobAnswer<J>;
    case 'transcript-diff': {
      const diff = diffTranscripts(job.left, job.right, {
        leftLabel: job.leftLabel,
        rightLabel: job.rightLabel,
        sameSource: job.sameSource,
        ...(job.provider ? { provider: job.provider } : {}),
        ...(counter ? { counter } : {}),
      });
      return {
        ok: true,
        diff,
        lineage: 'chosen',
        left: briefsOf(job.left),
        right: briefsOf(job.right),
        requests: null,
      } as DiffJobAnswer<J>;
    }
    case 'chars':
      return diffText(job.before, job.after) as DiffJobAnswer<J>;
    case 'request-chars':
      return requestCharsAnswer(job, memo) as DiffJobAnswer<J>;
  }
  throw new Error('unknown diff job');
}
