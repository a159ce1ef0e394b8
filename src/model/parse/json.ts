import { parse as parseLenient, type ParseError as JsoncError } from 'jsonc-parser';
import { clip, CONTAINER_BYTES, formatBytes, MAX_JSON_DEPTH } from '../limits.ts';
import { MAX_STRUCTURE_BYTES, VALUE_BYTES, windowAround } from '../limits.ts';
import type { Result, SourceLocation } from '../types.ts';

/** A parsed source document: one JSON value, or the lines of a JSONL log. */
export type SourceDoc =
  | { kind: 'json'; value: unknown }
  | { kind: 'jsonl'; lines: JsonlLine[]; brokenLines: number[] };

export interface JsonlLine {
  /** 1-based line number in the file. */
  line: number;
  value: unknown;
}

export interface JsonFailure {
  message: string;
  location: SourceLocation;
  /** True when the text was refused for its depth (`MAX_JSON_DEPTH`), not for its syntax. */
  tooDeep?: boolean;
  /** True when it was refused for the memory its values would take (`MAX_STRUCTURE_BYTES`). */
  tooHeavy?: boolean;
}

/** What one pass over JSON text found before parsing it (`scanJson`). */
export interface JsonScan {
  /** The UTF-16 offset of the bracket that opens level `MAX_JSON_DEPTH` + 1, or -1. */
  deepAt: number;
  /** Estimated heap bytes of its values once parsed (limits.ts `MAX_STRUCTURE_BYTES`). */
  structure: number;
  /** The offset where `structure` passed the budget given to `scanJson`, or -1. */
  heavyAt: number;
}

/**
 * One pass over JSON text without parsing it: where it first nests deeper than `max` arrays and
 * objects, and what its values would cost in memory, counted as limits.ts says (`CONTAINER_BYTES`
 * per object or array, `VALUE_BYTES` per string and per comma). No recursion; strings are
 * skipped with `indexOf` (most of a transcript's bytes are inside strings). Not a validator: on
 * malformed text it still answers and never throws. Stops at the first of the two limits.
 * @param text JSON text; @param max the deepest nesting allowed
 * @param budget the structure allowed (what earlier lines of a log left of the limit)
 */
export function scanJson(text: string, max = MAX_JSON_DEPTH, budget = Infinity): JsonScan {
  let depth = 0;
  let containers = 0;
  let values = 0;
  const n = text.length;
  const cost = () => containers * CONTAINER_BYTES + values * VALUE_BYTES;
  for (let i = 0; i < n; i++) {
    const c = text.charCodeAt(i);
    if (c === 34) {
      // Skip the string: the next quote not preceded by an odd run of backslashes.
      let q = i;
      for (;;) {
        q = text.indexOf('"', q + 1);
        if (q < 0) return { deepAt: -1, structure: cost(), heavyAt: -1 };
        let k = q - 1;
        while (text.charCodeAt(k) === 92) k--;
        if ((q - 1 - k) % 2 === 0) break;
      }
      i = q;
      values++;
    } else if (c === 123 || c === 91) {
      containers++;
      if (++depth > max) return { deepAt: i, structure: cost(), heavyAt: -1 };
    } else if (c === 125 || c === 93) depth--;
    else if (c === 44) values++;
    else continue;
    // Checked every 64 Ki counts only: the multiply is not free on every character.
    if (((containers + values) & 0xffff) === 0 && cost() > budget)
      return { deepAt: -1, structure: cost(), heavyAt: i };
  }
  const structure = cost();
  return { deepAt: -1, structure, heavyAt: structure > budget ? n : -1 };
}

/**
 * Where JSON text first nests deeper than `max` arrays and objects (`scanJson`).
 * @returns the UTF-16 offset of the bracket that opens level `max + 1`, or -1
 */
export function tooDeepAt(text: string, max = MAX_JSON_DEPTH): number {
  return scanJson(text, max).deepAt;
}

