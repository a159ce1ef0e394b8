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
import { inputLabel } from './link.ts';
import { listSourceRequests } from './requests.ts';

export const DIFF_USAGE =
  'diff A B [--json] [--provider P] [--format F] | diff FILE --request N [--against M] [--json]   what changed between two requests (default M: the one N continues)';

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
      `${s.label}: ${fmt(s.messages)} message${s.messages === 1 ? '' : 's'}, ${fmt(s.tokens)} tokens, ${verdict}\n`,
    );
  }
  io.out(
    `prompt-cache prefix: ${fmt(d.cachePrefix.messages)} messages, ${fmt(d.cachePrefix.tokens)} tokens (${d.tokenBasis})\n`,
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
  for (const n of d.notes) io.out(`note: ${n}\n`);
}

function print(io: CliIO, d: TranscriptDiff, json: boolean): number {
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

/** `diff FILE --request N [--against M]`. */
async function diffInFile(
  io: CliIO,
  file: string,
  flags: Record<string, string | true | undefined>,
): Promise<number> {
  const json = flags.json === true;
  const n = intFlag('request', flags.request, 1);
  const m = intFlag('against', flags.against, 1);
  if (n === undefined)
    throw new UsageError('diff FILE needs --request N (or give two files: diff A B)');
  const format = checkFormat(flags.format);
  const provider = checkProvider(flags.provider);
  const source = readSource(io, file);
  if (!source) {
    if (json) printFailureJson(io, file);
    return EXIT_UNREADABLE;
  }
  const listing = await listSourceRequests(io, file, source.input, { format, provider, json });
  if (listing === null) return EXIT_UNREADABLE;
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
  if (a === undefined) throw new UsageError('diff needs two FILEs, or a FILE and --request N');
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
  const left = loadTranscript(io, a, opts);
  if (!left) return EXIT_UNREADABLE;
  const right = loadTranscript(io, b, opts);
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
  for (const n of d.notes) io.err(`note: ${n}\n`);
  return print(io, d, json);
}
