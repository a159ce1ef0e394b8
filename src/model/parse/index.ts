/**
 * Entry point: text in, `Transcript` out. Cheap hints first (file name, first character, JSONL
 * shape), then one parse, then structural sniffing by every registered parser.
 */
import type {
  FormatId,
  Message,
  ParseError,
  Result,
  SourceLocation,
  Transcript,
} from '../types.ts';
import {
  brokenLinesNote,
  looksLikeJsonl,
  parseJsonText,
  parseJsonlText,
  type SourceDoc,
} from './json.ts';
import { listJsonlArchiveRequests, PARSERS, parserFor, type FormatParser } from './registry.ts';
import { listRequests, type RequestEntry } from './multi.ts';
import { chooseFormat, containerWarnings, openContainer, unwrapText } from './containers.ts';
import type { ContainerEntry, ContainerNote } from './containers.ts';
import { clip } from '../limits.ts';
import { endpointFits } from '../validate/endpoints/recognise.ts';
import { DROP_ADVICE } from './bytes.ts';
import { locatePath, type ClosestFormat, type NearMiss } from './nearMiss.ts';

export interface ParseOptions {
  /** Force a format instead of detecting it. */
  format?: FormatId;
  /** File name, used as a hint (`.jsonl`). */
  name?: string;
  /**
   * For a file holding several requests (see `listRequests`): which one to parse, 0-based.
   * Default: the last one (in a log, the newest request, usually the one that failed).
   */
  requestIndex?: number;
  /**
   * Judge as this model (`settings.model`), where the rules depend on it (A12 prefill, Claude on
   * Bedrock, Gemini 3 signatures): the page's Model picker, the CLI's `--model`. A warning says
   * so and names the model the input gave. Absent or '' = the input's own.
   */
  model?: string;
}

export interface ParsedTranscript {
  transcript: Transcript;
  /** Formats that matched, best first, with their sniff score (0..1). */
  candidates: { format: FormatId; score: number }[];
  /** True when two formats matched equally well and the user should pick. */
  ambiguous: boolean;
  /** Set when the file holds several requests: one label per request, in file order. */
  requests?: { label: string }[];
  /** With `requests`: the index of the request that was parsed. */
  requestIndex?: number;
  /**
   * A session log's chosen call (`withSessionCall`): the first message of the reply that call
   * produced, numbered after the call's context (`index` = its message count), or absent (no
   * call chosen, or a call with no reply logged). A copy of the call written with it reopens as
   * that call (model/callCopy.ts).
   */
  callReply?: Message;
  /** Set when the text was a container (curl, SSE, HAR, LiteLLM, batch): where it came from. */
  container?: ContainerNote;
}

/** Score of the best structural match for a value (or JSONL document), per format. */
export function detectFormats(doc: SourceDoc): { format: FormatId; score: number }[] {
  const scores: { format: FormatId; score: number }[] = [];
  // Sniffers look at a bounded sample: detection stays O(1) in the transcript's length.
  const lines = doc.kind === 'jsonl' ? sampleList(doc.lines).map((l) => l.value) : [];
  const value = doc.kind === 'json' ? sampleValue(doc.value) : undefined;
  for (const p of PARSERS) {
    let score = 0;
    try {
      if (doc.kind === 'jsonl') score = p.jsonl ? p.sniff(lines) : 0;
      else score = p.jsonl ? 0 : p.sniff(value);
    } catch {
      score = 0;
    }
    if (score > 0) scores.push({ format: p.id, score });
  }
  return scores.sort((a, b) => b.score - a.score);
}

/** Items a sniffer sees of a long list: the first SNIFF_HEAD and the last SNIFF_TAIL. */
const SNIFF_HEAD = 400;
const SNIFF_TAIL = 100;

function sampleList<T>(list: readonly T[]): T[] {
  return list.length <= SNIFF_HEAD + SNIFF_TAIL
    ? [...list]
    : [...list.slice(0, SNIFF_HEAD), ...list.slice(-SNIFF_TAIL)];
}

