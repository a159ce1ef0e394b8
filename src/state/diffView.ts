/**
 * The diff view (issue 33): which two transcripts it compares, from the user's choice (`diff` in
 * the store) — the request shown against its predecessor, two requests of the file, the two
 * policies' cuts at the budget, or the transcript shown against a pasted one — as the worker job
 * that diffs them; the worker's answer, adopted here; and what the view derives from it (the
 * rows that changed, each side's arcs, where the cache prefix ends), memoised on the answer.
 */
import { diffJobOffThread } from '../engine/diffClient.ts';
import type {
  DiffTokens,
  DiffAnswer,
  RequestCharsJob,
  RequestDiffJob,
  CharsJob,
  TranscriptDiffJob,
} from '../engine/diffProtocol.ts';
import { messageText, type DiffRow, type TextHunk } from '../model/diff/index.ts';
import { keptTranscript } from '../model/exportSummary.ts';
import type { PolicyResult } from '../model/evict/policies.ts';
import { parseTranscript } from '../model/parse/index.ts';
import type { ProviderId, Transcript } from '../model/types.ts';
import { memoN, sessionSlot } from './session/index.ts';
import type { AppState, DiffChoice, Source } from './store.ts';

/** A job of the diff view: two requests of the file, or two transcripts. */
export type DiffViewJob = RequestDiffJob | TranscriptDiffJob;

/**
 * The job for a request diff (`previous` or `requests`), or null for another choice.
 * @param chosen the request shown (0-based), or undefined (a session log shown whole: its last call)
 * @param count how many requests the file holds (the listing's), or null while unknown
 * @param tokens how the diff counts tokens (`exact` once the page's BPE is loaded)
 */
export const selectRequestDiffJob = memoN(
  (
    source: Source,
    format: AppState['formatOverride'],
    provider: AppState['provider'],
    diff: DiffChoice,
    chosen: number | undefined,
    count: number | null,
    tokens: DiffTokens = 'estimate',
  ): RequestDiffJob | null => {
    if (diff === null) return null;
    // A streamed file holds no text on the page: the diff worker reads its Blob.
    const blob = source.text === '' ? source.file : undefined;
    if (source.text === '' && !blob) return null;
    const file = {
      text: source.text,
      ...(blob ? { file: blob } : {}),
      name: source.name,
      format,
      provider,
      tokens,
    };
    if (diff.kind === 'requests')
      return { kind: 'request-diff', ...file, left: diff.left, right: diff.right };
    if (diff.kind !== 'previous') return null;
    const right = chosen ?? (count !== null ? count - 1 : null);
    return right === null ? null : { kind: 'request-diff', ...file, left: null, right };
  },
);

/** The transcript of a pasted or dropped other side, parsed on the page; null when it fails. */
export const selectPastedTranscript = memoN((other: Source): Transcript | null => {
  const r = parseTranscript(other.text, other.name ? { name: other.name } : {});
  return r.ok ? r.value.transcript : null;
});

/** The job comparing the transcript shown with a pasted one. */
export const selectPastedDiffJob = memoN(
  (
    shown: Transcript,
    other: Transcript,
    provider: ProviderId | null,
    tokens: DiffTokens = 'estimate',
  ): TranscriptDiffJob => ({
    kind: 'transcript-diff',
    left: shown,
    right: other,
    leftLabel: 'the transcript shown',
    rightLabel: 'the pasted transcript',
    provider,
    sameSource: false,
    tokens,
  }),
);

/**
 * The job comparing the two policies' cuts at the simulator's budget (the chosen policy left,
 * the compared one right), both cuts of the transcript shown.
 */
export const selectCutsDiffJob = memoN(
  (
    t: Transcript,
    results: readonly [PolicyResult, PolicyResult],
    names: readonly [string, string],
    budget: number,
    provider: ProviderId,
    tokens: DiffTokens = 'estimate',
  ): TranscriptDiffJob => ({
    kind: 'transcript-diff',
    left: keptTranscript(t, results[0]),
    right: keptTranscript(t, results[1]),
    leftLabel: `the ${names[0]} policy's cut at ${budget.toLocaleString('en-US')} tokens`,
    rightLabel: `the ${names[1]} policy's cut`,
    provider,
    sameSource: true,
    tokens,
  }),
);

