import type { FormatId, ParseError, ProviderId } from '../model/types.ts';
import { parserFor, PARSERS } from '../model/parse/registry.ts';
import { resolveEndpoint, VALIDATORS } from '../model/validate/index.ts';
import {
  parseTranscript,
  readSource as readDoc,
  type ParsedTranscript,
} from '../model/parse/index.ts';
import { withSessionCall } from '../model/sessionCall.ts';
import { isModelId } from '../model/permalink/modelId.ts';
import { windowAround } from '../model/limits.ts';
import { DROP_ADVICE, withReadNote } from '../model/parse/bytes.ts';
import { clipArg, intFlag, UsageError } from './args.ts';
import { inputLabel, linkFragment, readLink, type LinkInput } from './link.ts';
import { pickSetting, VERDICT_KEYS } from './linkView.ts';

export interface CliIO {
  /**
   * FILE's text (`-`: stdin), or a promise of it (main.ts waits for a file read ahead).
   * @throws Error (or rejects) with a message for the user when it cannot be read or is refused
   *   (binary, over the limit: read.ts `readInput`)
   */
  read: (
    file: string,
  ) =>
    | { text: string; name: string; readNote?: string }
    | Promise<{ text: string; name: string; readNote?: string }>;
  out: (s: string) => void;
  err: (s: string) => void;
  /**
   * What the command is doing now, in words (`parsing t.json`), set as it goes: an internal
   * failure is reported as "error while <doing>" (commands.ts).
   */
  doing?: string;
  /** Why `loadTranscript` returned null, for `--json` output (set by it; absent before). */
  failure?: LoadFailure;
}

/** An input that could not be loaded, as `--json` prints it (`kind`: ParseError's, or `read`, `request`). */
export interface LoadFailure {
  kind: string;
  message: string;
  line?: number;
  column?: number;
}

/**
 * The `--json` answer for an input that could not be loaded: `{file, error}` on stdout (the
 * words stay on stderr), so a script reading stdout always gets JSON.
 */
export function printFailureJson(io: CliIO, file: string): void {
  const error = io.failure ?? { kind: 'read', message: 'the input could not be loaded' };
  io.out(`${JSON.stringify({ file, error }, null, 2)}\n`);
}

/** What to pass in a terminal, said where the page asks to drop a file (`DROP_ADVICE`). */
export const TERMINAL_ADVICE =
  "Pass a .json, .jsonl or .gz transcript file, - to read stdin, or the page's link.";

/** A model message in a terminal's words: the page's "Drop a … transcript" becomes `TERMINAL_ADVICE`. */
export function forTerminal(message: string): string {
  return message.replace(DROP_ADVICE, TERMINAL_ADVICE);
}

export const EXIT_VALID = 0;
export const EXIT_INVALID = 1;
export const EXIT_UNREADABLE = 2;

export function checkFormat(v: string | true | undefined): FormatId | undefined {
  if (v === undefined || v === true) return undefined;
  if (!PARSERS.some((p) => p.id === v))
    throw new UsageError(
      `unknown format "${clipArg(v)}"; known: ${PARSERS.map((p) => p.id).join(', ')}`,
    );
  return v as FormatId;
}

/**
 * `--model`: a model id (letters, digits, `.:/@_-`, at most 120 characters), the same the
 * permalink's `m` takes (`isModelId`: ModelIdSchema's rule without loading zod).
 */
export function checkModel(v: string | true | undefined): string | undefined {
  if (v === undefined) return undefined;
  if (v === true || !isModelId(v))
    throw new UsageError(
      `--model wants a model id such as claude-opus-4-7, anthropic.claude-sonnet-4-5-20250929-v1:0 or gemini-3-pro-preview${v === true ? '' : `, not "${clipArg(v)}"`}`,
    );
  return v;
}

/**
 * `--provider`: an endpoint id, or an alias of one (`bedrock-converse`, `azure`, …).
 * @throws UsageError for a name no endpoint answers to
 */
export function checkProvider(v: string | true | undefined): ProviderId | undefined {
  if (v === undefined || v === true) return undefined;
  const id = resolveEndpoint(v);
  if (id === undefined)
    throw new UsageError(
      `unknown provider "${clipArg(v)}"; known: ${VALIDATORS.map((p) => p.id).join(', ')}`,
    );
  return id;
}

/**
 * `--request N` (1-based, as the page's picker numbers them) → a 0-based request index.
 * @throws UsageError when N is not a whole number from 1 to `MAX_INT_FLAG`
 */
export function checkRequest(v: string | true | undefined): number | undefined {
  if (v === undefined || v === true) return undefined;
  const n = intFlag('request', v, 1);
  return n === undefined ? undefined : n - 1;
}

