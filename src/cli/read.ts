/**
 * Reading FILE (or stdin) for the CLI as the page reads a dropped file: gunzip `.gz`, refuse
 * binary, decode UTF-8 — and never hold more than the model's limit on unpacked bytes (issue 14):
 * a plain file over the limit is refused from its size before it is read, stdin stops being read
 * at the limit, and a `.gz` is inflated under the limit and ratio check (model/parse/bytes.ts).
 * A refused file thus costs at most about twice the limit in memory.
 */
import { isAscii, isUtf8 } from 'node:buffer';
import { closeSync, openSync, readSync, fstatSync } from 'node:fs';
import {
  decodeBytes,
  isGzip,
  notGzip,
  readAsTextNote,
  tooLargeMessage,
} from '../model/parse/bytes.ts';
import { formatBytes, MAX_UNPACKED_BYTES } from '../model/limits.ts';

/** Bytes per read from a file descriptor. */
const READ_CHUNK = 1 << 20;

/**
 * Read at most `max` + 1 bytes from a file descriptor (one more tells "over the limit").
 * @returns the bytes read (a fresh buffer)
 */
function readUpTo(fd: number, max: number): Buffer {
  const chunks: Buffer[] = [];
  let total = 0;
  for (;;) {
    const want = Math.min(READ_CHUNK, max + 1 - total);
    if (want <= 0) break;
    const buf = Buffer.allocUnsafe(want);
    let n: number;
    try {
      n = readSync(fd, buf, 0, want, null);
    } catch (e) {
      // A non-blocking stdin with nothing yet: wait and retry (pipes from slow producers).
      if ((e as NodeJS.ErrnoException).code === 'EAGAIN') {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 10);
        continue;
      }
      if ((e as NodeJS.ErrnoException).code === 'EOF') break;
      throw e;
    }
    if (n === 0) break;
    chunks.push(n === want ? buf : buf.subarray(0, n));
    total += n;
  }
  return Buffer.concat(chunks, total);
}

/**
 * A regular file's bytes read into one buffer of its size: no chunks to join, which on a 100 MB
 * file cost a copy of it (issue 20). A file that grew since it was measured is read on in chunks.
 * The buffer is shared memory, as prefetch.ts's (why: there).
 * @returns the bytes read (at most `max` + 1, as `readUpTo`)
 */
function readWhole(fd: number, size: number, max: number): Buffer {
  const buf = Buffer.from(new SharedArrayBuffer(size + 1));
  let total = 0;
  while (total < buf.length) {
    const n = readSync(fd, buf, total, buf.length - total, null);
    if (n === 0) break;
    total += n;
  }
  if (total < buf.length) return buf.subarray(0, total);
  return Buffer.concat([buf, readUpTo(fd, Math.max(0, max - total))]);
}

/**
 * The text of plain UTF-8 bytes the way Node decodes a file (`isUtf8`, `toString`: native, one
 * pass each, as `readFileSync(file, 'utf8')` does), or null when anything needs `decodeBytes`'s
 * word: gzip, a UTF-16 byte order mark, a NUL byte, bytes that are not UTF-8, a `.gz` name. The
 * same text as `decodeBytes` (a leading UTF-8 BOM dropped, as its TextDecoder does), without the
 * JavaScript-side copy and checks that cost about a third of `check`'s time on 100 MB (issue 38).
 */
function decodePlain(buf: Buffer, name: string): string | null {
  if (isGzip(buf) || /\.gz$/i.test(name)) return null;
  if ((buf[0] === 0xff && buf[1] === 0xfe) || (buf[0] === 0xfe && buf[1] === 0xff)) return null;
  if (buf.indexOf(0) >= 0) return null;
  // ASCII (most logs): one copy into a string in V8's heap (its UTF-8 decoder copies ASCII as
  // is). Not Latin-1: for a large buffer Node makes that an external string, whose 100 MB V8
  // counts as external memory and answers with a full collection, which leaves the old
  // generation's limit at the size of the small heap of that moment, and so a second full
  // collection in the middle of the parse (issue 38).
  if (isAscii(buf)) return buf.toString('utf8');
  if (!isUtf8(buf)) return null;
  const bom = buf[0] === 0xef && buf[1] === 0xbb && buf[2] === 0xbf ? 3 : 0;
  return buf.toString('utf8', bom);
}

/**
 * An input refused for what it is, with the `kind` that `--json` reports for it (`binary`: not
 * text, NUL bytes, a corrupt or foreign .gz; `limit`: over the limit on text).
 */
export class InputRefused extends Error {
  readonly kind: string;
  constructor(message: string, kind: string) {
    super(message);
    this.kind = kind;
  }
}

/** FILE's bytes (`-`: stdin), at most `max` + 1 of them; a regular file over `max` is refused unread. */
function readBytes(file: string, max: number): Buffer {
  const fd = file === '-' ? 0 : openSync(file, 'r');
  try {
    const st = fstatSync(fd);
    // A regular file's size is known: refuse it before reading when even compressed it is over.
    if (st.isFile() && st.size > max)
      throw new InputRefused(tooLargeMessage(st.size, max), 'limit');
    return st.isFile() ? readWhole(fd, st.size, max) : readUpTo(fd, max);
  } finally {
    if (fd !== 0) closeSync(fd);
  }
}

/**
 * FILE's text (`-` reads stdin) and its name for format hints (`.gz` dropped); a FILE named .gz
 * that is not gzip data is read as plain text, and `readNote` says so (`notGzip`).
 * @param max the most bytes of text accepted (tests pass a small one)
 * @param early FILE's bytes already read whole (prefetch.ts), used instead of reading it
 * @throws InputRefused whose message says why the input is refused (over the limit with both
 *   sizes and the limit, not UTF-8, binary, a corrupt .gz, a .gz that is another archive), or an
 *   Error when it cannot be read (the system's message)
 */
export function readInput(
  file: string,
  max = MAX_UNPACKED_BYTES,
  early: Buffer | null = null,
): { text: string; name: string; readNote?: string } {
  const buf = early ?? readBytes(file, max);
  const bytes = new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength);
  // Only stdin gets here over the limit (a file was refused from its size): it was not read on.
  if (bytes.length > max)
    throw new InputRefused(
      `The input is more than ${formatBytes(max)}${isGzip(bytes) ? ' compressed' : ''}; the limit is ${formatBytes(max)} of text. Split the log (e.g. keep its last lines: tail -n 50000 file.jsonl) and read a part.`,
      'limit',
    );
  const name = file === '-' ? '' : file;
  const plain = decodePlain(buf, name);
  if (plain !== null) return { text: plain, name: file };
  const decoded = decodeBytes(bytes, max, name);
  if (!decoded.ok) throw new InputRefused(decoded.error.message, decoded.error.kind);
  const misnamed = notGzip(name, bytes.subarray(0, 8));
  return {
    text: decoded.value,
    name: file.replace(/\.gz$/, ''),
    ...(misnamed ? { readNote: readAsTextNote(file, misnamed) } : {}),
  };
}
