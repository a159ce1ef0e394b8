/**
 * Bytes in, text out: what a dropped file goes through before `parseTranscript`.
 * Gzip (`.gz`, magic 1f 8b) is inflated with fflate; binary input is refused with a message a
 * person can act on; everything else is decoded as UTF-8 (a leading BOM is dropped).
 */
import { gunzipSync } from 'fflate';
import type { Result } from '../types.ts';

/**
 * TextDecoder exists in browsers, workers and Node, but the model's tsconfig has neither DOM nor
 * Node types; this is the part of its interface used here.
 */
declare const TextDecoder: new (
  label: string,
  options: { fatal: boolean; ignoreBOM: boolean },
) => { decode: (input: Uint8Array) => string };

/** True when the bytes start with the gzip magic number (1f 8b). */
export function isGzip(bytes: Uint8Array): boolean {
  return bytes.length >= 2 && bytes[0] === 0x1f && bytes[1] === 0x8b;
}

/**
 * Decode a dropped or read file into text.
 * @param bytes the file's bytes (gzip or UTF-8)
 * @returns the text; or a `ParseError` of kind `binary` when the gzip stream is corrupt, when the
 *   (inflated) bytes contain a NUL byte, or when they are not valid UTF-8 (with the byte offset of
 *   the first bad sequence). Never throws.
 */
export function decodeBytes(bytes: Uint8Array): Result<string> {
  let data = bytes;
  if (isGzip(bytes)) {
    try {
      data = gunzipSync(bytes);
    } catch (e) {
      return {
        ok: false,
        error: {
          kind: 'binary',
          message: `This looks like a .gz file, but it does not decompress (${(e as Error).message}). Is it truncated?`,
        },
      };
    }
  }
  const nul = data.indexOf(0);
  if (nul >= 0) {
    return {
      ok: false,
      error: {
        kind: 'binary',
        message: `This is not a text file: it contains a NUL byte at byte ${nul}. Drop a .json, .jsonl or .gz transcript.`,
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
        message: `This is not UTF-8 text: the bytes at offset ${firstInvalidUtf8(data)} are not valid UTF-8. Save the transcript as UTF-8 and try again.`,
      },
    };
  }
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
