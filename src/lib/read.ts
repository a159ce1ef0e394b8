/**
 * Reading a request body (object, JSON text, JSON Lines log, bytes, gzip) into the model's
 * `Transcript`, through the model's public parse entry points, exactly as the CLI reads a file.
 */
import { decodeBytes, DROP_ADVICE } from '../model/parse/bytes.ts';
import { parseDocument, parseTranscript } from '../model/parse/index.ts';
import type { ParseOptions, ParsedTranscript } from '../model/parse/index.ts';
import { PARSERS } from '../model/parse/registry.ts';
import type { FormatId, ParseError, ProviderId, Result } from '../model/types.ts';
import { resolveEndpoint, VALIDATORS } from '../model/validate/index.ts';

/** A request body as the library accepts it: a parsed value, its text, or its bytes. */
export type Body = unknown;

/** Options every entry point shares: how to read the body. */
export interface ReadOptions {
  /** Force an input format instead of detecting it (`anthropic-messages`, `openai-chat`, …). */
  format?: FormatId;
  /**
   * For a body that holds several requests (a HAR, a batch file, an eval log): which one,
   * 0-based. Default as the CLI: the newest request (an eval log: its first sample).
   */
  request?: number;
  /** A file name, used only as a hint (`.jsonl` reads JSON Lines). */
  name?: string;
}

/**
 * Thrown by `check`, `evict`, `repair`, `groupExchanges` and `turnPairs` when the body is not a
 * transcript any format reads. `parseError` says where (line and column for bad JSON) and what
 * was expected (each format tried).
 */
export class UnreadableTranscriptError extends Error {
  readonly parseError: ParseError;
  constructor(parseError: ParseError) {
    super(parseError.message);
    this.name = 'UnreadableTranscriptError';
    this.parseError = parseError;
  }
}

/** Every input format id the library reads (the CLI's `--format` values). */
export const FORMATS: readonly FormatId[] = PARSERS.map((p) => p.id);

/** Every provider id with a validator (the CLI's `--provider` values). */
export const PROVIDERS: readonly ProviderId[] = VALIDATORS.map((v) => v.id);

/**
 * Read a body without throwing. Strings are read as the CLI reads a file's text (JSON, JSON
 * Lines, curl, SSE, HAR …); bytes are gunzipped when gzip and decoded as UTF-8; any other value
 * is taken as the parsed JSON of a request body or message list.
 * @returns the parsed transcript, or the `ParseError` the CLI would print
 */
export function tryRead(body: Body, opts: ReadOptions = {}): Result<ParsedTranscript> {
  const r = readBody(body, opts);
  if (r.ok || !r.error.message.includes(DROP_ADVICE)) return r;
  // The page's advice ("Drop a … file") said as a caller of the library acts on it.
  return {
    ok: false,
    error: { ...r.error, message: r.error.message.replace(DROP_ADVICE, PASS_ADVICE) },
  };
}

/** What a caller of the library can pass instead (the page says to drop a file). */
const PASS_ADVICE =
  'Pass a request body, a message list or a session log: a parsed value, its JSON text, or its bytes (UTF-8 or gzip).';

function readBody(body: Body, opts: ReadOptions): Result<ParsedTranscript> {
  if (opts.format !== undefined && !FORMATS.includes(opts.format))
    throw new RangeError(`unknown format "${opts.format}"; known: ${FORMATS.join(', ')}`);
  const parseOpts: ParseOptions = {};
  if (opts.format !== undefined) parseOpts.format = opts.format;
  if (opts.request !== undefined) parseOpts.requestIndex = opts.request;
  if (opts.name !== undefined) parseOpts.name = opts.name;
  if (typeof body === 'string') return whole(parseTranscript(body, parseOpts));
  const bytes = asBytes(body);
  if (bytes) {
    const text = decodeBytes(bytes);
    return text.ok ? whole(parseTranscript(text.value, parseOpts)) : text;
  }
  const gap = missingEntry(body);
  if (gap) return { ok: false, error: gap };
  return whole(parseDocument({ kind: 'json', value: body }, parseOpts));
}

/** Keys under which a request body holds its message list (Anthropic, Chat, Bedrock; Responses; Gemini). */
const LIST_KEYS = ['messages', 'input', 'contents'] as const;

/**
 * The first entry of a body's message list that is no message: a hole (`delete messages[i]`, an
 * array made with a length) or `null`. The provider refuses such a request (a JSON `null` where a
 * message object is required); a parser that skipped it would judge another request.
 * @returns the `ParseError` naming the entry (`messages.3`), or null when every entry is there
 */
export function missingEntry(body: unknown): ParseError | null {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return null;
  const v = body as Record<string, unknown>;
  for (const key of LIST_KEYS) {
    const list = v[key];
    if (!Array.isArray(list)) continue;
    for (let i = 0; i < list.length; i++) {
      if (i in list && list[i] !== null && list[i] !== undefined) continue;
      const what = !(i in list)
        ? 'a hole (no entry: deleted or never set)'
        : `\`${String(list[i])}\``;
      return {
        kind: 'shape',
        message: `${key}.${i} is ${what}, not a message: the provider refuses the request (every entry of \`${key}\` must be a message object). Remove the entry or put the message back.`,
      };
    }
    return null;
  }
  return null;
}

/** A parse whose source body has no missing entry in its message list (text bodies: checked after parsing). */
function whole(r: Result<ParsedTranscript>): Result<ParsedTranscript> {
  if (!r.ok) return r;
  const gap = missingEntry(r.value.transcript.raw);
  return gap ? { ok: false, error: gap } : r;
}

/** `tryRead`, throwing `UnreadableTranscriptError` when the body is not a transcript. */
export function read(body: Body, opts: ReadOptions = {}): ParsedTranscript {
  const r = tryRead(body, opts);
  if (!r.ok) throw new UnreadableTranscriptError(r.error);
  return r.value;
}

function asBytes(body: unknown): Uint8Array | null {
  if (body instanceof Uint8Array) return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (ArrayBuffer.isView(body))
    return new Uint8Array(body.buffer, body.byteOffset, body.byteLength);
  return null;
}

/**
 * The endpoint a `provider` option names: an id, or an alias (`bedrock-converse`, `azure`, …);
 * a name no endpoint answers to is refused (a typo would otherwise pass every request).
 * @throws RangeError for an unknown name
 */
export function knownProvider(p: ProviderId | string | undefined): ProviderId | undefined {
  if (p === undefined) return undefined;
  const id = resolveEndpoint(p);
  if (id === undefined)
    throw new RangeError(`unknown provider "${p}"; known: ${PROVIDERS.join(', ')}`);
  return id;
}
