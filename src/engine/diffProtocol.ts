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
  requestJudge,
  requestTokens,
  type RequestInfo,
  type RequestListing,
  type RequestVerdict,
  type TextHunk,
  type TranscriptDiff,
} from '../model/diff/index.ts';
import { decodeBytes, notGzip, readAsTextNote, withReadNote } from '../model/parse/bytes.ts';
import { messageLabels } from '../model/messageLabels.ts';
import { CHARS_PER_4, type TextCounter } from '../model/tokens.ts';
import type { FormatId, ProviderId, Result, Transcript } from '../model/types.ts';
import { maxFileBytes, STREAM_MIN_BYTES } from './limits.ts';
import { packRequests, type RequestColumns } from './requestColumns.ts';

/**
 * The file a job reads: its text, or (a streamed file, whose text the page does not keep) its
 * bytes as a Blob; and the user's choices (format, provider).
 */
export interface FileRef {
  /** The file's text; '' when `file` is set. */
  text: string;
  /**
   * The file itself (the session's `source.file`), when the page holds no text of it: the diff
   * worker reads and decodes its bytes (`ListingMemo.read`). Posting a Blob copies no bytes.
   */
  file?: Blob;
  name: string;
  format: FormatId | null;
  provider: ProviderId | null;
}

/** The requests of a file, each with its verdict. */
export interface RequestsJob extends FileRef {
  kind: 'requests';
  /**
   * How the requests' tokens are counted: `exact` as the page's header, the diff and `check
   * --requests` count them (the o200k BPE, Claude's factors over it), `estimate` by chars/4.
   */
  tokens?: DiffTokens;
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
  /**
   * The row label to show (`#3`, `#3.2`, `summary`) when it is not the message's position: the
   * sides of one transcript's cuts keep the timeline's numbers (`briefsOf` with `rowLabels`).
   */
  label?: string;
  /** Tool ids this message calls, and those it answers. */
  uses: string[];
  results: string[];
}

/**
 * The briefs of a transcript's messages, in order. O(messages + their text up to the brief).
 * @param rowLabels label each by its row in the source (`messageLabels`: the raw index, so a
 *   cut of a transcript keeps the timeline's numbers; an eviction's summary is `summary`)
 */