/** How a command loads its FILE (or link). */
export interface LoadOptions {
  /** The command's name, for notes (`check`). */
  command: string;
  /** Forced format (`--format`); a link's `f` applies when it is not given. */
  format?: FormatId;
  /** 0-based request of a file holding several (`--request`). */
  requestIndex?: number;
  /** Judge as this model (`--model`); a link's `m` applies when it is not given. */
  model?: string;
  /** Answer a load failure in JSON on stdout (`--json`). */
  json?: boolean;
  /** The link keys the command uses (default `VERDICT_KEYS`); the others are said on stderr. */
  uses?: readonly string[];
}

/** A loaded transcript, and the link it came from (null for a FILE or stdin). */
export interface Loaded extends ParsedTranscript {
  link: LinkInput | null;
}

/**
 * Read and parse FILE (or a link: `link.ts`); on failure print where and what was expected, and
 * return null. A file holding several requests (a HAR, a batch, an eval log) opens the one
 * `requestIndex` names (0-based; default as the page: the newest, or an eval log's first
 * sample); without a choice a note on stderr says which one was read and how to choose another.
 * A request index past the end prints an error and returns null (bad usage, exit 2). A link's
 * format and faults apply as on the page (`linkView.ts`, `linkApply.ts`; the flag wins over
 * `f`), and what the command does not use of it is said on stderr. Async because a link's codec
 * and faults are imported only when a link is read (issue 38); a FILE is read synchronously.
 */
export async function loadTranscript(
  io: CliIO,
  file: string,
  opts: LoadOptions,
): Promise<Loaded | null> {
  const parsed = await loadInput(io, file, opts);
  if (!parsed && opts.json) printFailureJson(io, file);
  return parsed;
}

/**
 * `loadTranscript` as a command calls it: the format, request and `--json` from its flags (an
 * unknown format or a bad request number is a usage error, thrown before the file is read).
 */
export function loadFromFlags(
  io: CliIO,
  file: string,
  flags: Record<string, string | true | undefined>,
  command: string,
  uses: readonly string[] = VERDICT_KEYS,
): Promise<Loaded | null> {
  const format = checkFormat(flags.format);
  const requestIndex = checkRequest(flags.request);
  const model = checkModel(flags.model);
  return loadTranscript(io, file, {
    command,
    uses,
    json: flags.json === true,
    ...(format ? { format } : {}),
    ...(model ? { model } : {}),
    ...(requestIndex !== undefined ? { requestIndex } : {}),
  });
}

/**
 * The provider a command judges by: `--provider` when given, else the link's `pr` (a note says
 * which), else undefined (the format's own provider).
 */
export function providerFor(
  io: CliIO,
  flag: ProviderId | undefined,
  loaded: Loaded,
): ProviderId | undefined {
  return pickSetting(io, {
    what: 'provider',
    flag: '--provider',
    key: 'pr',
    fromFlag: flag,
    fromLink: loaded.link?.view.provider ?? undefined,
  });
}

export type Input = { text: string; name: string; readNote?: string };

/**
 * FILE's text, or a link's transcript and view; null (said on stderr, with `io.failure`) when
 * unreadable. For a command that reads a file's text itself (`check --requests`, `diff`).
 * A link's codec is imported only for a link (`readLink`); a FILE is read synchronously.
 */
export async function readSource(
  io: CliIO,
  file: string,
): Promise<{ input: Input; link: LinkInput | null } | null> {
  io.doing = `reading ${inputLabel(file)}`;
  try {
    let fragment = linkFragment(file);
    if (fragment === null) {
      const input = await io.read(file);
      // A file (or stdin) that holds a page link: a link longer than a command line takes.
      fragment = heldLink(input.text);
      if (fragment === null) return { input, link: null };
    }
    const link = await readLink(fragment);
    return { input: link, link };
  } catch (e) {
    const message = `cannot read ${inputLabel(file)}: ${readError(e as NodeJS.ErrnoException)}`;
    io.err(`error: ${message}\n`);
    // A refusal of what the input is (read.ts `InputRefused`: binary, limit) keeps its kind.
    const kind = (e as { kind?: unknown }).kind;
    io.failure = { kind: typeof kind === 'string' ? kind : 'read', message };
    return null;
  }
}

/**
 * The link a file's text is, when it is one page link and nothing else (whitespace around it
 * aside): `cli check link.txt`, `pbpaste | cli check -` for a link too long for an argument
 * (a page link that carries a session log is hundreds of kilobytes). Else null.
 */
