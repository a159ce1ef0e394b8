/**
 * How large a file the page accepts (issue 7). Loading a transcript costs a multiple of its size
 * in JavaScript heap: in the worker the text (≈ 1× for ASCII, 2× otherwise), the parsed JSON
 * values and the normalised transcript; on the page the transferred messages and the text again.
 * `HEAP_PER_FILE_BYTE` is that multiple with a margin: the bench's peak_heap_vs_file (parse +
 * analyse + tokens, what the worker does) is 3.3× on a 50 MB body (README, Performance); the page
 * then holds the messages again (≈ 1×, raw kept as JSON text) and the text (1×); 8 leaves room
 * for a non-ASCII text (2 bytes a character) and the garbage collector. Each worker has its own
 * heap of the same limit, so this is conservative for the page. A tab that exceeds its heap limit
 * is killed by the browser without a word, so the file is refused before any of it is read.
 * Whatever the heap, no file holds more than the model's `MAX_UNPACKED_BYTES` of text (the CLI's
 * limit too; a .gz is held to it while it is inflated: model/parse/bytes.ts).
 */
import { MAX_UNPACKED_BYTES } from '../model/limits.ts';

/** Heap bytes one file byte needs at the peak of a load, with a margin (worker + page). */
export const HEAP_PER_FILE_BYTE = 8;

/** Used when the browser does not report its heap limit (non-Chromium): 256 MiB of file. */
export const FIXED_MAX_FILE_BYTES = 256 * 1024 * 1024;

/** Files above this size are streamed by the worker instead of being read as text by the page. */
export const STREAM_MIN_BYTES = 2 * 1024 * 1024;

/** The heap limit the browser reports (Chromium's `performance.memory`), or null. */
export function heapLimitBytes(perf: unknown = globalThis.performance): number | null {
  const mem = (perf as { memory?: { jsHeapSizeLimit?: unknown } } | undefined)?.memory;
  const v = mem?.jsHeapSizeLimit;
  return typeof v === 'number' && v > 0 ? v : null;
}

/**
 * The largest file (or unpacked .gz) accepted, in bytes: the heap limit ÷ HEAP_PER_FILE_BYTE when
 * the browser reports one, else FIXED_MAX_FILE_BYTES; never more than `MAX_UNPACKED_BYTES`.
 */
export function maxFileBytes(heapLimit: number | null = heapLimitBytes()): number {
  const byHeap =
    heapLimit === null ? FIXED_MAX_FILE_BYTES : Math.floor(heapLimit / HEAP_PER_FILE_BYTE);
  return Math.min(byHeap, MAX_UNPACKED_BYTES);
}

const MB = (n: number) => `${(n / 1e6).toFixed(n >= 1e8 ? 0 : 1)} MB`;

/**
 * Why a file is refused, or null when it may be loaded.
 * @param size the file's size in bytes
 */
export function refuseReason(
  size: number,
  heapLimit: number | null = heapLimitBytes(),
): string | null {
  const max = maxFileBytes(heapLimit);
  if (size <= max) return null;
  const why =
    heapLimit === null
      ? `this browser does not report its memory limit, so the page caps files at ${MB(max)}`
      : max === MAX_UNPACKED_BYTES
        ? `no transcript is read beyond ${MB(max)} of text (the CLI has the same limit)`
        : `this tab may use about ${MB(heapLimit)} of memory and loading needs about ${HEAP_PER_FILE_BYTE}× the file's size`;
  return `This file is ${MB(size)}; the limit here is ${MB(max)}: ${why}. Loading it would crash the tab. Split the log (e.g. keep the last lines: tail -n 50000 file.jsonl) or use the CLI (npm run cli -- check FILE).`;
}