/** The diff the view shows. */
export const diffAnswers = sessionSlot<DiffViewJob, DiffAnswer>('diff', (j) =>
  diffJobOffThread(j).catch((e: unknown) => ({
    ok: false as const,
    error: e instanceof Error ? e.message : String(e),
  })),
);

/** The character diff of the rewritten row opened (one at a time). */
export const charDiffAnswers = sessionSlot<RequestCharsJob | CharsJob, TextHunk[]>(
  'charDiff',
  (j) => diffJobOffThread(j),
);

/** One arc of a side: a tool call's row and its result's row (row indices), by tool id. */
export interface DiffArc {
  id: string;
  from: number;
  to: number;
  /** The change broke this pairing (its id is in `broken`). */
  broken: boolean;
  /**
   * A broken pairing whose partner is not on this side: a stub drawn from its one row (`from`
   * = `to`), towards where the partner would be — `up` from a result whose call is gone, `down`
   * from a call whose result is gone.
   */
  stub?: 'up' | 'down';
}

/** What the view derives from a diff. */
export interface DiffNav {
  /** Rows that are not `kept`, in order (the change keys step through them). */
  changes: number[];
  /** Arcs of each side (rows, not message indices). */
  arcs: { left: DiffArc[]; right: DiffArc[] };
  /** The same arcs indexed by the rows they span, to find the ones in view (`arcsInRows`). */
  arcIndex: { left: ArcIndex; right: ArcIndex };
  /** Rows holding a message of the right side whose pairing broke (an orphan, an unanswered call). */
  brokenRows: Set<number>;
  /** The first row past the cache prefix (the prefix ends above it), or null when all match. */
  cacheBreakRow: number | null;
}

function sideArcs(
  rows: readonly { left: number | null; right: number | null }[],
  side: 'left' | 'right',
  briefs: readonly { uses: string[]; results: string[] }[],
  broken: ReadonlySet<string>,
): DiffArc[] {
  const rowOf = new Map<number, number>();
  rows.forEach((r, i) => {
    const m = r[side];
    if (m !== null && !rowOf.has(m)) rowOf.set(m, i);
  });
  const useRow = new Map<string, number>();
  briefs.forEach((b, m) => {
    for (const id of b.uses) if (!useRow.has(id)) useRow.set(id, rowOf.get(m) ?? -1);
  });
  const arcs: DiffArc[] = [];
  const answered = new Set<string>();
  briefs.forEach((b, m) => {
    for (const id of b.results) {
      const from = useRow.get(id);
      const to = rowOf.get(m);
      if (to === undefined) continue;
      answered.add(id);
      if (from === undefined || from < 0) {
        // A result whose call is not on this side: a red stub where the change broke it.
        if (side === 'right' && broken.has(id))
          arcs.push({ id, from: to, to, broken: true, stub: 'up' });
        continue;
      }
      arcs.push({ id, from, to, broken: side === 'right' && broken.has(id) });
    }
  });
  if (side === 'right')
    for (const [id, row] of useRow)
      if (row >= 0 && !answered.has(id) && broken.has(id))
        arcs.push({ id, from: row, to: row, broken: true, stub: 'down' });
  return arcs;
}

/**
 * A side's arcs indexed by the rows they span: sorted by their top row, with a max-tree of their
 * bottom rows over that order, so the arcs crossing rows `[first, last]` are found in
 * O((k + 1) log n) for k arcs found — a scroll frame's work follows the rows shown, not the
 * 100,000 a side.
 */
export interface ArcIndex {
  /** The arcs, by top row (min of `from`, `to`). */
  arcs: readonly DiffArc[];
  /** Top row of each arc, ascending. */
  tops: Int32Array;
  /** Leaves from `size`: each arc's bottom row (−1 past the last); node k the max of 2k, 2k+1. */
  maxBottom: Int32Array;
  size: number;
}

/** Index `arcs` by the rows they span (see `ArcIndex`). O(n log n). */
export function indexArcs(arcs: readonly DiffArc[]): ArcIndex {
  const sorted = [...arcs].sort((a, b) => Math.min(a.from, a.to) - Math.min(b.from, b.to));
  let size = 1;
  while (size < sorted.length) size *= 2;
  const tops = new Int32Array(sorted.length);
  const maxBottom = new Int32Array(2 * size).fill(-1);
  sorted.forEach((a, i) => {
    tops[i] = Math.min(a.from, a.to);
    maxBottom[size + i] = Math.max(a.from, a.to);
  });
  for (let k = size - 1; k >= 1; k--)
    maxBottom[k] = Math.max(maxBottom[2 * k] as number, maxBottom[2 * k + 1] as number);
  return { arcs: sorted, tops, maxBottom, size };
}

