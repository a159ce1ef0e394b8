/**
 * Reading a file in the worker as it streams in (issue 7). JSON Lines are split and parsed line
 * by line while the bytes arrive, so parsing overlaps reading and a preview of the first records
 * is available early; a JSON body is collected and parsed once. Runs in a Web Worker and in Node
 * (Blob, TextDecoder); never throws: failures are ParseErrors, as in `parseTranscript`.
 */
import { decodeBytes } from '../model/parse/bytes.ts';
import {
  looksLikeJsonl,
  tooDeepLine,
  type JsonFailure,
  type JsonlLine,
  type SourceDoc,
} from '../model/parse/json.ts';
import { readSource } from '../model/parse/index.ts';
import type { ParseError, Result } from '../model/types.ts';
import { maxFileBytes } from './limits.ts';

/** Called while reading: bytes read so far (bytes) and JSONL records parsed so far. */
export type OnRead = (bytes: number, records: number) => void;
/**
 * Called once, with the first (at most `PREVIEW_RECORDS`) JSONL records parsed (a partial
 * document). It may answer how to slim every later record (a format's `slimmer`): the reader
 * then keeps each later line's value reduced, for a caller that reads whole lines from `bytes`.
 */
export type OnPreview = (doc: SourceDoc) => Slim | void;
/** A record's value reduced to what a format's parse reads (`FormatParser.slimmer`), in file order. */
export type Slim = (value: unknown) => unknown;

/** JSONL records in the preview at most (it comes after the first piece that gave any). */
export const PREVIEW_RECORDS = 80;
/** Most bytes handled between two yields (the stream's pieces are usually smaller). */
export const READ_CHUNK = 1 << 22;

const GZIP = [0x1f, 0x8b];

/**
 * Resolve in a new task, after the messages already queued: a MessageChannel message, not
 * `setTimeout(0)`, which browsers clamp to 4 ms once nested (hundreds of yields in a large load).
 */
export function yieldTask(): Promise<void> {
  if (typeof MessageChannel === 'undefined') return new Promise((r) => setTimeout(r, 0));
  return new Promise((resolve) => {
    const ch = new MessageChannel();
    ch.port1.onmessage = () => {
      ch.port1.close();
      resolve();
    };
    ch.port2.postMessage(null);
  });
}

export interface StreamedSource {
  doc: SourceDoc;
  /**
   * The whole text (for export and the raw view of the page). For a JSON Lines file read as
   * plain UTF-8 it is decoded from `bytes` on first read ('' while they are null): a JSON Lines
   * load never needs it in the worker, and holding it would cost the file's size again.
   */
  readonly text: string;
  /**
   * The file's bytes when a caller read them again (null as streamed: issue 38, no copy is kept;
   * run.ts `sourceBytes` reads the file when the page needs its text).
   */
  bytes: Uint8Array | null;
  /**
   * Where line `n` (1-based) of a plain UTF-8 file lies in the file's bytes: [start, end) without
   * its newline; null for other files.
   */
  lineSpan: ((line: number) => [number, number]) | null;
  /**
   * The slimming the preview asked for, when records after the preview were kept slimmed (their
   * whole values are in the file at `lineSpan`); null when every record is whole.
   */
  slimmed: Slim | null;
}

/**
 * Read a Blob into a source document.
 * @param blob the file (bytes: UTF-8, or gzip which is inflated by `decodeBytes`, stopping at
 *   the page's limit on unpacked bytes, `maxFileBytes`)
 * @param name file name hint (`.jsonl` forces JSON Lines)
 * @param onRead progress callback; `onPreview` gets the first records of a JSONL file
 * @param chunkBytes most bytes handled between yields (`READ_CHUNK`; smaller in tests)
 * @returns the document and its text, or a ParseError (`binary` for non-UTF-8/NUL/corrupt gzip,
 *   `json` with a location for bad JSON, `limit` for a .gz over the limit or a line nested too
 *   deep, `empty`)
 */