/** A shallow copy of a JSON value whose long arrays (top level or one level down) are sampled. */
function sampleValue(v: unknown): unknown {
  if (Array.isArray(v)) return sampleList(v);
  if (v === null || typeof v !== 'object') return v;
  const o = v as Record<string, unknown>;
  let out: Record<string, unknown> | null = null;
  // for…in, not Object.entries: no array per key on every check of a request (issue 17).
  for (const k in o) {
    if (!Object.prototype.hasOwnProperty.call(o, k)) continue;
    const x = o[k];
    if (Array.isArray(x) && x.length > SNIFF_HEAD + SNIFF_TAIL) {
      out ??= { ...o };
      out[k] = sampleList(x);
    }
  }
  return out ?? v;
}

/** A JSON object as the one line of a JSON Lines document, or null for anything else. */
function oneLineLog(doc: SourceDoc): SourceDoc | null {
  if (doc.kind !== 'json' || doc.value === null || typeof doc.value !== 'object') return null;
  if (Array.isArray(doc.value)) return null;
  return { kind: 'jsonl', lines: [{ line: 1, value: doc.value }], brokenLines: [] };
}

/** The request opened when none was chosen: the first `preferred` entry, else the last one. */
function defaultRequest(requests: readonly { label: string; preferred?: boolean }[]): number {
  const i = requests.findIndex((r) => r.preferred === true);
  return i >= 0 ? i : requests.length - 1;
}

/** How far (UTF-16 code units) `readSource` looks for the end of a JSON Lines first line. */
const FIRST_LINE_LOOKUP = 1 << 20;

/** Read text into a source document: JSON, or JSON Lines when the text looks like a log. */
export function readSource(input: string, name?: string): Result<SourceDoc> {
  // A byte order mark (pasted from an editor that saved one) is not part of the JSON; files get
  // it stripped when their bytes are decoded, pasted text here.
  const text = input.charCodeAt(0) === 0xfeff ? input.slice(1) : input;
  if (!/\S/.test(text))
    return {
      ok: false,
      error: {
        kind: 'empty',
        message: 'The input is empty: paste a request body, a message array or a session log.',
      },
    };
  const unwrapped = unwrapText(text); // curl command, SSE dump (containers.ts)
  if (unwrapped) return unwrapped;
  const jsonlHint = name !== undefined && /\.(jsonl|ndjson)$/i.test(name);
  // A text whose first line is a whole JSON object followed by another `{` line cannot be one
  // JSON document, so it is read as JSON Lines directly (no doomed whole-text parse of a log).
  // The first line is looked for in the first MiB only; a log with a longer first line is found
  // after the whole-text parse fails.
  const asJsonl = (): Result<SourceDoc> | null => {
    const { lines, brokenLines, deep } = parseJsonlText(text);
    if (deep)
      return {
        ok: false,
        error: { kind: 'limit', message: deep.message, location: deep.location },
      };
    return lines.length > 0 ? { ok: true, value: { kind: 'jsonl', lines, brokenLines } } : null;
  };
  if (jsonlHint || looksLikeJsonl(text, FIRST_LINE_LOOKUP)) {
    const jsonl = asJsonl();
    if (jsonl) return jsonl;
  }
  const parsed = parseJsonText(text);
  // Too many values as one document are as many as the lines of a log: no second try.
  if (!parsed.ok && !parsed.error.tooHeavy && !jsonlHint && looksLikeJsonl(text)) {
    const jsonl = asJsonl();
    if (jsonl) return jsonl;
  }
  // Too deep as one document (and not a log whose lines are each shallow enough), or holding too
  // many values: refused before any value is built (model/limits.ts MAX_JSON_DEPTH,
  // MAX_STRUCTURE_BYTES).
  if (!parsed.ok && (parsed.error.tooDeep || parsed.error.tooHeavy))
    return {
      ok: false,
      error: { kind: 'limit', message: parsed.error.message, location: parsed.error.location },
    };
  // Raw NUL bytes cannot appear in JSON, so they are looked for only once a parse has failed
  // (a scan of the whole text on every load otherwise).
  if (!parsed.ok && text.includes('\u0000'))
    return {
      ok: false,
      error: {
        kind: 'binary',
        message: `This is not text (it contains NUL bytes). ${DROP_ADVICE}`,
      },
    };
  if (!parsed.ok)
    return {
      ok: false,
      error: { kind: 'json', message: parsed.error.message, location: parsed.error.location },
    };
  return { ok: true, value: { kind: 'json', value: parsed.value } };
}

