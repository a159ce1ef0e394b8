/**
 * The inline transcript of a permalink (`t=`): `<payload version>.<d = deflate-raw, n = none>.<base64url>`,
 * carrying its own version and compression flag like excalidraw's `encode.ts` (style.md §4.3).
 * Decoding trusts nothing: the inflated text has a size cap, and the inflater runs in small steps
 * so a decompression bomb is refused before it is expanded (issue 6).
 *
 * Pure: fflate and web-standard APIs (`web.ts`) only.
 */
import { Inflate, deflateSync, strFromU8, strToU8 } from 'fflate';
import { base64ToLatin1, decodeUtf8, latin1ToBase64 } from './web.ts';

/**
 * Largest inflated inline transcript the decoder reads, in bytes (16 MiB). Deflate can expand
 * ~1000×, so a 2 MiB fragment could otherwise inflate to gigabytes. Links written before the
 * encoder's own, lower limit (`MAX_LINK_TRANSCRIPT_BYTES`) keep opening up to this size.
 */
export const MAX_INLINE_BYTES = 16 * 1024 * 1024;

/**
 * Largest transcript the encoder puts in a link, in UTF-8 bytes (2 MiB; at most the decoder's
 * `MAX_INLINE_BYTES`, so the page never offers a link it would refuse). 2 MiB is also the size
 * above which the page streams a file instead of holding its text (engine/limits.ts), and
 * building a link from up to 2 MiB takes a fraction of a second; anything larger is shared as a
 * file plus a view-only link.
 */
export const MAX_LINK_TRANSCRIPT_BYTES = 2 * 1024 * 1024;

/** Version of the inline payload layout (`1.d.<base64url>`), independent of the fragment `v`. */
export const INLINE_PAYLOAD_VERSION = 1;

/** Input bytes fed to the inflater per step: one step can emit at most ~1 MiB (1032× ratio). */
const INFLATE_STEP_BYTES = 1024;