export async function readBlobSource(
  blob: Blob,
  name: string,
  onRead: OnRead = () => {},
  onPreview: OnPreview = () => {},
  chunkBytes = READ_CHUNK,
): Promise<Result<StreamedSource>> {
  try {
    const head = new Uint8Array(await blob.slice(0, 4).arrayBuffer());
    const utf16 = (head[0] === 0xff && head[1] === 0xfe) || (head[0] === 0xfe && head[1] === 0xff);
    if ((head[0] === GZIP[0] && head[1] === GZIP[1]) || utf16) {
      // Compressed or not UTF-8: decode whole (the same checks as a small file).
      const bytes = new Uint8Array(await blob.arrayBuffer());
      onRead(blob.size, 0);
      const text = decodeBytes(bytes, maxFileBytes());
      if (!text.ok) return text;
      return wholeText(text.value, name);
    }
    const reader = new BlobBytes(blob, chunkBytes);
    try {
      return await streamUtf8(reader, blob, name, onRead, onPreview, chunkBytes);
    } finally {
      reader.close();
    }
  } catch (e) {
    const error: ParseError = {
      kind: 'binary',
      message: `The file could not be read: ${e instanceof Error ? e.message : String(e)}`,
    };
    return { ok: false, error };
  }
}

/** JSON Lines split and parsed as decoded text comes in, stopping at a line nested too deep. */
class LineParser {
  readonly lines: JsonlLine[] = [];
  readonly brokenLines: number[] = [];
  /** A line nested deeper than MAX_JSON_DEPTH: the read stops and the file is refused. */
  deep: JsonFailure | null = null;
  /** The text after the last newline so far, in pieces (joined once its line ends: linear). */
  private carry: string[] = [];
  private lineNo = 0;
  private slim: Slim | null = null;
  private slimStart = 0;
  /** Slim every record from the `from`-th on (0-based), those parsed already and those to come. */
  slimFrom(from: number, slim: Slim): void {
    this.slim = slim;
    this.slimStart = from;
    const { lines } = this;
    for (let k = from; k < lines.length; k++) {
      const l = lines[k] as JsonlLine;
      lines[k] = { line: l.line, value: slim(l.value) };
    }
  }
  /** Parse the complete lines of `text` after what was carried; `final`: the last piece too. */
  take(text: string, final: boolean): void {
    if (!final && text.indexOf('\n') < 0) {
      if (text.length > 0) this.carry.push(text);
      return;
    }
    const s = this.carry.length > 0 ? this.carry.join('') + text : text;
    this.carry = [];
    let start = 0;
    for (;;) {
      const nl = s.indexOf('\n', start);
      if (nl < 0 || this.deep) break;
      this.push(s.slice(start, nl));
      start = nl + 1;
    }
    const rest = s.slice(start);
    if (rest.length === 0) return;
    if (final) this.push(rest);
    else this.carry.push(rest);
  }
  private push(raw: string): void {
    const lineNo = ++this.lineNo;
    const t = raw.trim();
    if (t.length === 0 || this.deep) return;
    this.deep = tooDeepLine(raw, lineNo);
    if (this.deep) return;
    try {
      const value: unknown = JSON.parse(t);
      const slim = this.slim && this.lines.length >= this.slimStart ? this.slim : null;
      this.lines.push({ line: lineNo, value: slim ? slim(value) : value });
    } catch {
      this.brokenLines.push(lineNo);
    }
  }
  /** The refusal of a line nested too deep, or null. */
  refusal(): Result<never> | null {
    const d = this.deep;
    return d
      ? { ok: false, error: { kind: 'limit', message: d.message, location: d.location } }
      : null;
  }
}

/**
 * A Blob read piece by piece through its byte stream (issue 20): one stream reads a 100 MB file
 * about twice as fast as 4 MB `slice().arrayBuffer()` round trips (0.5–0.6 s against 1.2–1.5 s
 * in a Chromium worker). A BYOB reader reads every piece into the same window of `max` bytes
 * (issue 38: nothing keeps the file's bytes — the page reads a message's lines from the file
 * itself — so the worker no longer fills a buffer of the file's size: 110 MiB of its heap for
 * the 115 MB log, and 0.4–0.5 s to first write it). Without BYOB support, the stream's pieces.
 */
