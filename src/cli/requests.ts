/**
 * `check --requests`: a file's requests (issue 33) — a session log's model calls with their
 * compactions, an archive's requests, or the one request — each with its size and verdict.
 */
import { listFileRequests, requestJudge, type RequestListing } from '../model/diff/index.ts';
import type { CompactionEvent } from '../model/diff/index.ts';
import type { FormatId, ProviderId } from '../model/types.ts';
import { loadBpeCounter } from '../model/tokens.ts';
import { apiErrorSummary, apiErrorWords, messageRanges } from '../model/diff/index.ts';
import {
  checkFormat,
  EXIT_INVALID,
  EXIT_UNREADABLE,
  EXIT_VALID,
  printFailureJson,
  printParseError,
  readSource,
  type CliIO,
  type Input,
} from './io.ts';
import { inputLabel } from './link.ts';
import { plural } from './words.ts';
import { pickSetting } from './linkView.ts';

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');

/** A compaction in words: `compaction (auto): 167,766 → 6,977 tokens; messages 0–194 left the context`. */
export function compactionWords(c: CompactionEvent): string {
  const tokens =
    c.tokensBefore !== null
      ? `: ${fmt(c.tokensBefore)} → ${c.tokensAfter !== null ? fmt(c.tokensAfter) : '?'} tokens`
      : '';
  const [a, b] = c.removed;
  const removed =
    b > a
      ? `; ${messageRanges(Array.from({ length: b - a }, (_, i) => a + i))} left the context`
      : '';
  return `${c.kind} (${c.trigger})${tokens}${removed}${c.line !== null ? `, line ${c.line}` : ''}`;
}

/** Every request's JSON row: `{request, messages, tokens, valid, firstRule, compaction, …}`. */
function rows(listing: RequestListing, provider: ProviderId | undefined) {
  const judge = requestJudge(listing, provider);
  return listing.requests.map((r, k) => {
    const v = judge.verdict(k);
    return {
      request: r.request,
      label: r.label,
      messages: r.messages,
      tokens: r.tokens,
      valid: v.valid,
      firstRule: v.firstRule,
      compaction: r.compaction,
      ...(r.thread !== undefined ? { thread: r.thread } : {}),
      ...(r.usageTokens !== undefined ? { usageTokens: r.usageTokens } : {}),
      ...(r.apiError !== undefined ? { apiError: r.apiError } : {}),
      ...(r.retryOf !== undefined ? { retryOf: r.retryOf } : {}),
    };
  });
}

/**
 * The requests of FILE's text (`listFileRequests` with the exact tokenizer), for `check
 * --requests` and `diff --request`; null when it does not parse (the parse error said on stderr,
 * and the `--json` failure answer printed with `json`).
 */
export async function listSourceRequests(
  io: CliIO,
  file: string,
  input: Input,
  opts: { format: FormatId | undefined; provider: ProviderId | undefined; json: boolean },
): Promise<RequestListing | null> {
  io.doing = `listing the requests of ${inputLabel(file)}`;
  const counter = await loadBpeCounter();
  const listed = listFileRequests(input.text, {
    name: input.name,
    counter,
    ...(opts.format ? { format: opts.format } : {}),
    ...(opts.provider ? { provider: opts.provider } : {}),
  });
  if (listed.ok) return listed.value;
  printParseError(io, listed.error, input.readNote);
  if (opts.json) printFailureJson(io, file);
  return null;
}

/**
 * `check FILE --requests [--json]`.
 * @returns exit code: 0 when every request is valid, 1 when one is not, 2 unreadable input
 */
export async function runCheckRequests(
  io: CliIO,
  file: string,
  flags: Record<string, string | true | undefined>,
  provider: ProviderId | undefined,
): Promise<number> {
  const json = flags.json === true;
  let format = checkFormat(flags.format);
  const source = await readSource(io, file);
  if (!source) {
    if (json) printFailureJson(io, file);
    return EXIT_UNREADABLE;
  }
  if (source.link)
    format = pickSetting(io, {
      what: 'format',
      flag: '--format',
      key: 'f',
      fromFlag: format,
      fromLink: source.link.view.format ?? undefined,
    });
  const listing = await listSourceRequests(io, file, source.input, { format, provider, json });
  if (listing === null) return EXIT_UNREADABLE;
  const list = rows(listing, provider);
  const firstBad = list.find((r) => !r.valid);
  if (json) {
    // The notes (skipped lines, how calls were found) on stderr, as other commands' notes.
    for (const n of listing.notes) io.err(`note: ${n}\n`);
    io.out(`${JSON.stringify(list, null, 2)}\n`);
  } else {
    const what =
      listing.kind === 'session'
        ? `${plural(list.length, 'model call')} of a session log`
        : plural(list.length, 'request');
    io.out(`${inputLabel(file)}: ${listing.format}; ${what}\n`);
    for (const n of listing.notes) io.out(`note: ${n}\n`);
    for (const r of list) {
      const verdict = r.valid ? 'VALID' : `INVALID (${r.firstRule?.code} ${r.firstRule?.rule})`;
      const reported = r.usageTokens !== undefined ? ` (logged ${fmt(r.usageTokens)})` : '';
      // A label that starts with the request's number (a record's calls: `#3 · 09:15:24 UTC · …`)
      // is not numbered twice.
      const label = r.label.replace(new RegExp(`^#${r.request} · `), '');
      io.out(`#${r.request}  ${label}  ${fmt(r.tokens)} tokens${reported}  ${verdict}\n`);
      if (r.compaction) io.out(`    ${compactionWords(r.compaction)}\n`);
      if (r.apiError) io.out(`    ${apiErrorWords(r.valid)}: ${r.apiError.slice(0, 200)}\n`);
      if (r.retryOf !== undefined) io.out(`    after the failed request #${r.retryOf}\n`);
    }
    const events = list.filter((r) => r.compaction).length;
    // A valid structure is not a call that succeeded: the errors the log records are counted
    // on the last line too (newcomer: three recorded 400s above "every request is valid").
    const errors = apiErrorSummary(list, listing.kind === 'session' ? 'call' : 'request');
    io.out(
      `Compactions and rollbacks: ${events}; ${
        firstBad
          ? `the first failing request is #${firstBad.request} (${firstBad.firstRule?.code} ${firstBad.firstRule?.rule})`
          : errors
            ? 'every request is valid in structure'
            : 'every request is valid'
      }${errors ? `; ${errors}` : ''}.\n`,
    );
  }
  return firstBad ? EXIT_INVALID : EXIT_VALID;
}
