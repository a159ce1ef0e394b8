/**
 * `check`'s FILE read while the CLI's modules load (issue 38). Starting node, then loading and
 * compiling the bundle, takes some 30 ms before a command runs; reading a 100 MB file takes about
 * twice that, in the kernel. main.ts starts the read on libuv's thread pool before it imports the
 * commands, so the two overlap; `readInput` then takes the bytes instead of reading them.
 *
 * Only where the bytes are certainly what `readInput` would read: a regular file (never stdin or a
 * pipe, which a read would consume) no larger than the limit, read whole in one call that ends at
 * the size it had when opened. Anything else (a usage error, a link, a missing or growing file, a
 * failed read) is left to the command, which reads and words its errors as before.
 */
import { closeSync, fstatSync, openSync, read } from 'node:fs';
import { CHECK_BOOLEANS, CHECK_VALUED, parseArgs } from './args.ts';
import { MAX_UNPACKED_BYTES } from '../model/limits.ts';

/** A file being read ahead: its name as given, and its bytes (null when it is left to the command). */
export interface Prefetch {
  file: string;
  bytes: Promise<Buffer | null>;
}

/**
 * Start reading `check FILE`'s bytes, or return null when the command line is anything else.
 * Never throws: whatever fails is left to the command.
 * @param argv the CLI's arguments (`check FILE [flags]`)
 * @param max the most bytes `readInput` accepts (a larger file is refused there, unread)
 */
export function prefetchInput(argv: string[], max = MAX_UNPACKED_BYTES): Prefetch | null {
  if (argv[0] !== 'check' || argv.includes('--help') || argv.includes('-h')) return null;
  let file: string | undefined;
  try {
    const args = parseArgs(argv.slice(1), CHECK_VALUED, CHECK_BOOLEANS);
    if (args.positionals.length !== 1) return null;
    file = args.positionals[0];
  } catch {
    return null;
  }
  if (file === undefined || file === '-') return null;
  let fd: number;
  try {
    fd = openSync(file, 'r');
  } catch {
    return null;
  }
  let size: number;
  try {
    const st = fstatSync(fd);
    if (!st.isFile() || st.size > max) throw new Error('not read ahead');
    size = st.size;
  } catch {
    closeSync(fd);
    return null;
  }
  // One byte more than the size: a read that fills it means the file grew (left to the command).
  // Shared memory: V8 does not count a SharedArrayBuffer's bytes as the isolate's external
  // memory, which for a plain 100 MB buffer it answers with a full collection of the heap of
  // that moment (a few MB), leaving the old generation's limit that small: two more full
  // collections follow while the text is parsed (--trace-gc, issue 38).
  const buf = Buffer.from(new SharedArrayBuffer(size + 1));
  const bytes = new Promise<Buffer | null>((resolve) => {
    read(fd, buf, 0, buf.length, 0, (err, n) => {
      try {
        closeSync(fd);
      } catch {
        // closing a file read whole cannot change its bytes
      }
      resolve(err || n !== size ? null : buf.subarray(0, n));
    });
  });
  return { file, bytes };
}
