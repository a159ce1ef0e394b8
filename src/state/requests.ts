/**
 * A file's requests for the strip (issue 33): the summaries the diff worker makes of each request
 * a file holds (`model/requestList.ts`), adopted here (the one owner of that answer), and the
 * strip's model derived from them and the request shown (memoised; never stored in the app store,
 * which holds only the user's choice, `requestIndex`).
 */
import { createStore } from 'zustand';
import { diffJobOffThread } from '../engine/diffClient.ts';
import type { RequestsJob } from '../engine/diffProtocol.ts';
import type { CompactionEvent, RequestSummary } from '../model/requestList.ts';
import { memoN } from './memo.ts';
import type { AppState } from './store.ts';

/** The summaries of the file shown, once the worker has made them. */
interface SummaryAnswer {
  job: RequestsJob | null;
  /** null while being made, or when the file holds one request. */
  value: RequestSummary[] | null;
}

/** The adopted answer (one file at a time: the one shown). */
export const requestSummaryStore = createStore<SummaryAnswer>()(() => ({ job: null, value: null }));

/** The job that summarises the store's file; the same object while its inputs do not change. */
export const selectRequestsJob = memoN(
  (
    source: AppState['source'],
    format: AppState['formatOverride'],
    provider: AppState['provider'],
  ): RequestsJob | null =>
    // A streamed large file holds no text on the page: the strip then shows labels only.
    source.text === ''
      ? null
      : { kind: 'requests', text: source.text, name: source.name, format, provider },
);

/**
 * Ask the worker for `job`'s summaries unless they are the ones held or being made; the answer
 * is adopted only while `job` is still the one asked for last.
 */
export function ensureRequestSummaries(job: RequestsJob | null): void {
  const cur = requestSummaryStore.getState();
  if (cur.job === job) return;
  requestSummaryStore.setState({ job, value: null });
  if (job === null) return;
  void diffJobOffThread(job).then((value) => {
    if (requestSummaryStore.getState().job === job) requestSummaryStore.setState({ job, value });
  });
}

/** One mark of the strip. */
export interface StripMark {
  /** 0-based (the store's `requestIndex`); the page writes it 1-based. */
  index: number;
  label: string;
  /** chars/4 tokens, or null while the summaries are being made. */
  tokens: number | null;
  messages: number | null;
  /** `ok`, `bad` (a 400), `unread` (did not parse), `pending` (not judged yet). */
  tone: 'ok' | 'bad' | 'unread' | 'pending';
  /** The first error's catalogue code (`A1`), or null. */
  code: string | null;
  compaction: CompactionEvent | null;
  retry: boolean;
  fault: string | null;
  /** The mark's height, 0–1 of the tallest (tokens), 1 while unknown. */
  height: number;
}

/** What the strip draws: its marks, which is shown, and the sentence over them. */
export interface StripModel {
  marks: StripMark[];
  /** 0-based index of the request shown. */
  chosen: number;
  /** 0-based index of the first request that gets a 400, or null (none, or not judged yet). */
  firstFailing: number | null;
  /** One sentence: how many requests, and the first failing one in words. */
  sentence: string;
}

const fmt = (n: number) => n.toLocaleString('en-US');

function markOf(
  index: number,
  label: string,
  s: RequestSummary | undefined,
  max: number,
): StripMark {
  if (!s)
    return {
      index,
      label,
      tokens: null,
      messages: null,
      tone: 'pending',
      code: null,
      compaction: null,
      retry: false,
      fault: null,
      height: 1,
    };
  return {
    index,
    label,
    tokens: s.tokens,
    messages: s.messages,
    tone: s.valid === null ? 'unread' : s.valid ? 'ok' : 'bad',
    code: s.firstRule?.code ?? null,
    compaction: s.compaction,
    retry: s.retry,
    fault: s.fault,
    height: max > 0 ? Math.max(0.08, s.tokens / max) : 1,
  };
}

/**
 * The strip's model.
 * @param labels the parse result's `requests` (one label per request), or undefined
 * @param chosen the parse result's `requestIndex` (the request shown)
 * @param summaries the worker's summaries of the same file, or null while being made
 * @returns null when the file holds fewer than two requests
 */
export const selectStrip = memoN(
  (
    labels: readonly { label: string }[] | undefined,
    chosen: number | undefined,
    summaries: readonly RequestSummary[] | null,
  ): StripModel | null => {
    if (!labels || labels.length < 2) return null;
    const usable = summaries && summaries.length === labels.length ? summaries : null;
    const max = usable ? Math.max(...usable.map((s) => s.tokens)) : 0;
    const marks = labels.map((l, i) => markOf(i, l.label, usable?.[i], max));
    const failing = marks.find((m) => m.tone === 'bad');
    const n = `${fmt(labels.length)} requests`;
    const sentence = !usable
      ? `${n}; judging each…`
      : failing
        ? `${n}; the first failing is request ${failing.index + 1}${failing.code ? ` (${failing.code})` : ''}${failing.index === 0 ? '.' : `: requests 1–${failing.index} pass.`}`
        : marks.some((m) => m.tone === 'unread')
          ? `${n}; none fails, ${marks.filter((m) => m.tone === 'unread').length} could not be read.`
          : `${n}; every one passes.`;
    return {
      marks,
      chosen: chosen ?? labels.length - 1,
      firstFailing: failing ? failing.index : null,
      sentence,
    };
  },
);