/** The arcs of `ix` that reach into rows `[first, last]` (by top row), each once. */
export function arcsInRows(ix: ArcIndex, first: number, last: number): DiffArc[] {
  // Candidates: every arc whose top is at or above `last` (a prefix of the order)…
  let lo = 0;
  let hi = ix.tops.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if ((ix.tops[mid] as number) <= last) lo = mid + 1;
    else hi = mid;
  }
  const end = lo;
  const out: DiffArc[] = [];
  if (end === 0) return out;
  // …of which those whose bottom is at or below `first`: walk down the max-tree, skipping
  // subtrees that end above `first` or start past the prefix.
  const stack: [number, number, number][] = [[1, 0, ix.size]];
  while (stack.length > 0) {
    const [k, a, b] = stack.pop() as [number, number, number];
    if (a >= end || (ix.maxBottom[k] as number) < first) continue;
    if (b - a === 1) {
      out.push(ix.arcs[a] as DiffArc);
      continue;
    }
    const m = (a + b) >> 1;
    stack.push([2 * k + 1, m, b], [2 * k, a, m]);
  }
  return out;
}

/** The view's derived data, memoised on the answer. */
export const selectDiffNav = memoN((a: DiffAnswer | null): DiffNav | null => {
  if (!a?.ok) return null;
  const rows = a.diff.rows;
  const changes: number[] = [];
  rows.forEach((r, i) => {
    if (r.change !== 'kept') changes.push(i);
  });
  const broken = new Set(a.diff.broken.map((b) => b.id));
  const brokenMessages = new Set(a.diff.broken.map((b) => b.messageIndex));
  const brokenRows = new Set<number>();
  rows.forEach((r, i) => {
    if (r.right !== null && brokenMessages.has(r.right)) brokenRows.add(i);
  });
  const prefix = a.diff.cachePrefix.messages;
  // The first row that is not a kept message of the shared prefix: the prefix ends above it.
  const cut = rows.findIndex((r) => !(r.change === 'kept' && r.right !== null && r.right < prefix));
  const allMatch = prefix >= a.right.length && prefix >= a.left.length;
  const left = sideArcs(rows, 'left', a.left, broken);
  const right = sideArcs(rows, 'right', a.right, broken);
  return {
    changes,
    arcs: { left, right },
    arcIndex: { left: indexArcs(left), right: indexArcs(right) },
    brokenRows,
    cacheBreakRow: allMatch ? null : cut < 0 ? rows.length : cut,
  };
});

/**
 * The left messages a row's right message rewrites, `[from, to)`: its own left message, or the
 * span a summary stands for (`replaces`); null when there is none.
 */
export function leftSpan(r: DiffRow): [number, number] | null {
  if (r.left !== null) return [r.left, r.left + 1];
  return r.replaces ?? null;
}

/**
 * The character diff job of row `row` of a diff (a rewritten message: its left and right text),
 * the same object for the same inputs: the two requests' messages read in the worker, or two
 * pasted or cut transcripts' message texts.
 */
export const selectCharJob = memoN(
  (
    job: DiffViewJob,
    answer: Extract<DiffAnswer, { ok: true }>,
    row: number,
  ): RequestCharsJob | CharsJob | null => {
    const r = answer.diff.rows[row];
    const span = r ? leftSpan(r) : null;
    if (!r || !span || r.right === null) return null;
    if (job.kind === 'request-diff') {
      if (!answer.requests) return null;
      return {
        kind: 'request-chars',
        text: job.text,
        ...(job.file ? { file: job.file } : {}),
        name: job.name,
        format: job.format,
        provider: job.provider,
        left: answer.requests.left,
        right: answer.requests.right,
        leftFrom: span[0],
        leftTo: span[1],
        rightIndex: r.right,
      };
    }
    const a = job.left.messages.slice(span[0], span[1]);
    const b = job.right.messages[r.right];
    if (a.length === 0 || !b) return null;
    return { kind: 'chars', before: a.map(messageText).join('\n\n'), after: messageText(b) };
  },
);

export type { DiffAnswer, MessageBrief } from '../engine/diffProtocol.ts';
