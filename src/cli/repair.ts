import { writeFileSync } from 'node:fs';
import { repairTranscript } from '../model/repair.ts';
import { validateTranscript } from '../model/validate/index.ts';
import { writeTranscript } from '../model/write.ts';
import { onlyFile, parseArgs } from './args.ts';
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

/** The CLI I/O plus file writing (tests pass an in-memory `write`; the default writes to disk). */
export interface RepairIO extends CliIO {
  write?: (file: string, text: string) => void;
}

/**
 * `repair`: fix every violation that can be fixed for the provider (src/model/repair.ts), write
 * the repaired transcript in its original format (stdout, or OUT with `-o`), and list each change.
 *
 * Human mode: the transcript goes to stdout (unless `-o`), the changes and what could not be
 * repaired to stderr. `--json`: one object on stdout
 * `{format, provider, validBefore, valid, changes, unrepaired, output?, file?}` — `output` is the
 * repaired text when no `-o` was given, `file` the path written otherwise.
 * @returns exit code: 0 the result validates, 1 something could not be repaired, 2 unreadable
 *   input, bad usage or an unwritable OUT
 */
export async function runRepair(argv: string[], io: RepairIO): Promise<number> {
  const args = parseArgs(argv, ['format', 'provider', 'model', 'request'], ['json']);
  const file = onlyFile(args, 'repair');
  const provider = checkProvider(args.flags.provider);
  const out = typeof args.flags.o === 'string' ? args.flags.o : undefined;
  const parsed = await loadFromFlags(io, file, args.flags, 'repair');
  if (!parsed) return EXIT_UNREADABLE;
  const t = parsed.transcript;
  io.doing = `repairing ${inputLabel(file)}`;
  const r = repairTranscript(t, providerFor(io, provider, parsed));
  const validBefore = validateTranscript(t, r.provider).valid;
  io.doing = `writing the repaired ${inputLabel(file)}`;
  const text = writeTranscript(r.transcript);
  if (out !== undefined) {
    try {
      (io.write ?? ((f: string, s: string) => writeFileSync(f, s)))(
        out,
        text.endsWith('\n') ? text : text + '\n',
      );
    } catch (e) {
      io.err(`error: cannot write ${out}: ${(e as Error).message}\n`);
      return EXIT_UNREADABLE;
    }
  }
  if (args.flags.json) {
    const body = {
      format: t.format,
      provider: r.provider,
      validBefore,
      valid: r.validation.valid,
      changes: r.changes,
      unrepaired: r.unrepaired,
      ...(out === undefined ? { output: text } : { file: out }),
    };
    io.out(JSON.stringify(body, null, 2) + '\n');
  } else {
    if (out === undefined) io.out(text.endsWith('\n') ? text : text + '\n');
    io.err(
      `${inputLabel(file)}: ${t.format} → ${r.provider}; ${r.changes.length === 0 ? (r.unrepaired.length === 0 ? 'no change needed' : 'nothing could be repaired') : `${r.changes.length} change${r.changes.length === 1 ? '' : 's'}`}\n`,
    );
    for (const c of r.changes) {
      const where =
        c.outputIndex !== null
          ? `message ${c.messageIndex} → output message ${c.outputIndex}`
          : `message ${c.messageIndex} (removed)`;
      io.err(
        `  [${c.kind}] ${where}${c.ids.length ? ` (ids: ${idsText(c.ids)})` : ''}: ${c.note}\n`,
      );
    }
    for (const u of r.unrepaired) {
      io.err(
        `  NOT REPAIRED [${u.code}] ${u.rule} at message ${u.messageIndex}${u.ids.length ? ` (ids: ${idsText(u.ids)})` : ''}: ${u.note}\n    ${r.provider} says: ${u.message}\n`,
      );
    }
    if (out !== undefined) io.err(`wrote ${out}\n`);
    io.err(
      r.validation.valid
        ? `VALID: ${r.provider} would accept the repaired request.\n`
        : `INVALID: ${r.unrepaired.length} error${r.unrepaired.length === 1 ? '' : 's'} could not be repaired.\n`,
    );
  }
  return r.validation.valid ? EXIT_VALID : EXIT_INVALID;
}
