/**
 * Bytes in, text out: what a dropped file goes through before `parseTranscript`.
 * Gzip (`.gz`, magic 1f 8b) is inflated with fflate's streaming Gunzip, a slice at a time, so a
 * decompression bomb is stopped at the unpacked-bytes limit (or earlier, by its ratio) instead of
 * filling the heap; binary input is refused with a message a person can act on; everything else
 * is decoded as UTF-8 (a leading BOM is dropped).
 */
import { Gunzip } from 'fflate';
import {
  formatBytes,
  MAX_INFLATE_RATIO,
  MAX_UNPACKED_BYTES,
  RATIO_FLOOR_BYTES,
} from '../limits.ts';
import type { ParseError, Result } from '../types.ts';

/**
 * TextDecoder exists in browsers, workers and Node, but the model's tsconfig has neither DOM nor
 * Node types; this is the part of its interface used here.
 */
declare const TextDecoder: new (
  label: string,
  options: { fatal: boolean; ignoreBOM: boolean },
) => { decode: (input: Uint8Array) => string };

/**
 * What the page asks for when a file is not a transcript (it ends a refusal). Said in the page's
 * words; the CLI puts its own in place of it (cli/io.ts `forTerminal`), so it is one constant.
 */
export const DROP_ADVICE = 'Drop a .json, .jsonl or .gz transcript.';

/** True when the bytes start with the gzip magic number (1f 8b). */
export function isGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/** Other compressed or archive formats, by their magic number: what a `.gz` may really be. */
const ARCHIVES: readonly { magic: readonly number[]; what: string }[] = [
  { magic: [0x50, 0x4b, 0x03, 0x04], what: 'a zip archive' },
  { magic: [0x42, 0x5a, 0x68], what: 'bzip2 data' },
  { magic: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], what: 'xz data' },
  { magic: [0x28, 0xb5, 0x2f, 0xfd], what: 'zstd data' },
  { magic: [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c], what: 'a 7-Zip archive' },
];

/** A file named `.gz` whose bytes are not gzip data: what to say, and what it is instead. */
export interface NotGzip {
  /**
   * What is wrong, as a predicate for the file's name (`${name} is ${note}`): the magic number
   * expected and the bytes found.
   */
  note: string;
  /**
   * When it is another compressed format (`a zip archive`): the whole message refusing it, with
   * what to do; null when it is not one (plain text, or unknown bytes).
   */
  refusal: string | null;
}

/**
 * A file named `.gz` that is not gzip data (a download the browser already unpacked, a zip
 * renamed, a saved error page): said instead of a JSON error at 1:1.
 * @param name the file's name as picked (with its `.gz`)
 * @param head the file's first bytes (8 are enough)
 * @returns null when the name does not end in `.gz` or the bytes are gzip
 * @example notGzip('s.jsonl.gz', strToU8('{"a"')) // { note: 'named .gz but is not gzip data (…)', refusal: null }
 */
export function notGzip(name: string, head: Uint8Array): NotGzip | null {
  if (!/\.gz$/i.test(name) || isGzip(head)) return null;
  const archive = ARCHIVES.find((a) => a.magic.every((b, i) => head[i] === b))?.what ?? null;
  const first = head.subarray(0, 4);
  const hex = Array.from(first, (b) => b.toString(16).padStart(2, '0')).join(' ');
  // Printable ASCII is quoted too: `<!DO` says "a saved web page" faster than 3c 21 44 4f.
  const ascii = first.every((b) => b >= 0x20 && b < 0x7f)
    ? ` “${String.fromCharCode(...first)}”`
    : '';
  const found =
    head.length === 0
      ? 'this file is empty'
      : `this one starts with ${hex}${archive ? `: ${archive}` : ascii}`;
  const note = `named .gz but is not gzip data (gzip starts with the bytes 1f 8b; ${found})`;
  return {
    note,
    refusal: archive
      ? `This file is ${note}. Unpack it with a tool for ${archive} and open the transcript inside.`
      : null,
  };
}

/**
 * The note a file named `.gz` that is not gzip data carries once read as plain text (the page's
 * `Source.readNote`, the CLI's): `s.jsonl.gz is named .gz but is not gzip data (…): it was read
 * as plain text.`
 * @param name the file's name as picked; @param misnamed what `notGzip` found
 */
export function readAsTextNote(name: string, misnamed: NotGzip): string {
  return `${name} is ${misnamed.note}: it was read as plain text.`;
}

/**
 * An error about a file's text with its read note said first (`readAsTextNote`), so a JSON error
 * at 1:1 names the real problem; the error itself when there is no note.
 */
export function withReadNote<E extends ParseError>(error: E, note: string | undefined): E {
  return note ? { ...error, message: `${note} ${error.message}` } : error;
}

/** Compressed bytes pushed into the inflater at a time: at most ≈ 66 MB out (deflate's 1,032×). */
const INFLATE_STEP = 64 * 1024;