/** The message for JSON refused for the memory its values would take, naming where. */
export function tooHeavyMessage(structure: number, where: string): string {
  return `This JSON holds too many values for a transcript: parsed, they would take more than ${formatBytes(MAX_STRUCTURE_BYTES)} of memory (about ${formatBytes(structure)} by ${where}; a transcript is mostly text inside strings). Nothing was loaded from it.`;
}

/** Thrown by `parseJsonBounded` for text nested deeper than `MAX_JSON_DEPTH`. */
export class JsonTooDeepError extends Error {
  /** UTF-16 offset in the text where the nesting passes the limit. */
  readonly offset: number;
  constructor(offset: number) {
    super(`JSON nested deeper than ${MAX_JSON_DEPTH} levels`);
    this.name = 'JsonTooDeepError';
    this.offset = offset;
  }
}

/**
 * `JSON.parse` for JSON found inside a value (tool arguments, a logged body, an SSE event): the
 * same depth limit as a document, so nothing downstream (structured clone, stringify) overflows.
 * @throws SyntaxError as `JSON.parse`, or JsonTooDeepError; callers already catch a failed parse
 */
export function parseJsonBounded(text: string): unknown {
  // Text no longer than the limit cannot open more brackets than it: most tool arguments skip
  // the scan (it runs per call on every `check` of a Chat or Responses request).
  const deep = text.length <= MAX_JSON_DEPTH ? -1 : tooDeepAt(text);
  if (deep >= 0) throw new JsonTooDeepError(deep);
  return JSON.parse(text) as unknown;
}

/** The message for text refused for its depth, naming where (`where`: "line 3, column 9"). */
export function tooDeepMessage(where: string): string {
  return `The JSON nests deeper than ${MAX_JSON_DEPTH} levels of arrays and objects at ${where}; no transcript is that deep, and reading it would overflow the stack. Nothing was loaded from it.`;
}

/**
 * Convert a character offset into a 1-based line and column plus the text of that line (of a
 * long line, a window of `QUOTE_CHARS` around the column: see `SourceLocation`).
 * @param text the whole source text
 * @param offset a UTF-16 offset into `text` (clamped to its length)
 */
export function locate(text: string, offset: number): SourceLocation {
  const at = Math.max(0, Math.min(offset, text.length));
  let line = 1;
  let lineStart = 0;
  for (let i = 0; i < at; i++) {
    if (text.charCodeAt(i) === 10) {
      line++;
      lineStart = i + 1;
    }
  }
  let lineEnd = text.indexOf('\n', lineStart);
  if (lineEnd < 0) lineEnd = text.length;
  const column = at - lineStart + 1;
  const line1 = text.slice(lineStart, lineEnd).replace(/\r$/, '');
  const w = windowAround(line1, column);
  return w.from === 1 && w.text === line1
    ? { line, column, lineText: line1 }
    : { line, column, lineText: w.text, caret: w.caret };
}

const JSONC_MESSAGES: Record<number, string> = {
  1: 'a value was expected (invalid symbol)',
  2: 'a number is malformed',
  3: 'a property name in double quotes was expected',
  4: 'a value was expected',
  5: "a ':' was expected after the property name",
  6: "a ',' was expected between items",
  7: "a '}' was expected to close the object",
  8: "a ']' was expected to close the array",
  9: 'the text ended where more was expected',
  10: 'a comment is not allowed in JSON',
  11: 'the text ended inside a comment',
  12: 'the text ended inside a string',
  13: 'the text ended inside a number',
  14: 'an escape sequence in a string is invalid',
  15: 'a unicode escape is invalid',
  16: 'a character in a string is invalid (raw control character)',
};

/**
 * An error offset moved off a blank line: the scanner reports a text that ends early (or a token
 * missing before blank lines) at the next token or the end, which may be an empty line; the
 * caret then belongs just after the last character before it.
 */
