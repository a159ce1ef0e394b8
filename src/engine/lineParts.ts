/**
 * A large JSON Lines file parsed by several workers at once (issue 38). The reader (stream.ts)
 * keeps streaming every byte (the page gets them, and every newline's offset is indexed) but
 * parses only the lines of its own part; the lines after it are split into whole-line parts,
 * each parsed at the same time by a helper (`LinePool`, one per further core: linePool.ts) and
 * joined back in order, numbered as in the file. The document is the one a single reader makes
 * (stream.test.ts): the same records, broken lines and refusals. A helper that finds bytes that
 * are not UTF-8 (or a NUL) says so, and the file is read whole again for the exact error.
 */
import { tooDeepLine, type JsonlLine } from '../model/parse/json.ts';
import type { FormatId, Result } from '../model/types.ts';

/** What a helper answers for one part. */
export interface PartAnswer {
  /** The part's records, numbered from 1 in the part (a blank line counts). */
  lines: JsonlLine[];
  /** Lines that are not JSON, numbered likewise. */
  brokenLines: number[];
  /** The part's first line nested too deep (its number in the part), or 0. */
  deep: number;
  /** Bytes that are not UTF-8, or a NUL: the file is not text. */
  bad: boolean;
}

/** A part to parse, as posted to a helper. */
export interface PartRequest {
  id: number;
  part: Blob;
  /** The format whose `slimLine` reduces each record (the preview's), or null: kept whole. */
  slimFormat: FormatId | null;
}

/** Helpers that parse parts of a file. */
export interface LinePool {
  /** How many parts it parses at once. */
  readonly size: number;
  /** The lines of `part` (whole lines of a file); null when the helper failed. */
  parse(part: Blob, slimFormat: FormatId | null): Promise<PartAnswer | null>;
}

/** How a reader parses in parallel. */
export interface Parallel {
  pool: LinePool;
  /** The format the records are slimmed for (read when the parts are handed out), or null. */
  slimFormat: () => FormatId | null;
  /** Fewest bytes after the preview worth splitting (default `PARALLEL_MIN`). */
  minBytes?: number;
}

/** Below this many bytes after the preview, one reader parses the whole file. */
export const PARALLEL_MIN = 16 << 20;

/** The parts handed out: the reader parses bytes before `own`; helper k the part at `cuts[k]`. */
export interface Split {
  own: number;
  cuts: number[];
  answers: Promise<PartAnswer | null>[];
}

/** The byte after the first newline at or after `at` (a line's start), or the blob's size. */
async function lineStartAfter(blob: Blob, at: number): Promise<number> {
  for (let span = 1 << 16; at < blob.size; span *= 4) {
    const bytes = new Uint8Array(await blob.slice(at, at + span).arrayBuffer());
    const nl = bytes.indexOf(10);
    if (nl >= 0) return at + nl + 1;
    if (at + span >= blob.size) break;
  }
  return blob.size;
}

/**
 * Split the bytes of `blob` from `from` on into one part per helper plus the reader's own (each
 * starting at a line's start) and hand the helpers theirs.
 * @returns the split, or null when the rest is too small or there is no helper
 */
export async function splitParts(
  blob: Blob,
  from: number,
  parallel: Parallel,
): Promise<Split | null> {
  const rest = blob.size - from;
  const helpers = parallel.pool.size;
  if (helpers < 1 || rest < (parallel.minBytes ?? PARALLEL_MIN)) return null;
  const cuts: number[] = [];
  for (let k = 1; k <= helpers; k++) {
    const at = await lineStartAfter(blob, from + Math.floor((rest * k) / (helpers + 1)));
    if (at < blob.size && at > (cuts.at(-1) ?? from)) cuts.push(at);
  }
  const own = cuts[0];
  if (own === undefined) return null;
  const format = parallel.slimFormat();
  const answers = cuts.map((a, i) =>
    parallel.pool.parse(blob.slice(a, cuts[i + 1] ?? blob.size), format).catch(() => null),
  );
  return { own, cuts, answers };
}

/** How many of the sorted offsets `newlines` are below `at`. */
function countBelow(newlines: readonly number[], at: number): number {
  let lo = 0;
  let hi = newlines.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((newlines[mid] as number) < at) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/**
 * Join the helpers' parts, in order, after the reader's own records: numbered as lines of the
 * file (the newlines before a part's start), into `into`.
 * @param newlines every newline's byte offset in the file; `bytes` the file's bytes and
 *   `lineSpan` where line n (1-based) lies in them (for a refusal's text)
 * @returns null when joined; a refusal for the first line nested too deep; 'bad' when a part is
 *   not text (or its helper failed): the caller reads the file whole again
 */
export async function joinParts(
  split: Split,
  into: { lines: JsonlLine[]; brokenLines: number[] },
  newlines: readonly number[],
  bytes: Uint8Array,
  lineSpan: (n: number) => [number, number],
): Promise<Result<never> | 'bad' | null> {
  for (let k = 0; k < split.cuts.length; k++) {
    const a = await split.answers[k];
    if (!a || a.bad) return 'bad';
    const before = countBelow(newlines, split.cuts[k] as number);
    if (a.deep > 0) {
      const n = before + a.deep;
      const [x, y] = lineSpan(n);
      const d = tooDeepLine(new TextDecoder().decode(bytes.subarray(x, y)), n);
      if (d)
        return { ok: false, error: { kind: 'limit', message: d.message, location: d.location } };
    }
    for (const l of a.lines) into.lines.push({ line: before + l.line, value: l.value });
    for (const b of a.brokenLines) into.brokenLines.push(before + b);
  }
  return null;
}