/** The message for text over the limit: the sizes in words and what to do instead. */
export function tooLargeMessage(unpacked: number, max: number, compressed?: number): string {
  const what =
    compressed === undefined
      ? `This text is ${formatBytes(unpacked)}`
      : `This .gz file is ${formatBytes(compressed)} but unpacks to more than ${formatBytes(unpacked)}`;
  return `${what}; the limit is ${formatBytes(max)} of text. Split the log (e.g. keep its last lines: tail -n 50000 file.jsonl) and open a part.`;
}

const limitError = (message: string): Result<never> => ({
  ok: false,
  error: { kind: 'limit', message },
});

/**
 * The words for a .gz file whose gzip stream stops before its end or breaks inside (a truncated
 * copy, or damaged): one wording for the page, `check` (both through `gunzipLimited`) and `scan`
 * (which inflates as it streams, cli/scan/worker.ts).
 * @param inflated the text bytes that came out of it before it stopped, in order
 * @returns the message, and the 1-based line that text stops at (1 when none came out)
 */
export function gzipCutOff(inflated: readonly Uint8Array[]): { message: string; line: number } {
  let line = 1;
  let any = false;
  for (const c of inflated) {
    if (c.length > 0) any = true;
    for (let i = c.indexOf(10); i >= 0; i = c.indexOf(10, i + 1)) line++;
  }
  const where = any ? `its text stops at line ${line}` : 'no text comes out of it';
  return {
    message: `This .gz file is cut off (a truncated copy) or damaged: it does not decompress to its end, and ${where}. Copy or download the file again.`,
    line,
  };
}

/**
 * Inflate a gzip stream (every member), stopping as soon as the output passes `max` bytes or,
 * past `RATIO_FLOOR_BYTES`, grows faster than `MAX_INFLATE_RATIO` × the compressed bytes read.
 * @param gz the compressed bytes; @param max the largest output accepted, in bytes
 * @returns the inflated bytes; or a ParseError: `limit` (a bomb or too large: both sizes and the
 *   limit in the message), `binary` (corrupt or truncated). Never throws.
 */
export function gunzipLimited(gz: Uint8Array, max = MAX_UNPACKED_BYTES): Result<Uint8Array> {
  const chunks: Uint8Array[] = [];
  let total = 0;
  // Output bytes before the stream's last member (each member ends with its own length).
  let memberStart = 0;
  const inflater = new Gunzip((chunk) => {
    total += chunk.length;
    if (total <= max) chunks.push(chunk);
  });
  inflater.onmember = () => {
    memberStart = total;
  };
  try {
    for (let off = 0; off < gz.length; off += INFLATE_STEP) {
      const end = Math.min(gz.length, off + INFLATE_STEP);
      // Never `final` with data: fflate reads the members after the first only on a non-final
      // push (0.8.2), so the end is an empty final push below.
      inflater.push(gz.subarray(off, end), false);
      if (total > max) return limitError(tooLargeMessage(total, max, gz.length));
      if (total >= RATIO_FLOOR_BYTES && total > end * MAX_INFLATE_RATIO)
        return limitError(
          `This .gz file unpacks more than ${MAX_INFLATE_RATIO}× (${formatBytes(end)} of it gave ${formatBytes(total)}; the whole file is ${formatBytes(gz.length)}, the limit ${formatBytes(max)} of text): it looks like a decompression bomb, not a log. Unpack it yourself (gunzip -c) to check what it holds.`,
        );
    }
    inflater.push(new Uint8Array(0), true);
  } catch {
    return {
      ok: false,
      error: {
        kind: 'binary',
        unreadable: 'gzip',
        message: gzipCutOff(chunks).message,
      },
    };
  }
  // A stream cut inside its last member can inflate without an error (fflate 0.8.2 stops at the
  // last whole block): its last 4 bytes are then not that member's length (gzip's ISIZE).
  if (gz.length < 18 || readUint32LE(gz, gz.length - 4) !== (total - memberStart) >>> 0)
    return {
      ok: false,
      error: {
        kind: 'binary',
        unreadable: 'gzip',
        message: gzipCutOff(chunks).message,
      },
    };
  if (chunks.length === 1) return { ok: true, value: chunks[0] as Uint8Array };
  const out = new Uint8Array(total);
  let at = 0;
  for (const c of chunks) {
    out.set(c, at);
    at += c.length;
  }
  return { ok: true, value: out };
}

/** The unsigned 32-bit little-endian number at `at`. */
function readUint32LE(b: Uint8Array, at: number): number {
  return (
    ((b[at] ?? 0) |
      ((b[at + 1] ?? 0) << 8) |
      ((b[at + 2] ?? 0) << 16) |
      ((b[at + 3] ?? 0) << 24)) >>>
    0
  );
}

/** UTF-16 by its byte order mark (as PowerShell's `>` writes), or null. */
function utf16Of(b: Uint8Array): 'utf-16le' | 'utf-16be' | null {
  if (b[0] === 0xff && b[1] === 0xfe) return 'utf-16le';
  if (b[0] === 0xfe && b[1] === 0xff) return 'utf-16be';
  return null;
}