/**
 * The error for a document no format takes (`unknownShape`), with its closest format.
 * @param json the document as read, before a lone object was tried as a log of one line
 * @param text the text the document is, when it is (its near miss is then located in it)
 */
function shapeFailure(doc: SourceDoc, json: SourceDoc, text: string | undefined): ParseError {
  // One value (a JSON document, or a log of one line, tried as a log above) is JSON; only a log
  // of several records is JSON Lines.
  const lines = doc.kind === 'jsonl' && doc.lines.length > 1 ? ' Lines' : '';
  const value = json.kind === 'json' ? json.value : undefined;
  const closest = value === undefined ? null : closestFormat(value);
  const location =
    closest && text !== undefined
      ? locatePath(text, closest.path, valueAt(value, closest.path))
      : null;
  return unknownShape(lines, closest, location ?? undefined);
}

/** The value at `path` under `v` (undefined where the path leads nowhere). */
function valueAt(v: unknown, path: readonly (string | number)[]): unknown {
  let at = v;
  for (const k of path) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<string | number, unknown>)[k];
  }
  return at;
}

/**
 * The closest format of a value no format takes: the one that reads most of its messages (a
 * format's own fields or blocks first), with where it stops; null when none reads half of them.
 */
export function closestFormat(value: unknown): ClosestFormat | null {
  let best: ClosestFormat | null = null;
  const rank = (m: NearMiss) => m.read / m.total + (m.marked ? 1 : 0);
  for (const p of PARSERS) {
    let m: NearMiss | null = null;
    try {
      m = p.nearMiss?.(value) ?? null;
    } catch {
      m = null;
    }
    if (m && (!best || rank(m) > rank(best))) best = { ...m, format: p.id, label: p.label };
  }
  return best;
}

/**
 * The error for JSON of no known shape: the closest format and where it stops first, when one
 * reads most of it, then every format tried.
 * @param lines ' Lines' for a log of several records
 * @param location where the offending value starts in the text, when known
 */
export function unknownShape(
  lines: string,
  closest: ClosestFormat | null,
  location?: SourceLocation,
): ParseError {
  const tried = PARSERS.map((p) => ({ format: p.id, expected: p.expected }));
  const names = tried.map((t) => t.format).join(', ');
  const error: ParseError = {
    kind: 'shape',
    message: `This is valid JSON${lines}, but not a transcript format I know. Tried: ${names}.`,
    tried,
  };
  if (!closest) return error;
  const { format, label, message: at, path, problem, read, total, marked } = closest;
  const where = at === null ? path.join('.') : `Message ${at}`;
  // Named by the list's shape alone (`listMiss`): no format's own field or block, most messages unread.
  const byShape =
    !marked && read * 2 < total ? ' (by its shape alone: nothing in it is only one format’s)' : '';
  const pos = location ? ` (line ${location.line}, column ${location.column})` : '';
  const reads =
    read > 0
      ? `reads ${read} of these ${total} messages`
      : total === 1
        ? 'does not read its one message'
        : `reads none of these ${total} messages`;
  error.message = `Closest format: ${label}${byShape}, which ${reads}. ${where}${pos}: ${problem}. Tried: ${names}.`;
  error.closest = { format, label, messageIndex: at, path, problem };
  if (location) error.location = location;
  return error;
}

/**
 * A chosen format that reads no message from a value another format reads: the choice, not the
 * request, is wrong, so say that instead of the chosen provider's "no message" 400 (G8, …).
 * @returns a `shape` error naming both formats, or null (no choice, messages read, or the value
 *   is no other format's either: an empty request of the chosen format)
 */
