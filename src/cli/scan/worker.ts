/**
 * One file of `scan`, in a worker thread (piscina) or on the calling thread: read it once as a
 * stream (a local file or an S3 object; `.gz` inflated as it streams), decode it as the page
 * does (`decodeBytes`), and make its rows (`scanText`). Bad input never throws: it is an error
 * row, with the line where a truncated .gz ends.
 */
import { createReadStream } from 'node:fs';
import { createGunzip } from 'node:zlib';
import { decodeBytes, gzipCutOff, isGzip, tooLargeMessage } from '../../model/parse/bytes.ts';
import { MAX_UNPACKED_BYTES } from '../../model/limits.ts';
import {
  errorRow,
  scanText,
  type ScanBudget,
  type ScanRow,
  type ScanSource,
} from '../../model/scan/rows.ts';
import type { PolicyId } from '../../model/evict/types.ts';
import { loadBpeCounter, type TextCounter } from '../../model/tokens.ts';
import { parseS3Url, readS3 } from './s3.ts';
import { cutKinds, PackedCuts, packRows, type PackedRows } from './packed.ts';

/** A file to scan and how. */
export interface ScanTask {
  source: ScanSource;
  policies: PolicyId[];
  budgets: ScanBudget[];
  /** Count tokens with o200k (exact for OpenAI) instead of chars ÷ 4. */
  exact: boolean;
}

/** A file's rows and the bytes read for them. */
export interface ScanTaskResult {
  rows: ScanRow[];
  bytesRead: number;
  /** Milliseconds spent reading and decoding the file, and making its rows (`scanText`). */
  readMs: number;
  rowsMs: number;
}

let bpe: Promise<TextCounter> | null = null;

/** The chunks of a stream, stopping past `max` bytes. */
async function collect(
  stream: AsyncIterable<Uint8Array>,
  max: number,
): Promise<{ chunks: Uint8Array[]; total: number }> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  for await (const c of stream) {
    chunks.push(c);
    total += c.length;
    if (total > max) break;
  }
  return { chunks, total };
}

const concat = (chunks: Uint8Array[], total: number) =>
  chunks.length === 1 ? (chunks[0] as Uint8Array) : Buffer.concat(chunks, total);

/** A file's stored bytes as a stream (once). */
async function* storedBytes(file: string, max: number): AsyncGenerator<Uint8Array> {
  if (parseS3Url(file)) {
    yield* await readS3(file, max);
    return;
  }
  yield* createReadStream(file, { highWaterMark: 1 << 20 }) as AsyncIterable<Uint8Array>;
}

/**
 * A gzip stream inflated as it arrives: the text bytes, or where it broke off.
 * @returns the inflated chunks, or an error with the line the inflated text had reached
 */
async function inflate(
  first: Uint8Array,
  rest: AsyncIterator<Uint8Array>,
  max: number,
): Promise<{ ok: true; bytes: Uint8Array } | { ok: false; message: string; line: number | null }> {
  const gunzip = createGunzip();
  const out: Uint8Array[] = [];
  let total = 0;
  gunzip.on('data', (c: Buffer) => {
    out.push(c);
    total += c.length;
    if (total > max) gunzip.destroy(new Error('over the limit'));
  });
  const done = new Promise<Error | null>((resolve) => {
    gunzip.on('end', () => resolve(null));
    gunzip.on('error', (e) => resolve(e));
    gunzip.on('close', () => resolve(null));
  });
  gunzip.write(first);
  for (let r = await rest.next(); !r.done; r = await rest.next()) {
    if (total > max) break;
    if (!gunzip.write(r.value)) await new Promise((res) => gunzip.once('drain', res));
  }
  gunzip.end();
  const e = await done;
  if (total > max) return { ok: false, message: tooLargeMessage(total, max), line: null };
  if (e) return { ok: false, ...gzipCutOff(out) };
  return { ok: true, bytes: concat(out, total) };
}

/** A file's text as `scan` reads it, or why it cannot be read (an error row's text and line). */
type ReadText =
  | { ok: true; text: string; name: string }
  | { ok: false; message: string; line: number | null };

/**
 * Read one file once, as a stream (a `.gz` inflated as it arrives), and decode it as the page
 * does (`decodeBytes`): the reading half of `scanFile`, also what the bench's read floor runs.
 * @param counted called with the size of each chunk read from storage
 * @returns the text and the name its format is detected by, or the error (never throws for bad input)
 */