/**
 * Decode a dropped or read file into text.
 * @param bytes the file's bytes (gzip or UTF-8)
 * @param max the most bytes of text accepted (after inflating), default `MAX_UNPACKED_BYTES`
 * @param name the file's name as picked, when there is one: a `.gz` that is not gzip data is read
 *   as plain text when it is text, and said so when it is not (`notGzip`)
 * @returns the text; or a `ParseError`: `limit` when the text (inflated or not) is over `max` or
 *   the .gz is a bomb (gunzipLimited); `binary` when the gzip stream is corrupt, when the
 *   (inflated) bytes contain a NUL byte, or when they are not valid UTF-8 (with the byte offset of
 *   the first bad sequence), or when a `.gz` is another archive. Never throws.
 */
export function decodeBytes(
  bytes: Uint8Array,
  max = MAX_UNPACKED_BYTES,
  name = '',
): Result<string> {
  const misnamed = notGzip(name, bytes.subarray(0, 8));
  if (misnamed?.refusal) return { ok: false, error: { kind: 'binary', message: misnamed.refusal } };
  const r = decodeText(bytes, max);
  // Not text either: the name is the first thing wrong with it.
  if (!r.ok && misnamed && r.error.kind === 'binary')
    return {
      ok: false,
      error: { ...r.error, message: `This file is ${misnamed.note}. ${r.error.message}` },
    };
  return r;
}

/** `decodeBytes` without the name: gzip by its magic number, else UTF-8. */
function decodeText(bytes: Uint8Array, max: number): Result<string> {
  let data = bytes;
  if (isGzip(bytes)) {
    const inflated = gunzipLimited(bytes, max);
    if (!inflated.ok) return inflated;
    data = inflated.value;
  } else if (bytes.length > max) return limitError(tooLargeMessage(bytes.length, max));
  const utf16 = utf16Of(data);
  if (utf16) return decodeUtf16(data, utf16);
  const nul = data.indexOf(0);
  if (nul >= 0) {
    return {
      ok: false,
      error: {
        kind: 'binary',
        message: `This is not a text file: it contains a NUL byte at byte ${nul}. ${DROP_ADVICE}`,
      },
    };
  }
  try {
    return {
      ok: true,
      value: new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(data),
    };
  } catch {
    return {
      ok: false,
      error: {
        kind: 'binary',
        unreadable: 'encoding',
        message: `This is not UTF-8 text: ${bytePlace(data, firstInvalidUtf8(data))} are not valid UTF-8. Save the transcript as UTF-8 and try again.`,
      },
    };
  }
}

/** Text saved as UTF-16 with its byte order mark, decoded (the mark dropped). */
function decodeUtf16(data: Uint8Array, encoding: 'utf-16le' | 'utf-16be'): Result<string> {
  try {
    return {
      ok: true,
      value: new TextDecoder(encoding, { fatal: true, ignoreBOM: false }).decode(data),
    };
  } catch {
    return {
      ok: false,
      error: {
        kind: 'binary',
        unreadable: 'encoding',
        message: `This file starts as ${encoding.toUpperCase()} text (its byte order mark) but is not valid ${encoding.toUpperCase()}. Save the transcript as UTF-8 and try again.`,
      },
    };
  }
}

/**
 * Where byte `at` is, as an editor shows it: `the bytes at line 3, column 7 (offset 42)`; the
 * column counts the characters of the line before it (the valid UTF-8 before `at`), from 1.
 */
function bytePlace(b: Uint8Array, at: number): string {
  const start = b.lastIndexOf(10, at - 1) + 1;
  let line = 1;
  for (let i = b.indexOf(10); i >= 0 && i < at; i = b.indexOf(10, i + 1)) line++;
  const before = new TextDecoder('utf-8', { fatal: false, ignoreBOM: true }).decode(
    b.subarray(start, at),
  );
  return `the bytes at line ${line}, column ${[...before].length + 1} (offset ${at})`;
}

/** Offset of the first byte that starts an invalid UTF-8 sequence (for the error message). */
function firstInvalidUtf8(b: Uint8Array): number {
  let i = 0;
  while (i < b.length) {
    const c = b[i] as number;
    const need =
      c < 0x80
        ? 0
        : c >= 0xc2 && c <= 0xdf
          ? 1
          : c >= 0xe0 && c <= 0xef
            ? 2
            : c >= 0xf0 && c <= 0xf4
              ? 3
              : -1;
    if (need < 0) return i;
    for (let k = 1; k <= need; k++) {
      const n = b[i + k];
      if (n === undefined || (n & 0xc0) !== 0x80) return i;
    }
    // Overlongs and surrogates (E0 <A0, ED >9F, F0 <90, F4 >8F).
    const n1 = b[i + 1] ?? 0;
    if (
      (c === 0xe0 && n1 < 0xa0) ||
      (c === 0xed && n1 > 0x9f) ||
      (c === 0xf0 && n1 < 0x90) ||
      (c === 0xf4 && n1 > 0x8f)
    )
      return i;
    i += need + 1;
  }
  return i;
}
