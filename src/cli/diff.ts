/**
 * `diff`: what changed between two requests (issue 33) — two files or links, or two requests of
 * one file (a session log's calls: by default the chosen one against its predecessor in the
 * same conversation). The model's `diffTranscripts` does the work; this prints it.
 */
import {
  diffRequests,
  diffTranscripts,
  outOfRange,
  type DiffRow,
  type TranscriptDiff,
} from '../model/diff/index.ts';
import { loadBpeCounter } from '../model/tokens.ts';
import { TEXT_TOKENS } from '../model/tokenWords.ts';
import { idsText } from '../model/limits.ts';
import { intFlag, parseArgs, UsageError } from './args.ts';
import {
  checkFormat,
  checkProvider,
  EXIT_INVALID,
  EXIT_UNREADABLE,
  EXIT_VALID,
  loadTranscript,
  printFailureJson,
  readSource,
  type CliIO,
} from './io.ts';
import { inputLabel, type LinkInput } from './link.ts';
import { pickSetting, VERDICT_KEYS } from './linkView.ts';
import { listSourceRequests } from './requests.ts';

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

/** Rows as runs: `kept 0–11 → 0–11`, `dropped 12–20`, `inserted → 21–22`. */
export function rowRuns(rows: readonly DiffRow[]): string[] {
  const out: string[] = [];
  let run: DiffRow[] = [];
  const side = (xs: (number | null)[]) => {
    const n = xs.filter((x): x is number => x !== null);
    if (n.length === 0) return '';
    const a = n[0] as number;
    const b = n[n.length - 1] as number;
    return a === b ? `${a}` : `${a}–${b}`;
  };
  const flush = () => {
    if (run.length === 0) return;
    const l = side(run.map((r) => r.left));
    const r = side(run.map((x) => x.right));
    const change = (run[0] as DiffRow).change;
    const stands = run[0]?.replaces;
    const note = stands ? ` (stands for ${stands[0]}–${stands[1] - 1})` : '';
    out.push(`${change.padEnd(9)} ${l || '·'}${r ? ` → ${r}` : ''}${note}`);
    run = [];
  };
  for (const row of rows) {
    const last = run[run.length - 1];
    const next = (a: number | null, b: number | null) => a === null || b === null || b === a + 1;
    if (
      last &&
      (last.change !== row.change ||
        (last.left === null) !== (row.left === null) ||
        (last.right === null) !== (row.right === null) ||
        !next(last.left, row.left) ||
        (row.change !== 'merged' && row.change !== 'sealed' && !next(last.right, row.right)))
    )
      flush();
    run.push(row);
  }
  flush();
  return out;
}

function printText(io: CliIO, d: TranscriptDiff): void {
  io.out(`${d.summary}\n`);
  for (const s of [d.left, d.right]) {
    const verdict = s.valid ? 'VALID' : `INVALID (${s.firstRule?.code} ${s.firstRule?.rule})`;
    io.out(
      `${s.label}: ${fmt(s.messages)} message${s.messages === 1 ? '' : 's'}, ${fmt(s.tokens)} ${TEXT_TOKENS}, ${verdict}\n`,
    );
  }
  io.out(
    `prompt-cache prefix: ${fmt(d.cachePrefix.messages)} messages, ${fmt(d.cachePrefix.tokens)} ${TEXT_TOKENS} (${d.tokenBasis})\n`,
  );
  io.out(`\n${rowRuns(d.rows).join('\n')}\n`);
  for (const b of d.broken)
    io.out(
      `broken: [${b.code}] ${b.rule} (id ${idsText([b.id])}) at right message ${b.messageIndex}\n`,
    );
  for (const f of d.introduced)
    io.out(
      `new: [${f.code}] ${f.rule}${f.messageIndex >= 0 ? ` at right message ${f.messageIndex}` : ''}\n`,
    );
  if (!d.right.valid && d.right.firstError !== null)
    io.out(`${d.right.label} gets: HTTP 400 ${JSON.stringify(d.right.firstError)}\n`);
}

/** The diff on stdout (words or JSON), its notes on stderr as every command's notes, once. */
function print(io: CliIO, d: TranscriptDiff, json: boolean): number {
  for (const n of d.notes) io.err(`note: ${n}\n`);
  if (json) io.out(`${JSON.stringify(d, null, 2)}\n`);
  else printText(io, d);
  return d.right.valid ? EXIT_VALID : EXIT_INVALID;
}

/** A `--request`/`--against` failure (out of range, no predecessor): said, exit 2. */
function refuse(io: CliIO, file: string, message: string, json: boolean): number {
  io.err(`error: ${message}\n`);
  io.failure = { kind: 'request', message };
  if (json) printFailureJson(io, file);
  return EXIT_UNREADABLE;
}

/**
 * The two requests a page link's diff view names (`d=`, `model/permalink/view.ts`): `d=prev` is
 * the link's request (`rq`, else the file's default one) against its predecessor in lineage;
 * `d=A.B` is request B against request A. Said on stderr. 1-based.
 * @returns null when the link opens no diff view of two requests (none, or `d=cuts`: said)
 */
