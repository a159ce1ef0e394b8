/**
 * A streamed file's message texts read again from the file itself (issue 38): the page keeps no
 * copy of a large JSON Lines file's bytes (a 115 MB log was 110 MiB of the page's heap); a message
 * sent as byte spans of the file (packMessages.ts) reads its spans from the `Blob` the user picked
 * (held by the browser, not the JS heap) when its `raw` or `blocks` are first read. Reading is
 * async: the accessors answer "pending" meanwhile (lazyMessage.ts), the reader reads every message
 * asked for in one task, then tells its owner (the page's session) to draw again.
 */

import type { SourceBytes } from './lazyMessage.ts';

/** Bytes of one read covering several messages at most (else each message is read alone). */
const ONE_READ_BYTES = 8 * 1024 * 1024;

/** Messages asked for at once from which one read of their whole range is taken anyway. */
const MANY_MESSAGES = 1000;

/**
 * The texts of spans [spans[a], spans[a + 1]), … [spans[z - 2], spans[z - 1]) of `blob`, decoded
 * as strict UTF-8 (the same decoding as the bytes the worker parsed).
 * @throws TypeError when a span is not whole UTF-8; RangeError when a span lies past the end
 */
export async function readSpans(
  blob: Blob,
  spans: ArrayLike<number>,
  a: number,
  z: number,
): Promise<string[]> {
  const decoder = new TextDecoder('utf-8', { fatal: true });
  const out: string[] = [];
  for (let s = a; s < z; s += 2) {
    const from = spans[s] as number;
    const to = spans[s + 1] as number;
    if (to > blob.size)
      throw new RangeError(`bytes ${from}–${to} are past the file's end (${blob.size})`);
    out.push(decoder.decode(await blob.slice(from, to).arrayBuffer()));
  }
  return out;
}

/** What one message asks to read: its spans [a, z) of `spans`; `done` gets the texts or the error. */
export interface SpanAsk {
  spans: Float64Array;
  a: number;
  z: number;
  done: (texts: string[] | null, error: unknown) => void;
}

/**
 * Reads the spans messages ask for from `file`, in one task per batch of asks, then calls
 * `onRead` once per batch (after every ask of it is done).
 */
export class SpanReader {
  private queue: SpanAsk[] = [];
  private scheduled = false;
  /** The streamed file the spans are byte offsets of (plain UTF-8). */
  readonly file: Blob;
  private readonly onRead: () => void;

  /**
   * @param file the streamed file the spans are byte offsets of
   * @param onRead called after each batch of asks was read (the page draws again)
   */
  constructor(file: Blob, onRead: () => void) {
    this.file = file;
    this.onRead = onRead;
  }

  /** Ask for a message's spans (read in the next task, with every other ask until then). */
  ask(ask: SpanAsk): void {
    this.queue.push(ask);
    if (this.scheduled) return;
    this.scheduled = true;
    setTimeout(() => void this.flush(), 0);
  }

  private async flush(): Promise<void> {
    const asks = this.queue;
    this.queue = [];
    this.scheduled = false;
    let lo = Infinity;
    let hi = 0;
    for (const q of asks)
      for (let s = q.a; s < q.z; s += 2) {
        lo = Math.min(lo, q.spans[s] as number);
        hi = Math.max(hi, q.spans[s + 1] as number);
      }
    const together = hi - lo <= ONE_READ_BYTES || asks.length >= MANY_MESSAGES;
    if (together && hi > lo && hi <= this.file.size) {
      // One read of the whole range (a screen of rows, or every message for find), then each
      // message's spans decoded from it; the range's bytes are dropped after.
      let bytes: Uint8Array | null = null;
      try {
        bytes = new Uint8Array(await this.file.slice(lo, hi).arrayBuffer());
      } catch {
        // Read each message alone below (each reports its own error).
      }
      if (bytes) {
        const decoder = new TextDecoder('utf-8', { fatal: true });
        for (const q of asks) {
          try {
            const texts: string[] = [];
            for (let s = q.a; s < q.z; s += 2)
              texts.push(
                decoder.decode(
                  bytes.subarray((q.spans[s] as number) - lo, (q.spans[s + 1] as number) - lo),
                ),
              );
            q.done(texts, null);
          } catch (e) {
            q.done(null, e);
          }
        }
        this.onRead();
        return;
      }
    }
    await Promise.all(
      asks.map((q) =>
        readSpans(this.file, q.spans, q.a, q.z).then(
          (texts) => q.done(texts, null),
          (e: unknown) => q.done(null, e),
        ),
      ),
    );
    this.onRead();
  }
}

/**
 * Run `fn` (synchronous) with the whole file's bytes at hand in `source` (issue 38): what reads
 * every message's text or the transcript's own raw at once (an export of the transcript) reads
 * the file once, and the page drops the bytes again after `fn`. Without a reader (the bytes came
 * with the answer, or the text is the page's own) `fn` runs at once.
 * @throws what reading the file throws (the file was moved or changed since it was opened)
 */
export async function withFileBytes<T>(source: SourceBytes | undefined, fn: () => T): Promise<T> {
  const reader = source?.reader;
  if (!source || !reader || source.bytes) return fn();
  const bytes = new Uint8Array(await reader.file.arrayBuffer());
  source.bytes = bytes;
  try {
    return fn();
  } finally {
    source.bytes = null;
  }
}
