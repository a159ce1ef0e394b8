import { plural } from './words.ts';
import { requestIndexLine, violationAt } from './requestIndex.ts';
import { verdictOf } from '../model/analyze.ts';
import { countInput, windowOpen } from '../model/validate/contextWindow.ts';
import { CHECK_BOOLEANS, CHECK_VALUED, onlyFile, parseArgs, UsageError } from './args.ts';
import {
  checkProvider,
  EXIT_INVALID,
  EXIT_UNREADABLE,
  EXIT_VALID,
  loadFromFlags,
  providerFor,
  type CliIO,
} from './io.ts';
import { idsText } from '../model/limits.ts';
import { inputLabel } from './link.ts';

export const CHECK_USAGE =
  "check FILE [--format F] [--provider P] [--model M] [--json] [--request N | --requests]   validate a transcript (--requests: list its requests, a session log's model calls); FILE - reads stdin";

/**
 * `check`: the verdict, each violation with its explanation and the exact error body. With
 * `--requests`, the file's requests instead (`requests.ts`).
 * @returns exit code: 0 valid, 1 invalid, 2 unreadable
 */
export async function runCheck(argv: string[], io: CliIO): Promise<number> {
  const args = parseArgs(argv, CHECK_VALUED, CHECK_BOOLEANS);
  const file = onlyFile(args, 'check');
  const provider = checkProvider(args.flags.provider);
  if (args.flags.requests === true) {
    if (args.flags.request !== undefined)
      throw new UsageError('--requests lists every request; --request N checks one');
    // The request listing (the model's diff, the `diff` package) only for `--requests` (issue 38).
    const { runCheckRequests } = await import('./requests.ts');
    return runCheckRequests(io, file, args.flags, provider);
  }
  const parsed = await loadFromFlags(io, file, args.flags, 'check');
  if (!parsed) return EXIT_UNREADABLE;
  // The verdict and counts only: `check` prints no pair (`verdictOf`).
  const first = verdictOf(parsed.transcript, providerFor(io, provider, parsed));
  // The context window: counted only when the text's bounds leave it open (a request far under
  // its window, or a huge body over it, loads no tokenizer), as the page's worker counts it.
  const a = windowOpen(first.validation)
    ? verdictOf(first.transcript, first.provider, {
        inputTokens: await countInput(first.transcript, first.provider),
      })
    : first;
  const errors = a.validation.violations.filter((v) => v.severity === 'error');
  const { toolCalls } = a;
  if (args.flags.json) {
    const out = {
      format: a.transcript.format,
      provider: a.provider,
      messages: a.transcript.messages.length,
      exchanges: a.exchanges,
      toolCalls,
      valid: a.validation.valid,
      violations: a.validation.violations.map((v) => ({
        rule: v.rule,
        code: v.code,
        severity: v.severity,
        messageIndex: v.messageIndex,
        blockIndex: v.blockIndex,
        ids: v.ids,
        providerPath: v.providerPath,
        status: v.status,
        error: v.error,
      })),
      firstError: errors[0]?.error ?? null,
      notes: a.validation.notes,
      warnings: a.transcript.warnings,
    };
    io.out(JSON.stringify(out, null, 2) + '\n');
  } else {
    const t = a.transcript;
    io.out(
      `${inputLabel(file)}: ${t.format} → ${a.provider}; ${plural(t.messages.length, 'message')}, ${plural(a.exchanges, 'exchange')}, ${plural(toolCalls, 'tool call')}\n`,
    );
    for (const w of t.warnings) io.out(`note: ${w}\n`);
    if (a.validation.valid) io.out(`VALID: ${a.provider} would accept this request.\n`);
    else
      io.out(
        `INVALID: ${a.provider} answers HTTP 400 (${errors.length} violation${errors.length === 1 ? '' : 's'}).\n`,
      );
    a.validation.violations.forEach((v, i) => {
      const tag =
        v.severity === 'warning'
          ? 'warning'
          : i === a.validation.violations.indexOf(errors[0] ?? v)
            ? 'the error this request gets'
            : 'next, once the first is fixed';
      io.out(
        `\n[${v.code}] ${v.rule} ${v.index < 0 && v.rule === 'empty_request' ? 'in the request (no message)' : v.index < 0 && v.rule === 'context_window_exceeded' ? 'in the request (its whole input)' : `at message ${violationAt(t.messages, v)}`}${v.blockIndex !== null ? `, block ${v.blockIndex}` : ''}${v.ids.length ? ` (ids: ${idsText(v.ids)})` : ''} — ${tag}\n`,
      );
      io.out(`  ${v.title}. ${v.why}\n`);
      if (v.error !== null) {
        io.out(`  HTTP ${v.status} ${JSON.stringify(v.error)}\n`);
        const mapped = requestIndexLine(t, a.provider, v);
        if (mapped !== null) io.out(`  ${mapped}\n`);
      } else io.out(`  ${v.message}\n`);
    });
    for (const n of a.validation.notes) io.out(`note: ${n}\n`);
    if (parsed.link && parsed.link.view.faults.length > 0 && !a.validation.valid) {
      const { exportedNumbersNote } = await import('./exportedNumbers.ts');
      const note = exportedNumbersNote(t, a.provider, a.validation.violations);
      if (note !== null) io.out(`note: ${note}\n`);
    }
  }
  return a.validation.valid ? EXIT_VALID : EXIT_INVALID;
}
