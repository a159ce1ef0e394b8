/**
 * What the model accepts at most (issue 14: hostile input). One place for the page, the worker and
 * the CLI, so a file refused in one is refused in the other with the same words.
 *
 * - Unpacked bytes: a file's text (a `.gz` after inflating) is at most `MAX_UNPACKED_BYTES`. V8
 *   strings stop at 2^29 − 24 UTF-16 units (`MAX_STRING_CHARS`, ≈ 512 Mi), and the whole text of
 *   a file must fit in one (the CLI parses it, the page exports it): 511 MiB keeps 1 MiB below
 *   that and takes a 500 MB log (issue 38; the page's heap decides first: engine/limits.ts).
 *   Inflating stops as soon as the limit is passed, or earlier when the ratio of unpacked to
 *   compressed bytes says the file is a bomb.
 * - Depth: nothing deeper than `MAX_JSON_DEPTH` arrays and objects is parsed. `JSON.parse` is not
 *   recursive in V8, but structured clone (postMessage to and from the worker) overflows the
 *   stack at ≈ 2,000 levels in Node and `JSON.stringify` at ≈ 5,000 (measured, Node 20), and the
 *   writers, hashing and token counting stringify. JSON held in strings (tool arguments, a logged
 *   body) is parsed with the same limit, so a value is at most a few times this deep: 256 leaves
 *   a wide margin (serde_json refuses beyond 128 by default; real transcripts stay under 30).
 * - Quotes of input: a message quoting the input shows at most `QUOTE_CHARS` characters around
 *   the position (a 6.7 MB one-line file otherwise puts the whole line in the error banner), and
 *   an id it quotes at most `QUOTE_CHARS` characters of its two ends (`quoteIds`): a 10 MB
 *   `tool_use_id` would otherwise land whole in the validator's message and its error body.
 */

/** The longest string V8 makes on a 64-bit machine, in UTF-16 units (`String::kMaxLength`). */
export const MAX_STRING_CHARS = 2 ** 29 - 24;

/**
 * The largest text accepted, in bytes of UTF-8 (after inflating a `.gz`): 511 MiB, under
 * `MAX_STRING_CHARS` (a text has at most as many UTF-16 units as UTF-8 bytes).
 */
export const MAX_UNPACKED_BYTES = 511 * 1024 * 1024;

/**
 * Unpacked ÷ compressed bytes above which a `.gz` is refused as a decompression bomb, once
 * `RATIO_FLOOR_BYTES` are unpacked. JSON compresses 5–20× (deflate's window is 32 KiB, so a log's
 * repeated requests do not compress beyond that); only padding reaches deflate's maximum of
 * ≈ 1,032×.
 */
export const MAX_INFLATE_RATIO = 100;

/** Unpacked bytes below which the ratio is not checked (a small file may compress very well). */
export const RATIO_FLOOR_BYTES = 16 * 1024 * 1024;

/** The deepest nesting of JSON arrays and objects parsed (a document, a line, a nested string). */
export const MAX_JSON_DEPTH = 256;

/**
 * The most memory the values of one JSON text (a document, or all the lines of a log together)
 * may take once parsed, estimated before parsing from what the text holds: `CONTAINER_BYTES` per
 * object or array and `VALUE_BYTES` per string and per comma (about one per other value). Bounded
 * text alone does not bound memory: 256 MiB of `[{},{},…]` are 89 million objects, over 6 GB of
 * heap once parsed, and `[0,0,…]` took 3.7 GB of RSS before the CLI refused it as no transcript.
 * Transcripts are mostly text inside strings: real logs estimate at 0.2–1.2× their size (small
 * request bodies up to 2.5×), so 384 MiB (1.5× the largest text) refuses no log of the largest
 * size shaped like the real ones. Measured with the CLI (Node 20): such dense files of 255 MiB are
 * refused before parsing at 0.58 GB of RSS (a JSON Lines log at 0.75 GB: its lines up to the limit
 * are parsed first); a file just under the limit that is no transcript is parsed, then refused, at
 * what `JSON.parse` of it costs (0.5–0.7 GB; 1.06 GB for the worst mix found, a 190 MB string
 * beside 24 million numbers, which `node -e` JSON.parse alone takes to 1.04 GB).
 */
export const MAX_STRUCTURE_BYTES = 384 * 1024 * 1024;

/** Estimated heap bytes of one parsed object or array (measured 43–67 for small ones, Node 20). */
export const CONTAINER_BYTES = 64;

/** Estimated heap bytes of one string, number or literal (measured 10–19, Node 20). */
export const VALUE_BYTES = 16;

/** Characters of input a message quotes at most (the window around a position). */
export const QUOTE_CHARS = 160;

/** Characters of any message built from input (parse errors, warnings) at most. */
export const MAX_MESSAGE_CHARS = 2000;

/** `12.3 MB` (decimal, as file managers show sizes). */
export function formatBytes(n: number): string {
  if (n < 1000) return `${n} bytes`;
  if (n < 1e6) return `${(n / 1e3).toFixed(1)} kB`;
  return `${(n / 1e6).toFixed(n >= 1e8 ? 0 : 1)} MB`;
}

/**
 * A window of at most `max` characters of `line` around 1-based `column`, with `…` where it was
 * cut, and where `column` falls in it.
 * @returns `text` (the window), `from` (the 1-based column of `line` the window starts at, not
 *   counting the `…`), and `caret` (the 0-based index of `column` in `text`)
 */
export function windowAround(
  line: string,
  column: number,
  max = QUOTE_CHARS,
): { text: string; from: number; caret: number } {
  const at = Math.max(0, Math.min(column - 1, line.length));
  if (line.length <= max) return { text: line, from: 1, caret: at };
  const start = Math.max(0, Math.min(at - Math.floor(max / 2), line.length - max));
  const end = Math.min(line.length, start + max);
  const head = start > 0 ? '…' : '';
  return {
    text: head + line.slice(start, end) + (end < line.length ? '…' : ''),
    from: start + 1,
    caret: at - start + head.length,
  };
}

/**
 * `s` cut to at most `max` characters: its start and end with `…` between (a message quoting a
 * long key or id keeps both ends readable).
 */
export function clip(s: string, max = MAX_MESSAGE_CHARS): string {
  if (s.length <= max) return s;
  const keep = max - 1;
  const head = Math.ceil(keep * 0.7);
  return `${s.slice(0, head)}…${s.slice(s.length - (keep - head))}`;
}

/**
 * A message built from input, bounded: every id of `quoted` longer than `QUOTE_CHARS` is cut to
 * its two ends wherever the message quotes it, then the message to `MAX_MESSAGE_CHARS` (`clip`).
 * Real ids are under 100 characters: for them this returns `message` itself, without a copy.
 * @example quoteIds(`unexpected tool_use_id found: ${id}`, [id]) // a 10 MB id → ≈ 190 characters
 */
export function quoteIds(message: string, quoted: readonly string[]): string {
  let out = message;
  for (const id of quoted)
    if (id.length > QUOTE_CHARS && out.includes(id))
      out = out.split(id).join(clip(id, QUOTE_CHARS));
  return clip(out);
}

/** Ids for display (`a, b, c`), each cut as `quoteIds` cuts it, the whole list to `MAX_MESSAGE_CHARS`. */
export function idsText(ids: readonly string[]): string {
  return clip(ids.map((id) => clip(id, QUOTE_CHARS)).join(', '));
}