function onContent(text: string, offset: number): number {
  const lineStart = text.lastIndexOf('\n', offset - 1) + 1;
  let lineEnd = text.indexOf('\n', offset);
  if (lineEnd < 0) lineEnd = text.length;
  if (text.slice(lineStart, lineEnd).trim() !== '') return offset;
  let k = Math.min(offset, text.length);
  while (k > 0 && /\s/.test(text[k - 1] as string)) k--;
  return k;
}

/**
 * Parse JSON, or say exactly where and why it is not JSON.
 *
 * `JSON.parse` does the work (fast path). Only on failure does the jsonc-parser scanner run, to
 * find the offset of the first error, since V8's messages do not always carry a position.
 * @returns the value, or `{message, location}` with a 1-based line and column.
 */
export function parseJsonText(text: string): Result<unknown, JsonFailure> {
  const scan = scanJson(text, MAX_JSON_DEPTH, MAX_STRUCTURE_BYTES);
  if (scan.deepAt >= 0) {
    const location = locate(text, scan.deepAt);
    return {
      ok: false,
      error: {
        message: tooDeepMessage(`line ${location.line}, column ${location.column}`),
        location,
        tooDeep: true,
      },
    };
  }
  if (scan.heavyAt >= 0) {
    const location = locate(text, scan.heavyAt);
    const where = `line ${location.line}, column ${location.column}`;
    return {
      ok: false,
      error: { message: tooHeavyMessage(scan.structure, where), location, tooHeavy: true },
    };
  }
  try {
    return { ok: true, value: JSON.parse(text) };
  } catch (e) {
    const errors: JsoncError[] = [];
    parseLenient(text, errors, {
      disallowComments: true,
      allowTrailingComma: false,
      allowEmptyContent: false,
    });
    const first = errors[0];
    const offset = onContent(text, first ? first.offset : text.length);
    const what = first
      ? (JSONC_MESSAGES[first.error] ?? 'invalid JSON')
      : clip(String((e as Error).message), 200);
    const location = locate(text, offset);
    return {
      ok: false,
      error: {
        message: `Invalid JSON at line ${location.line}, column ${location.column}: ${what}.`,
        location,
      },
    };
  }
}

/**
 * Cheap check: does the text look like JSON Lines (several lines that each start an object)?
 * @param maxFirstLine look for the end of the first line only this far (UTF-16 code units): a
 *   minified 50 MB JSON document has no newline at all, and scanning it for one costs ~3 ms.
 *   A log whose first line is longer is found by the caller's fallback (see `readSource`).
 */
export function looksLikeJsonl(text: string, maxFirstLine = Infinity): boolean {
  const trimmed = text.trimStart();
  if (!trimmed.startsWith('{')) return false;
  const firstNl =
    maxFirstLine === Infinity
      ? trimmed.indexOf('\n')
      : trimmed.slice(0, maxFirstLine + 1).indexOf('\n');
  if (firstNl < 0) return false;
  const firstLine = trimmed.slice(0, firstNl).trim();
  if (!firstLine.endsWith('}')) return false;
  try {
    JSON.parse(firstLine);
  } catch {
    return false;
  }
  const rest = trimmed.slice(firstNl + 1).trimStart();
  return rest.startsWith('{');
}

/**
 * Parse JSON Lines. Broken lines do not stop the parse: their numbers are listed. A line nested
 * deeper than `MAX_JSON_DEPTH`, or the line at which the values of the log pass
 * `MAX_STRUCTURE_BYTES`, stops it: `deep` then says where, and the caller refuses the text.
 * @param budget the structure the whole log may hold (tests pass a small one)
 * @returns the parsed lines (1-based line numbers) and the numbers of lines that failed.
 */