class BlobBytes {
  /** The window; valid until the next `next()` (a BYOB read moves it). */
  private window: Uint8Array;
  private readonly size: number;
  private read = 0;
  private readonly byob: ReadableStreamBYOBReader | null;
  private readonly plain: ReadableStreamDefaultReader<Uint8Array> | null;
  /** @param max the window's size: most bytes of one piece */
  constructor(blob: Blob, max: number) {
    this.size = blob.size;
    this.window = new Uint8Array(Math.max(1, Math.min(max, blob.size)));
    const stream = blob.stream();
    let byob: ReadableStreamBYOBReader | null = null;
    try {
      byob = stream.getReader({ mode: 'byob' });
    } catch {
      // Not a byte stream here: a default reader, copying.
    }
    this.byob = byob;
    this.plain = byob ? null : stream.getReader();
  }
  /** The next piece (a view into the window with BYOB: at most `max` bytes); null at the end. */
  async next(): Promise<Uint8Array | null> {
    const size = this.size;
    if (this.read >= size) return this.close();
    const at = this.read;
    let piece: Uint8Array;
    if (this.byob) {
      const want = new Uint8Array(this.window.buffer, 0, Math.min(this.window.length, size - at));
      const { done, value } = await this.byob.read(want);
      if (!value || done) throw new Error(`the file ended after ${at} of ${size} bytes`);
      this.window = new Uint8Array(value.buffer);
      piece = value;
    } else {
      const { done, value } = await (this.plain as ReadableStreamDefaultReader<Uint8Array>).read();
      if (done) throw new Error(`the file ended after ${at} of ${size} bytes`);
      piece = value.subarray(0, Math.min(value.length, size - at));
    }
    this.read += piece.length;
    return piece;
  }
  /** Stop reading (at the end, or early: bad bytes, a line nested too deep). */
  close(): null {
    (this.byob ?? this.plain)?.cancel().catch(() => undefined);
    return null;
  }
}

/** `readBlobSource` for a UTF-8 file: JSON Lines parsed as they stream in, a JSON body whole. */
async function streamUtf8(
  reader: BlobBytes,
  blob: Blob,
  name: string,
  onRead: OnRead,
  onPreview: OnPreview,
  chunkBytes: number,
): Promise<Result<StreamedSource>> {
  const decoder = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false });
  const jsonlHint = /\.(jsonl|ndjson)$/i.test(name);
  // The bytes are not kept (the page reads a message's lines from the file, issue 38): only
  // every newline's offset in the file (a newline byte is a newline in UTF-8).
  const newlines: number[] = [];
  const parts: string[] = [];
  const parser = new LineParser();
  let mode = 'undecided' as 'undecided' | 'jsonl' | 'json';
  let previewed = false;
  let slimmed: Slim | null = null;
  let read = 0;
  let sinceYield = 0;
  const index = new NewlineIndex(newlines);
  for (let bytes = await reader.next(); bytes; bytes = await reader.next()) {
    const at = read;
    read += bytes.length;
    const last = read >= blob.size;
    let nul: boolean;
    try {
      if (mode === 'jsonl') nul = decodeInPieces(decoder, bytes, last, parser, index, at);
      else {
        index.ofBytes(bytes, at);
        const chunk = decoder.decode(bytes, { stream: !last });
        nul = chunk.includes('\u0000');
        if (mode === 'undecided')
          // Decided on the first chunk: a log's first line is far shorter than a chunk.
          mode = jsonlHint || (chunk.includes('\n') && looksLikeJsonl(chunk)) ? 'jsonl' : 'json';
        // JSON Lines are parsed as they come (their text is not kept); a JSON body whole at the end.
        if (mode === 'jsonl') parser.take(chunk, last);
        else parts.push(chunk);
      }
    } catch {
      // Report the exact offset as a small file would.
      const whole = decodeBytes(new Uint8Array(await blob.arrayBuffer()));
      return whole.ok ? wholeText(whole.value, name) : whole;
    }
    if (nul) return decodeBytes(new Uint8Array(await blob.arrayBuffer())) as Result<never>;
    const refused = parser.refusal();
    if (refused) return refused;
    const { lines } = parser;
    // Preview as soon as the first piece gave complete records (enough for a screen).
    if (mode === 'jsonl' && !previewed && lines.length > 0) {
      previewed = true;
      slimmed = preview(parser, onPreview);
    }
    onRead(read, lines.length);
    // Let other messages (a newer request) in once `chunkBytes` were handled since the last
    // yield, and after the last piece. Not after every piece: a stream's pieces are often far
    // smaller than a chunk, and each yield is a task of its own (issue 38).
    sinceYield += bytes.length;
    if (sinceYield >= chunkBytes || last) {
      sinceYield = 0;
      await yieldTask();
    }
  }
  const size = blob.size;
  const lineSpan = (n: number): [number, number] => [
    n <= 1 ? 0 : (newlines[n - 2] as number) + 1,
    newlines[n - 1] ?? size,
  ];
  if (mode === 'jsonl' && parser.lines.length > 0) {
    let text: string | null = null;
    const doc: SourceDoc = { kind: 'jsonl', lines: parser.lines, brokenLines: parser.brokenLines };
    // No bytes kept (issue 38): a caller that needs the text again reads the file (run.ts
    // `sourceBytes`); `text` decodes `bytes` when a caller put them there.
    const value: StreamedSource = {
      doc,
      get text() {
        return (text ??= new TextDecoder().decode(value.bytes ?? new Uint8Array(0)));
      },
      bytes: null,
      lineSpan,
      slimmed,
    };
    return { ok: true, value };
  }
  // A JSON body (or a log with no JSON line): the text whole, as a small file is read.
  const text =
    mode === 'jsonl' ? new TextDecoder().decode(await blob.arrayBuffer()) : parts.join('');
  const whole = wholeText(text, name);
  return whole.ok
    ? { ok: true, value: { ...whole.value, bytes: null, lineSpan, slimmed: null } }
    : whole;
}