async function readText(
  source: ScanSource,
  max: number,
  counted: (bytes: number) => void,
): Promise<ReadText> {
  const it = storedBytes(source.file, max)[Symbol.asyncIterator]();
  const counting: AsyncIterator<Uint8Array> = {
    next: async () => {
      const r = await it.next();
      if (!r.done) counted(r.value.length);
      return r;
    },
  };
  const head = await counting.next();
  const first = head.done ? new Uint8Array(0) : head.value;
  let bytes: Uint8Array;
  const name = source.file.replace(/\.gz$/i, '');
  if (isGzip(first)) {
    const r = await inflate(first, counting, max);
    if (!r.ok) return r;
    bytes = r.bytes;
  } else {
    const rest = await collect({ [Symbol.asyncIterator]: () => counting }, max);
    bytes = concat([first, ...rest.chunks], first.length + rest.total);
  }
  const text = decodeBytes(bytes, max, isGzip(first) ? name : source.file);
  if (!text.ok) return { ok: false, message: text.error.message, line: null };
  return { ok: true, text: text.value, name };
}

/**
 * Scan one file.
 * @param cuts where the rows' cuts go instead of each row's `cuts` (packed as they are made)
 * @returns its rows (one error row when it cannot be read) and the bytes read from storage
 */
export async function scanFile(
  task: ScanTask,
  max = MAX_UNPACKED_BYTES,
  cuts?: PackedCuts,
): Promise<ScanTaskResult> {
  const { source } = task;
  let bytesRead = 0;
  const t0 = performance.now();
  let t1 = t0;
  const result = (rows: ScanRow[]): ScanTaskResult => {
    const end = performance.now();
    return { rows, bytesRead, readMs: t1 - t0, rowsMs: end - t1 };
  };
  try {
    const read = await readText(source, max, (n) => (bytesRead += n));
    t1 = performance.now();
    if (!read.ok) return result([errorRow(source, read.message, read.line)]);
    const counter = task.exact ? await (bpe ??= loadBpeCounter()) : undefined;
    const rows = scanText(source, read.text, read.name, {
      policies: task.policies,
      budgets: task.budgets,
      ...(counter ? { counter } : {}),
      ...(cuts ? { cutSink: cuts } : {}),
    });
    return result(rows);
  } catch (e) {
    cuts?.reset();
    return result([errorRow(source, `cannot read: ${(e as Error).message}`)]);
  }
}

/**
 * The bench's read floor (`scan_read_floor_vs_json_parse_fleet`, scripts/benchScan.ts): one file
 * read and decoded as `scanFile` reads it, then `JSON.parse` of each of its non-empty lines, and
 * nothing else (no rows). Run in the scan's pool by name (`readFloor`).
 * @returns the bytes read from storage and the lines parsed (a line that does not parse is counted in `broken`)
 */
export async function readFloor(
  task: Pick<ScanTask, 'source'>,
): Promise<{ bytesRead: number; lines: number; broken: number }> {
  let bytesRead = 0;
  const read = await readText(task.source, MAX_UNPACKED_BYTES, (n) => (bytesRead += n));
  let lines = 0;
  let broken = 0;
  if (read.ok)
    for (const l of read.text.split('\n'))
      if (l.length > 0) {
        lines++;
        try {
          JSON.parse(l);
        } catch {
          broken++;
        }
      }
  return { bytesRead, lines, broken };
}

/** A file's rows packed for the main thread (packed.ts), and the bytes read for them. */
export interface PackedResult {
  packed: PackedRows;
  bytesRead: number;
  /** Milliseconds in the worker: reading and decoding, making the rows, packing them. */
  stages: { readMs: number; rowsMs: number; packMs: number };
}

/**
 * Scan one file and pack its rows in this thread: a worker hands the main thread a few typed
 * arrays, not row objects with a cut each per policy × budget to clone back (the main thread only
 * appends them to DuckDB). The cuts are packed as they are made (`PackedCuts`), no object each.
 */
export async function scanFilePacked(task: ScanTask): Promise<PackedResult> {
  const kinds = cutKinds(task.policies, task.budgets);
  const cuts = new PackedCuts(kinds);
  const { rows, bytesRead, readMs, rowsMs } = await scanFile(task, MAX_UNPACKED_BYTES, cuts);
  const t = performance.now();
  const packed = packRows(rows, kinds, cuts);
  return { packed, bytesRead, stages: { readMs, rowsMs, packMs: performance.now() - t } };
}

export default scanFilePacked;