function requestsOfLink(
  io: CliIO,
  link: LinkInput,
  defaultIndex: number,
): { request: number; against: number | undefined } | null {
  const d = link.view.diff;
  if (d === null) return null;
  if (d.kind === 'cuts') {
    io.err(
      "note: the link's diff view compares the simulator's two cuts (d=cuts): run simulate with each policy; diff compares requests\n",
    );
    return null;
  }
  if (d.kind === 'requests') {
    io.err(
      `note: request ${d.right + 1} against request ${d.left + 1}, from the link (d=${d.left + 1}.${d.right + 1})\n`,
    );
    return { request: d.right + 1, against: d.left + 1 };
  }
  const rq = link.view.request;
  const request = (rq ?? defaultIndex) + 1;
  io.err(
    `note: request ${request}${rq === null ? " (the file's default)" : ` (rq=${request})`} against its predecessor, from the link (d=prev)\n`,
  );
  return { request, against: undefined };
}

/** `diff FILE --request N [--against M]`, or `diff LINK` whose `d=` names the two requests. */
async function diffInFile(
  io: CliIO,
  file: string,
  flags: Record<string, string | true | undefined>,
): Promise<number> {
  const json = flags.json === true;
  let n = intFlag('request', flags.request, 1);
  let m = intFlag('against', flags.against, 1);
  const needsRequest = 'diff FILE needs --request N (or give two files: diff A B)';
  let format = checkFormat(flags.format);
  let provider = checkProvider(flags.provider);
  const source = await readSource(io, file);
  if (!source) {
    if (json) printFailureJson(io, file);
    return EXIT_UNREADABLE;
  }
  const link = source.link;
  // Without --request, FILE must be a link (or hold one: read to know) whose d= names requests.
  if (n === undefined && !link) throw new UsageError(needsRequest);
  if (link) {
    // The codec's side of a link (zod), imported only for a link (issue 38).
    const { reportUnusedKeys } = await import('./linkApply.ts');
    reportUnusedKeys(io, link, [...VERDICT_KEYS, 'd'], 'diff');
    format = pickSetting(io, {
      what: 'format',
      flag: '--format',
      key: 'f',
      fromFlag: format,
      fromLink: link.view.format ?? undefined,
    });
    provider = pickSetting(io, {
      what: 'provider',
      flag: '--provider',
      key: 'pr',
      fromFlag: provider,
      fromLink: link.view.provider ?? undefined,
    });
  }
  const listing = await listSourceRequests(io, file, source.input, { format, provider, json });
  if (listing === null) return EXIT_UNREADABLE;
  if (link && n === undefined) {
    const chosen = requestsOfLink(io, link, listing.defaultIndex);
    if (chosen === null)
      throw new UsageError(
        'the link opens no diff view (no d=prev or d=A.B): give --request N, or two FILEs',
      );
    [n, m] = [chosen.request, m ?? chosen.against];
  }
  if (n === undefined) throw new UsageError('diff FILE needs --request N');
  const total = listing.requests.length;
  if (n > total) return refuse(io, file, `--request ${n}: ${outOfRange(n - 1, total)}`, json);
  if (m !== undefined && m > total)
    return refuse(io, file, `--against ${m}: ${outOfRange(m - 1, total)}`, json);
  io.doing = `comparing requests of ${inputLabel(file)}`;
  const counter = await loadBpeCounter(); // loaded once by the listing (the module's import)
  const d = diffRequests(listing, n - 1, m === undefined ? undefined : m - 1, {
    ...(provider ? { provider } : {}),
    counter,
  });
  if (!d.ok) return refuse(io, file, `--request ${n}: ${d.error} (--against M)`, json);
  if (m === undefined)
    io.err(
      `note: request ${n} compared with request ${d.value.left.request ?? 0} (${d.lineage})\n`,
    );
  return print(io, d.value, json);
}

/**
 * `diff`: `diff A B` (two files or links; a file of several requests opens its default one, as
 * `check` does) or `diff FILE --request N [--against M]`. Two formats are compared through the
 * model (said on stderr and in the summary). `--json` prints the `TranscriptDiff`.
 * @returns exit code: 0 when the right side is valid, 1 when it is not, 2 on bad input or usage
 *   (an out-of-range request names the range)
 */
export async function runDiff(argv: string[], io: CliIO): Promise<number> {
  const args = parseArgs(argv, ['format', 'provider', 'request', 'against'], ['json']);
  const [a, b, ...extra] = args.positionals;
  if (a === undefined)
    throw new UsageError('diff needs two FILEs, a FILE and --request N, or a link with d=');
  if (extra.length > 0)
    throw new UsageError(`diff takes at most two FILEs; also got: ${extra.join(' ')}`);
  if (b === undefined) return diffInFile(io, a, args.flags);
  if (args.flags.request !== undefined || args.flags.against !== undefined)
    throw new UsageError(
      '--request and --against choose requests of one FILE: diff FILE --request N',
    );
  const json = args.flags.json === true;
  const format = checkFormat(args.flags.format);
  const provider = checkProvider(args.flags.provider);
  const opts = { command: 'diff', json, ...(format ? { format } : {}) };
  const left = await loadTranscript(io, a, opts);
  if (!left) return EXIT_UNREADABLE;
  const right = await loadTranscript(io, b, opts);
  if (!right) return EXIT_UNREADABLE;
  const counter = await loadBpeCounter();
  io.doing = `comparing ${inputLabel(a)} with ${inputLabel(b)}`;
  const d = diffTranscripts(left.transcript, right.transcript, {
    ...(provider ? { provider } : {}),
    counter,
    leftRequest: left.requestIndex !== undefined ? left.requestIndex + 1 : null,
    rightRequest: right.requestIndex !== undefined ? right.requestIndex + 1 : null,
    leftLabel: inputLabel(a),
    rightLabel: inputLabel(b),
  });
  return print(io, d, json);
}