function forcedMisread(
  doc: SourceDoc,
  forced: FormatId | undefined,
  t: Transcript,
  candidates: readonly { format: FormatId; score: number }[],
): ParseError | null {
  const detected = candidates[0]?.format;
  if (!forced || t.messages.length > 0 || !detected || detected === forced) return null;
  // Only when the other format reads messages from it (an empty body is every format's).
  const other = parserFor(detected)?.parse(doc);
  if (!other?.ok || other.value.messages.length === 0) return null;
  const as = parserFor(forced)?.label ?? forced;
  const is = parserFor(detected)?.label ?? detected;
  return {
    kind: 'shape',
    message: `Read as ${as} (the format chosen), this holds no message: it is not ${as}. It reads as ${is}; choose that format, or Auto.`,
    tried: [{ format: forced, expected: `${as}: no message found` }],
  };
}

/** The refusal of a container's request that does not read whole, naming the others to pick. */
function unreadableMessage(entry: ContainerEntry, entries: ContainerEntry[]): string {
  const others = entries.filter((e) => e.unreadable === undefined).length;
  return `${entry.unreadable ?? ''}${others > 0 ? ` The file holds ${others} other request${others === 1 ? '' : 's'} that read${others === 1 ? 's' : ''} whole: pick one (Request, --request N).` : ''}`;
}

/**
 * Parse a transcript from text.
 * @param text the pasted or dropped text (JSON or JSON Lines)
 * @param opts a forced format and/or a file name hint
 * @returns the transcript with the candidate formats, or a `ParseError` saying where (line and
 *   column for bad JSON) and what was expected (each format tried, for JSON of no known shape).
 */
export function parseTranscript(text: string, opts: ParseOptions = {}): Result<ParsedTranscript> {
  const src = readSource(text, opts.name);
  // An empty file named as a session log is a log with no line yet (what an export of a log
  // with nothing left writes): read as that format, which says it holds no message.
  if (!src.ok && src.error.kind === 'empty' && opts.format && parserFor(opts.format)?.jsonl)
    return parseDocument({ kind: 'jsonl', lines: [], brokenLines: [] }, opts);
  if (!src.ok) return bounded(src);
  return bounded(parseDocumentUnbounded(src.value, opts, text));
}

/**
 * A result whose messages quote at most `MAX_MESSAGE_CHARS` of input (a parser's message may
 * quote a key, an id or a role from the input: issue 14).
 */
function bounded<T extends { transcript: Transcript }>(r: Result<T>): Result<T> {
  if (!r.ok) {
    const m = clip(r.error.message);
    return m === r.error.message ? r : { ok: false, error: { ...r.error, message: m } };
  }
  const w = r.value.transcript.warnings;
  for (let i = 0; i < w.length; i++) w[i] = clip(w[i] as string);
  return r;
}

/** The same as `parseTranscript`, for an already parsed document. */
export function parseDocument(
  source: SourceDoc,
  opts: ParseOptions = {},
): Result<ParsedTranscript> {
  return bounded(parseDocumentUnbounded(source, opts));
}

/**
 * @param text the text `source` was read from, when at hand: a near miss in it is located (line
 *   and column) when the value is that text's own JSON
 */