export function briefsOf(t: Transcript, rowLabels = false): MessageBrief[] {
  const labels = rowLabels ? messageLabels(t.messages) : null;
  return t.messages.map((m, i) => {
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
      ...(labels ? { label: m.rawIndex < 0 ? 'summary' : labels.of(i) } : {}),
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
      /** Every request, in columns (`requestAt` reads one). */
      requests: RequestColumns;
      defaultIndex: number;
      /** The counter of `tokens` (`o200k_base`, or `chars/4`: an estimate). */
      tokenEncoding?: string;
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
 * What a job of a Blob answers where its bytes were not read first (`ListingMemo.read`: the
 * page's fallback when no diff worker runs, which does not read a streamed file on the page).
 */
export const NEEDS_WORKER = `This file was read in the worker as it streamed in (over ${STREAM_MIN_BYTES / 2 ** 20} MB, the page keeps no copy of its text) and the diff worker could not start here, so its requests are compared by the command line: run \`diff FILE --request N\`.`;

/**
 * True when two Blobs are the same file: the same object, or (a File posted again to the worker
 * arrives as a new object) Files of the same name, size, type and modification time.
 */
function sameBlob(a: Blob, b: Blob): boolean {
  if (a === b) return true;
  return (
    typeof File !== 'undefined' &&
    a instanceof File &&
    b instanceof File &&
    a.name === b.name &&
    a.size === b.size &&
    a.type === b.type &&
    a.lastModified === b.lastModified
  );
}

/** True when `f` names the file `text`/`blob` (a Blob job by its Blob, else by its text). */
function sameSource(f: FileRef, text: string, blob: Blob | undefined): boolean {
  return f.file
    ? blob !== undefined && sameBlob(blob, f.file)
    : blob === undefined && text === f.text;
}

/**
 * The last file's listing, kept by whoever answers jobs: the diff worker holds one (a diff after
 * the strip's summaries reuses it); the page's fallback makes one per job (it keeps nothing).
 * A job naming its file by a Blob is listed from the text `read` decoded of it, keyed by the
 * Blob (and name and format), so a diff and its character diffs read the file once.
 */
export class ListingMemo {
  private last: {
    text: string;
    file: Blob | undefined;
    name: string;
    format: FormatId | null;
    listing: RequestListing;
  } | null = null;
  /** The Blob read last and its text (or why it is not text), until it is listed. */
  private bytes: {
    file: Blob;
    name: string;
    text: Promise<Result<string>>;
    /** The text once read (null while reading). */
    value: Result<string> | null;
    /** How it was read when that is not what its name says (`readAsTextNote`): said with an error. */
    note: string | undefined;
  } | null = null;

  /**
   * Read the bytes of a Blob job's file (once per file), decoded as a dropped file is
   * (`decodeBytes`: gzip inflated up to `maxFileBytes`, a `.gz` that is not gzip read as text,
   * UTF-8 checked), so that `of` can list it. Does nothing for a job of text, or of the file
   * listed last. Never rejects: a read failure is listed as the file's error.
   */
  async read(f: FileRef): Promise<void> {
    const file = f.file;
    if (!file) return;
    const l = this.last;
    if (l && sameSource(f, l.text, l.file) && l.name === f.name && l.format === f.format) return;
    const b = this.bytes;
    if (b && sameBlob(b.file, file) && b.name === f.name) {
      await b.text;
      return;
    }
    // The name as picked (`s.jsonl.gz`; the job's is the page's, without `.gz`).
    const picked = typeof File !== 'undefined' && file instanceof File ? file.name : f.name;
    let note: string | undefined;
    const text = file.arrayBuffer().then(
      (buffer) => {
        const bytes = new Uint8Array(buffer);
        const misnamed = notGzip(picked, bytes.subarray(0, 8));
        if (misnamed && !misnamed.refusal) note = readAsTextNote(picked, misnamed);
        return decodeBytes(bytes, maxFileBytes(), picked);
      },
      (e: unknown): Result<string> => ({
        ok: false,
        error: {
          kind: 'binary',
          message: `The file could not be read: ${e instanceof Error ? e.message : String(e)}`,
        },
      }),
    );
    const read: NonNullable<ListingMemo['bytes']> = { file, name: f.name, text, value: null, note };
    this.bytes = read;
    read.value = await text;
    read.note = note;
  }

  /**
   * The requests of a file (listed once per text or Blob, name and format), or why they cannot
   * be; a Blob job whose bytes were not `read` first answers `NEEDS_WORKER`.
   */
  of(f: FileRef): RequestListing | string {
    const l = this.last;
    if (l && sameSource(f, l.text, l.file) && l.name === f.name && l.format === f.format)
      return l.listing;
    let text = f.text;
    const b = this.bytes;
    let note: string | undefined;
    if (f.file) {
      const read = b && sameBlob(b.file, f.file) && b.name === f.name ? b.value : null;
      if (!read) return NEEDS_WORKER;
      if (!read.ok) return read.error.message;
      text = read.value;
      note = b?.note;
    }
    const r = listFileRequests(text, {
      ...(f.format ? { format: f.format } : {}),
      ...(f.name ? { name: f.name } : {}),
      ...(f.provider ? { provider: f.provider } : {}),
    });
    if (!r.ok) return withReadNote(r.error, note).message;
    // A Blob's listing is kept by the Blob: its text is let go (the page's copy is the Blob).
    this.last = {
      text: f.file ? '' : text,
      file: f.file,
      name: f.name,
      format: f.format,
      listing: r.value,
    };
    if (f.file) this.bytes = null;
    return r.value;
  }
}

function requestsAnswer(
  job: RequestsJob,
  memo: ListingMemo,
  counter: TextCounter | undefined,
): RequestsAnswer {
  const listing = memo.of(job);
  if (typeof listing === 'string') return { ok: false, error: listing };
  const judge = requestJudge(listing, job.provider ?? undefined);
  // The listing is counted by chars/4 (made once per file); counted again by the BPE when asked.
  const tokens = counter ? requestTokens(listing, counter, job.provider ?? undefined) : null;
  const requests = packRequests(listing.requests.length, (k): RequestSummary => {
    const r = listing.requests[k] as RequestInfo;
    return {
      ...r,
      ...(tokens ? { tokens: tokens[k] ?? r.tokens } : {}),
      ...judge.verdict(k),
      retry: r.retryOf !== undefined,
    };
  });
  return {
    ok: true,
    kind: listing.kind,
    requests,
    defaultIndex: listing.defaultIndex,
    tokenEncoding: counter?.encoding ?? CHARS_PER_4.encoding,
  };
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

/**
 * Read the file of a job that names it by a Blob into `memo` (`ListingMemo.read`), before
 * `answerDiffJob`: what the diff worker does with each job. Nothing for other jobs.
 */
export async function readJobFile(job: DiffJob, memo: ListingMemo): Promise<void> {
  if (job.kind === 'requests' || job.kind === 'request-diff' || job.kind === 'request-chars')
    await memo.read(job);
}

/** True when `job` counts its tokens with the BPE (`tokens: 'exact'`): load it first. */
export function wantsBpe(job: DiffJob): boolean {
  return (
    (job.kind === 'requests' || job.kind === 'request-diff' || job.kind === 'transcript-diff') &&
    job.tokens === 'exact'
  );
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
      return requestsAnswer(job, memo, counter) as DiffJobAnswer<J>;
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
        left: briefsOf(job.left, job.sameSource),
        right: briefsOf(job.right, job.sameSource),
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