export function parseJsonlText(
  text: string,
  budget = MAX_STRUCTURE_BYTES,
): {
  lines: JsonlLine[];
  brokenLines: number[];
  deep?: JsonFailure;
} {
  const lines: JsonlLine[] = [];
  const brokenLines: number[] = [];
  let start = 0;
  let lineNo = 0;
  let structure = 0;
  while (start <= text.length) {
    let end = text.indexOf('\n', start);
    if (end < 0) end = text.length;
    lineNo++;
    // No trim: JSON.parse accepts surrounding whitespace; only blank lines are skipped.
    const raw = text.slice(start, end);
    const c0 = raw.charCodeAt(0);
    if (raw.length > 0 && (c0 === 123 || c0 === 91 || /\S/.test(raw))) {
      // The lines of a log share one structure budget: refused at the line that passes it.
      const scan = scanJson(raw, MAX_JSON_DEPTH, budget - structure);
      const deep = lineFailure(raw, lineNo, scan, structure);
      if (deep) return { lines, brokenLines, deep };
      structure += scan.structure + CONTAINER_BYTES; // and the line's own record
      try {
        lines.push({ line: lineNo, value: JSON.parse(raw) });
      } catch {
        brokenLines.push(lineNo);
      }
    }
    start = end + 1;
  }
  return { lines, brokenLines };
}

/**
 * The note for a JSON Lines document's broken lines (null when none): which lines were skipped,
 * and, when the last one comes after every line that parsed, that the file looks cut off (a log
 * still being written, or a truncated copy: the session's end is missing, so calls whose results
 * were after the cut show as unanswered).
 */
export function brokenLinesNote(
  lines: readonly JsonlLine[],
  broken: readonly number[],
): string | null {
  if (broken.length === 0) return null;
  const list = `${broken.slice(0, 20).join(', ')}${broken.length > 20 ? ', …' : ''}`;
  const note = `${broken.length} line(s) are not valid JSON and were skipped: ${list}.`;
  const last = broken[broken.length - 1] as number;
  if (last < (lines[lines.length - 1]?.line ?? 0)) return note;
  return `${note} Line ${last} is the file's last and does not parse: the file looks cut off (a log still being written, or a truncated copy), so its end is missing and calls answered after the cut show as unanswered.`;
}

/**
 * The refusal for one JSON Lines line nested deeper than `MAX_JSON_DEPTH`, or null.
 * @param raw the line's text; @param lineNo its 1-based number in the file
 */
export function tooDeepLine(raw: string, lineNo: number): JsonFailure | null {
  if (!mayNestDeeper(raw, MAX_JSON_DEPTH)) return null;
  return lineFailure(raw, lineNo, scanJson(raw));
}

/**
 * Whether `text` holds more than `max` opening brackets (`{` or `[`, inside strings too): only
 * then can it nest deeper than `max`, so a line with fewer needs no `scanJson` (issue 38: the
 * count is two `indexOf` runs, about a fifth of the scan's time on a 100 MB log; a line with more,
 * code or data quoted in a string, is scanned as before).
 */
export function mayNestDeeper(text: string, max: number): boolean {
  let count = 0;
  for (const open of ['{', '[']) {
    for (let i = text.indexOf(open); i >= 0; i = text.indexOf(open, i + 1))
      if (++count > max) return true;
  }
  return false;
}

/**
 * The refusal a scan of one JSON Lines line found: too deep, or past the structure budget
 * (`earlier`: the structure of the lines before it, for the message).
 */
function lineFailure(raw: string, lineNo: number, scan: JsonScan, earlier = 0): JsonFailure | null {
  const at = scan.deepAt >= 0 ? scan.deepAt : scan.heavyAt;
  if (at < 0) return null;
  const column = Math.min(at, raw.length - 1) + 1;
  const where = `line ${lineNo}, column ${column}`;
  const w = windowAround(raw.replace(/\r$/, ''), column);
  const location: SourceLocation = { line: lineNo, column, lineText: w.text };
  if (w.from !== 1) location.caret = w.caret;
  return scan.deepAt >= 0
    ? { message: tooDeepMessage(where), location, tooDeep: true }
    : { message: tooHeavyMessage(earlier + scan.structure, where), location, tooHeavy: true };
}