/**
 * Bytes decoded per string once a file is known to be JSON Lines: a 64 KiB one-byte string is
 * half V8's largest regular object, so each piece's text dies in a young-generation collection
 * rather than staying in the large-object space until a full collection, as the 4 MiB strings
 * of whole pieces did (issue 20; its heap peak varies ±0.3 × with collection timing, see README).
 */
const DECODE_PIECE = 1 << 16;

/**
 * Decode `bytes` in DECODE_PIECE pieces, each handed to `parser` as it is decoded.
 * @returns true at a NUL character (not a text file); @throws TypeError on bytes not UTF-8
 */
function decodeInPieces(
  decoder: TextDecoder,
  bytes: Uint8Array,
  last: boolean,
  parser: LineParser,
  lines: NewlineIndex,
  offset: number,
): boolean {
  for (let at = 0; at < bytes.length || (last && at === 0); at += DECODE_PIECE) {
    const end = Math.min(bytes.length, at + DECODE_PIECE);
    const final = last && end === bytes.length;
    const piece = bytes.subarray(at, end);
    const text = decoder.decode(piece, { stream: !final });
    if (text.includes('\u0000')) return true;
    lines.ofPiece(piece, text, offset + at);
    parser.take(text, final);
    if (parser.refusal()) return false;
  }
  return false;
}

/**
 * Every newline's byte offset in the file, piece by piece (a newline byte is a newline in UTF-8).
 * A piece decoded to as many characters as it has bytes, after a piece that ended on a whole
 * character, is ASCII: its newlines are found in its text (`String.indexOf`, about a fifth of
 * the time of `Uint8Array.indexOf` over the same bytes in V8; issue 38); any other piece in its
 * bytes.
 */
export class NewlineIndex {
  private readonly offsets: number[];
  /** Whether the decoder holds no bytes of a character begun in an earlier piece. */
  private whole = true;
  constructor(offsets: number[]) {
    this.offsets = offsets;
  }
  /** The newlines of `piece` (at byte `offset` of the file), of which `text` is the decoding. */
  ofPiece(piece: Uint8Array, text: string, offset: number): void {
    // With nothing pending, every byte ≥ 0x80 gives fewer characters than bytes (or none yet).
    if (this.whole && text.length === piece.length) {
      const out = this.offsets;
      for (let k = text.indexOf('\n'); k >= 0; k = text.indexOf('\n', k + 1)) out.push(offset + k);
    } else this.ofBytes(piece, offset);
  }
  /** The newlines of `piece` (at byte `offset` of the file), found in its bytes. */
  ofBytes(piece: Uint8Array, offset: number): void {
    const out = this.offsets;
    for (let k = piece.indexOf(10); k >= 0; k = piece.indexOf(10, k + 1)) out.push(offset + k);
    this.whole = piece.length === 0 ? this.whole : (piece[piece.length - 1] as number) < 0x80;
  }
}

/** Post the first records as a preview; slim the later ones when it asks (`OnPreview`). */
function preview(parser: LineParser, onPreview: OnPreview): Slim | null {
  const head = parser.lines.slice(0, PREVIEW_RECORDS);
  const lastLine = head.at(-1)?.line ?? 0;
  const brokenLines = parser.brokenLines.filter((n) => n < lastLine);
  const slim = onPreview({ kind: 'jsonl', lines: head, brokenLines });
  if (!slim) return null;
  parser.slimFrom(PREVIEW_RECORDS, slim);
  return slim;
}

/** A text read whole (gzip, UTF-16, a JSON body): no bytes of the file's own kept. */
function wholeText(text: string, name: string): Result<StreamedSource> {
  const src = readSource(text, name);
  if (!src.ok) return src;
  return { ok: true, value: { doc: src.value, text, bytes: null, lineSpan: null, slimmed: null } };
}