export function heldLink(text: string): string | null {
  const t = text.trim();
  if (!/^(https?:\/\/|#?v=\d)/i.test(t) || /\s/.test(t)) return null;
  return linkFragment(t);
}

/**
 * Why a file could not be read, in words for the common cases (a folder, a missing file, no
 * permission) and the system's message otherwise.
 */
function readError(e: NodeJS.ErrnoException): string {
  if (e.code === 'EISDIR')
    return 'it is a folder (this command reads one file; `scan` reads folders)';
  if (e.code === 'ENOENT') return 'no such file';
  if (e.code === 'EACCES') return 'permission denied';
  return forTerminal(e.message);
}

/** `loadTranscript` without the `--json` answer. */
async function loadInput(io: CliIO, file: string, opts: LoadOptions): Promise<Loaded | null> {
  const source = await readSource(io, file);
  if (!source) return null;
  const { input, link } = source;
  let { requestIndex } = opts;
  let format = opts.format;
  let model = opts.model;
  // The codec's and the faults' side of a link (zod): imported only when there is one.
  const apply = link ? await import('./linkApply.ts') : null;
  if (link && apply) {
    model = pickSetting(io, {
      what: 'model',
      flag: '--model',
      key: 'm',
      fromFlag: model,
      fromLink: link.view.model ?? undefined,
    });
    apply.reportUnusedKeys(io, link, opts.uses ?? VERDICT_KEYS, opts.command);
    format = pickSetting(io, {
      what: 'format',
      flag: '--format',
      key: 'f',
      fromFlag: format,
      fromLink: link.view.format ?? undefined,
    });
    // The link's `rq` is 1-based as `--request N`; both are 0-based here.
    const fromLink = link.view.request ?? undefined;
    const picked = pickSetting(io, {
      what: 'request',
      flag: '--request',
      key: 'rq',
      fromFlag: requestIndex === undefined ? undefined : requestIndex + 1,
      fromLink: fromLink === undefined ? undefined : fromLink + 1,
    });
    requestIndex = picked === undefined ? undefined : picked - 1;
  }
  io.doing = `parsing ${inputLabel(file)}`;
  const parsed = parseTranscript(input.text, {
    ...(format ? { format } : {}),
    ...(requestIndex !== undefined ? { requestIndex } : {}),
    ...(model ? { model } : {}),
    name: input.name,
  });
  if (!parsed.ok) {
    printParseError(io, parsed.error, input.readNote);
    return null;
  }
  if (requestIndex !== undefined && !parsed.value.requests) {
    // A session log's model call k (the page's strip, a link's rq): `withSessionCall`.
    const doc = readDoc(input.text, input.name || undefined);
    if (doc.ok) parsed.value = withSessionCall(doc.value, parsed.value, requestIndex);
  }
  const { requests, requestIndex: chosen } = parsed.value;
  if (requests && requestIndex !== undefined && requestIndex !== chosen) {
    const message = `--request ${requestIndex + 1}: ${inputLabel(file)} holds ${requests.length} request${requests.length === 1 ? '' : 's'}`;
    io.err(`error: ${message}\n`);
    io.failure = { kind: 'request', message };
    return null;
  }
  if (!requests && requestIndex !== undefined && requestIndex > 0) {
    const message = `--request ${requestIndex + 1}: ${inputLabel(file)} holds one request`;
    io.err(`error: ${message}\n`);
    io.failure = { kind: 'request', message };
    return null;
  }
  if (requests && requestIndex === undefined)
    io.err(
      `note: ${inputLabel(file)} holds ${requests.length} requests; read #${(chosen ?? 0) + 1} (choose another with --request N)\n`,
    );
  // A session log read whole by `check` is no request any call sent (newcomer: judged with rows
  // a compaction had removed, without a word). Said without listing its calls: that is a read
  // more.
  if (
    opts.command === 'check' &&
    !requests &&
    requestIndex === undefined &&
    parserFor(parsed.value.transcript.format)?.sessionCalls
  )
    io.err(
      `note: ${inputLabel(file)} is a session log, judged whole as one request, which no model call sent as such; check --requests judges each call (--request N one)\n`,
    );
  io.doing = `applying the link's faults to ${inputLabel(file)}`;
  const transcript =
    link && apply
      ? apply.applyLinkFaults(io, parsed.value.transcript, link.view.faults)
      : parsed.value.transcript;
  io.doing = `analysing ${inputLabel(file)}`;
  return { ...parsed.value, transcript, link };
}

/** A parse failure on stderr (message, the line with a caret, what each format expected) and in `io.failure`. */
export function printParseError(io: CliIO, error: ParseError, readNote: string | undefined): void {
  // A .gz that is not gzip data was read as plain text: that is said first (`notGzip`).
  const e = withReadNote({ ...error, message: forTerminal(error.message) }, readNote);
  io.err(`error: ${e.message}\n`);
  const loc = e.location;
  io.failure = {
    kind: e.kind,
    message: e.message,
    ...(loc ? { line: loc.line, column: loc.column } : {}),
  };
  if (loc) {
    // The model quotes a window of a long line already (SourceLocation.caret); else cut here.
    const w =
      loc.caret !== undefined
        ? { text: loc.lineText, caret: loc.caret }
        : windowAround(loc.lineText, loc.column);
    const gutter = ' '.repeat(String(loc.line).length);
    io.err(`  ${loc.line} | ${w.text}\n  ${gutter} | ${' '.repeat(w.caret)}^\n`);
  }
  if (e.tried) for (const t of e.tried) io.err(`  ${t.format}: expected ${t.expected}\n`);
}
