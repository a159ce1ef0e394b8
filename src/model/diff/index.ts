/**
 * Requests and their diffs (issue 33): a file's requests (a session's model calls with their
 * compactions, an archive's requests), the lineage of a request, the diff of any two, and the
 * character diff of one rewritten message.
 *
 * - `listFileRequests(text)` / `listDocumentRequests(doc)` / `listParsedRequests(doc, parsed)`
 *   → `RequestListing` (`requests`,
 *   `transcriptOf(k)`), `requestVerdict(listing, k)`.
 * - `predecessorOf(listing, k)` → the request k continues (lineage, never file order alone).
 * - `diffTranscripts(left, right, options)` → `TranscriptDiff` (summary, sides, rows, broken,
 *   cachePrefix): what `diff --json` and the package's `diff()` print.
 * - `diffRequests(listing, k, against?)`: the diff of request k against its predecessor.
 * - Two policies' cuts at one budget: `diffTranscripts(keptTranscript(t, a), keptTranscript(t,
 *   b))` (exportSummary.ts); both share `t.raw`, so messages are matched by identity.
 * - `diffText(a, b)` / `diffMessages(l, r)` → character hunks (run lazily, in a worker).
 */
import type { ProviderId } from '../types.ts';
import type { TextCounter } from '../tokens.ts';
import { diffTranscripts, type DiffOptions } from './diff.ts';
import { predecessorOf } from './lineage.ts';
import { outOfRange, type RequestListing } from './requests.ts';
import type { TranscriptDiff } from './types.ts';

export * from './types.ts';
export { diffTranscripts, isSealMessage, isSummaryMessage, type DiffOptions } from './diff.ts';
export { diffSummary, messageRanges } from './summary.ts';
export { predecessorOf, type Lineage } from './lineage.ts';
export { diffText, diffMessages, messageText, type TextHunk } from './textDiff.ts';
export {
  listFileRequests,
  listDocumentRequests,
  listParsedRequests,
  listSessionCalls,
  requestVerdict,
  requestJudge,
  outOfRange,
  apiErrorWords,
  apiErrorSummary,
  apiErrorSummaryOf,
  requestTokens,
  type RequestJudge,
  type RequestInfo,
  type RequestListing,
  type RequestVerdict,
  type ListOptions,
  type CompactionEvent,
  type SessionCall,
  type SessionCalls,
} from './requests.ts';
export { alignMessages, longestIncreasing, type Alignment } from './align.ts';

/**
 * The diff of request `k` (0-based) of a file against request `against` (default: its
 * predecessor in lineage, `predecessorOf`).
 * @returns the diff, or an error message: `k` or `against` out of range (naming the range), or
 *   no predecessor (the first call of its conversation: choose one with `against`)
 */
export function diffRequests(
  listing: RequestListing,
  k: number,
  against?: number,
  opts: { provider?: ProviderId; counter?: TextCounter } = {},
): { ok: true; value: TranscriptDiff; lineage: string } | { ok: false; error: string } {
  const n = listing.requests.length;
  if (k < 0 || k >= n) return { ok: false, error: outOfRange(k, n) };
  let m = against;
  let lineage = 'chosen';
  if (m === undefined) {
    const p = predecessorOf(listing, k);
    if (p.request === null)
      return {
        ok: false,
        error: `request ${k + 1} has no predecessor in its conversation (${p.reason}); name one to compare with`,
      };
    m = p.request;
    lineage = p.reason;
  } else if (m < 0 || m >= n) return { ok: false, error: outOfRange(m, n) };
  const options: DiffOptions = {
    leftRequest: m + 1,
    rightRequest: k + 1,
    ...(opts.provider ? { provider: opts.provider } : {}),
    ...(opts.counter ? { counter: opts.counter } : {}),
  };
  const value = diffTranscripts(listing.transcriptOf(m), listing.transcriptOf(k), options);
  return { ok: true, value, lineage };
}