function parseDocumentUnbounded(
  source: SourceDoc,
  opts: ParseOptions,
  text?: string,
): Result<ParsedTranscript> {
  let doc = source;
  const opened = openContainer(source); // HAR, LiteLLM, batches, curl/SSE entries
  if (opened && !opened.ok) return opened;
  const entries: ContainerEntry[] = opened ? opened.value : [];
  if (entries.length === 1) doc = { kind: 'json', value: entries[0]?.value };
  const requests = opened
    ? entries.length > 1
      ? entries
      : []
    : doc.kind === 'json'
      ? listRequests(doc.value)
      : listJsonlArchiveRequests(doc.lines);
  const requestIndex =
    requests.length === 0
      ? undefined
      : Math.max(0, Math.min(requests.length - 1, opts.requestIndex ?? defaultRequest(requests)));
  if (requestIndex !== undefined)
    doc = { kind: 'json', value: (requests[requestIndex] as (typeof requests)[number]).value };
  let candidates = detectFormats(doc);
  const json = doc;
  // A log of one line (an export cut to one message) is one JSON object: read it as JSON Lines
  // when no document format knows it and a log format does.
  const forcedLog = opts.format !== undefined && parserFor(opts.format)?.jsonl === true;
  if (((candidates.length === 0 && !opts.format) || forcedLog) && !opened && oneLineLog(doc)) {
    doc = oneLineLog(doc) as SourceDoc;
    candidates = detectFormats(doc);
  }
  const entry = entries.length === 1 ? entries[0] : entries[requestIndex ?? -1];
  const note = entry?.note;
  if (entry?.unreadable !== undefined)
    return { ok: false, error: { kind: 'shape', message: unreadableMessage(entry, entries) } };
  // A request of a multi-request file that names its format (a checked-fetch record's call).
  const listed =
    !opened && requestIndex !== undefined ? (requests[requestIndex] as RequestEntry) : undefined;
  let chosen = chooseFormat(note, candidates);
  const named = listed?.format;
  if (named && (candidates.length === 0 || candidates.some((c) => c.format === named)))
    chosen = { format: named, hinted: true };
  let parser: FormatParser | undefined;
  if (opts.format) parser = parserFor(opts.format);
  else if (chosen.format) parser = parserFor(chosen.format);
  // Located in the text only when the value is the text's own (not a container's entry or one
  // request of a file; `locatePath` also checks the value it finds there).
  const own = !opened && requestIndex === undefined ? text : undefined;
  if (!parser) return { ok: false, error: shapeFailure(doc, json, own) };
  const result = parser.parse(doc);
  if (!result.ok) return result;
  const misread = forcedMisread(doc, opts.format, result.value, candidates);
  if (misread) return { ok: false, error: misread };
  const broken = doc.kind === 'jsonl' ? brokenLinesNote(doc.lines, doc.brokenLines) : null;
  if (broken) result.value.warnings.push(broken);
  const top = candidates[0];
  const second = candidates[1];
  const ambiguous =
    !opts.format &&
    !chosen.hinted &&
    top !== undefined &&
    second !== undefined &&
    Math.abs(top.score - second.score) < 0.05;
  if (requestIndex !== undefined)
    result.value.warnings.push(
      `This file holds ${requests.length} requests; showing ${requests[requestIndex]?.label ?? ''}.`,
    );
  if (listed?.notes) result.value.warnings.push(...listed.notes);
  if (note?.endpoint !== undefined && endpointFits(note.endpoint, result.value.format))
    result.value.endpoint = note.endpoint;
  if (note?.toolsUnrecorded === true) result.value.toolsUnrecorded = true;
  // The model a URL names (Gemini, Bedrock, Vertex) decides the model's rules when the body names none.
  if (note?.model !== undefined && result.value.settings.model === undefined)
    result.value.settings.model = note.model;
  if (note) {
    const lines = containerWarnings(note);
    if (chosen.warning && !opts.format) lines.push(chosen.warning);
    result.value.warnings.unshift(...lines);
  }
  // Fields added one by one, not spread: cheaper in V8 on the `check` path (issue 17).
  const value: ParsedTranscript = { transcript: result.value, candidates, ambiguous };
  if (requestIndex !== undefined) {
    value.requests = requests.map((r) => ({ label: r.label }));
    value.requestIndex = requestIndex;
  }
  if (note) value.container = note;
  if (opts.model) setModel(result.value, opts.model);
  return { ok: true, value };
}

/** Judge `t` as `model` (ParseOptions.model), saying so in its warnings. */
function setModel(t: Transcript, model: string): void {
  const own = t.settings.model;
  if (own === model) return;
  t.settings = { ...t.settings, model };
  t.warnings.push(
    `Judged as model ${model} (chosen under Model, --model)${own !== undefined ? `; the input names ${own}` : '; the input names no model'}.`,
  );
}