/** Bytes → base64url without padding (RFC 4648 §5). */
export function toBase64Url(bytes: Uint8Array): string {
  // strFromU8(…, true) builds the latin1 string in chunks (no argument-count overflow).
  return latin1ToBase64(strFromU8(bytes, true))
    .replace(/\+/g, '-')
    .replace(/\//g, '_')
    .replace(/=+$/, '');
}

/** base64url (padding optional) → bytes, or null when the text is not base64url. */
export function fromBase64Url(text: string): Uint8Array | null {
  if (!/^[A-Za-z0-9_-]*$/.test(text) || text.length % 4 === 1) return null;
  try {
    return strToU8(base64ToLatin1(text.replace(/-/g, '+').replace(/_/g, '/')), true);
  } catch {
    return null;
  }
}

/**
 * Inflate raw deflate data with an output cap, in small steps, so that a bomb is stopped after at
 * most `cap` + ~1 MiB of output instead of being expanded whole.
 * @returns the bytes, `'too-large'` when the output passes `cap`, `'corrupt'` when the data is
 *   not valid deflate or is truncated
 */
export function inflateCapped(data: Uint8Array, cap: number): Uint8Array | 'too-large' | 'corrupt' {
  const chunks: Uint8Array[] = [];
  let total = 0;
  let done = false;
  const inflater = new Inflate((chunk, final) => {
    total += chunk.length;
    if (total <= cap) chunks.push(chunk);
    if (final) done = true;
  });
  try {
    let off = 0;
    do {
      const end = Math.min(data.length, off + INFLATE_STEP_BYTES);
      inflater.push(data.subarray(off, end), end >= data.length);
      if (total > cap) return 'too-large';
      off = end;
    } while (off < data.length);
  } catch {
    return 'corrupt';
  }
  if (!done) return 'corrupt';
  const out = new Uint8Array(total);
  let pos = 0;
  for (const c of chunks) {
    out.set(c, pos);
    pos += c.length;
  }
  return out;
}

/**
 * Encode a transcript's source text as an inline payload: `1.d.<base64url of raw deflate>`, or
 * `1.n.<base64url of UTF-8>` when deflate does not make it shorter (tiny texts).
 * Lone UTF-16 surrogates become U+FFFD (UTF-8 cannot carry them).
 */
export function encodeInlinePayload(text: string): string {
  // A small cache: the URL writer and the share panel re-encode on every view change while the
  // texts stay the same (the panel encodes two: the full text and the structure-only one).
  const hit = inlineCache.find((e) => e.text === text);
  if (hit) return hit.payload;
  const utf8 = strToU8(text);
  const deflated = deflateSync(utf8, { level: 9 });
  const payload =
    deflated.length < utf8.length
      ? `${INLINE_PAYLOAD_VERSION}.d.${toBase64Url(deflated)}`
      : `${INLINE_PAYLOAD_VERSION}.n.${toBase64Url(utf8)}`;
  inlineCache.unshift({ text, payload });
  inlineCache.length = Math.min(inlineCache.length, INLINE_CACHE_ENTRIES);
  return payload;
}

/** Texts whose payload is kept (each at most `MAX_LINK_TRANSCRIPT_BYTES` when it came through a checked link). */
const INLINE_CACHE_ENTRIES = 3;
const inlineCache: { text: string; payload: string }[] = [];

/**
 * The cheap check before building an inline link: a transcript whose size is known to be above
 * `maxBytes` cannot go in a link, so nothing is built (redacting and deflating a large transcript
 * would freeze the page for seconds).
 * @param bytes the transcript's size in bytes, or a lower bound of it (a string's UTF-16 length:
 *   its UTF-8 form is never shorter); a file's `size`
 * @param maxBytes the limit (default `MAX_LINK_TRANSCRIPT_BYTES`, the encoder's)
 * @returns null when it may fit (the exact check is `encodePermalinkChecked`), else the reason,
 *   naming the size and the limit
 */
export function inlineSizeRefusal(
  bytes: number,
  maxBytes: number = MAX_LINK_TRANSCRIPT_BYTES,
): string | null {
  if (bytes <= maxBytes) return null;
  return `The transcript is ${formatBytes(bytes)}; a link carries at most ${formatBytes(maxBytes)} of transcript.`;
}

/**
 * Decode an inline payload.
 * @returns the text, or a reason a person can read (never throws)
 */
export function decodeInlinePayload(
  payload: string,
  maxBytes: number = MAX_INLINE_BYTES,
): { ok: true; text: string } | { ok: false; reason: string } {
  if (payload === '')
    return {
      ok: false,
      reason: 'The link’s transcript (t=) is empty: the link was cut off or damaged on its way.',
    };
  const m = /^(\d{1,4})\.([dn])\.([A-Za-z0-9_-]*)$/.exec(payload);
  if (!m)
    return { ok: false, reason: 'The inline transcript is not in the expected `1.d.…` form.' };
  const [, version, flag, body] = m;
  if (Number(version) !== INLINE_PAYLOAD_VERSION)
    return {
      ok: false,
      reason: `The inline transcript uses payload version ${version ?? '?'}, which this page does not read.`,
    };
  const bytes = fromBase64Url(body ?? '');
  if (!bytes) return { ok: false, reason: 'The inline transcript is not valid base64url.' };
  let utf8: Uint8Array;
  if (flag === 'd') {
    const inflated = inflateCapped(bytes, maxBytes);
    if (inflated === 'too-large')
      return {
        ok: false,
        reason: `The inline transcript expands beyond ${formatBytes(maxBytes)} and was refused (a decompression bomb, or too large for a link).`,
      };
    if (inflated === 'corrupt')
      return {
        ok: false,
        reason:
          'The inline transcript is damaged (not valid deflate data; the link may be cut off).',
      };
    utf8 = inflated;
  } else {
    if (bytes.length > maxBytes)
      return {
        ok: false,
        reason: `The inline transcript is larger than ${formatBytes(maxBytes)} and was refused.`,
      };
    utf8 = bytes;
  }
  const text = decodeUtf8(utf8);
  return text === null
    ? { ok: false, reason: 'The inline transcript is not valid UTF-8 text.' }
    : { ok: true, text };
}

/**
 * A size for people, in binary units: `2 MiB`, `5.5 MiB`, `340 KiB`, `12 bytes`. Below 10 units a
 * fraction is shown to one decimal, rounded up, so a size above a limit never reads as the limit.
 */
export function formatBytes(n: number): string {
  const unit = (v: number, name: string) =>
    `${v >= 10 || Number.isInteger(v) ? Math.ceil(v) : (Math.ceil(v * 10) / 10).toFixed(1)} ${name}`;
  return n >= 1024 * 1024
    ? unit(n / (1024 * 1024), 'MiB')
    : n >= 1024
      ? unit(n / 1024, 'KiB')
      : `${n} bytes`;
}
