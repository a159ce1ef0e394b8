/**
 * The CLI's command table. A new command is a file exporting `runX(argv, io)` and one entry here:
 * its usage line and how to run it.
 *
 * Only `check` is imported with the table (the command run most, the one the bench times); every
 * other command's module is imported by `import()` when it is run (issue 38): what they need
 * alone (the repair's and the faults' model, zod with them, eviction, the scan's pool) is never
 * loaded by a `check`, and the built CLI keeps each in a chunk of its own (scripts/buildCli.js).
 */
import { CHECK_USAGE, runCheck } from './check.ts';
import { EXIT_UNREADABLE, type CliIO } from './io.ts';
import { UsageError } from './args.ts';
import { clip } from '../model/limits.ts';
import { nameTable } from '../model/own.ts';
import { PARSERS } from '../model/parse/registry.ts';
import { VALIDATORS } from '../model/validate/index.ts';
import { POLICIES } from '../model/evict/registry.ts';

interface Command {
  usage: string;
  run: (argv: string[], io: CliIO) => number | Promise<number>;
  /**
   * True when nothing of the command is left running once `run` has answered (no worker,
   * stream, timer or native handle): the process may exit at once (main.ts `exitWhenDone`).
   */
  settled?: true;
}

const REPAIR_USAGE =
  'repair FILE [--format F] [--provider P] [--model M] [-o OUT] [--json] [--request N]   repair a transcript, write it in its format';
const SIMULATE_USAGE = `simulate FILE --policy P --budget N (a link may set both) [--provider P] [--model M] [--summary-tokens S] [--pin-first] [--keep-newest N] [--keep N] [--clear-at-least N] [--exclude-tools A,B] [--clear-tool-inputs] [--window N [--reserve M]] [--limit-bytes N] [--json] [--request N]   evict to a token budget (--keep and the clear options: clear-tool-results; --window and --limit-bytes add what-if rows: a smaller model window, a 413 retry) (policies: ${POLICIES.join(', ')})`;
const SHARE_USAGE =
  'share FILE [--structure-only] [--hide-tool-names] [-o OUT] [--base URL] [--json] [--format F] [--request N]   print a link to the transcript';
const SWEEP_USAGE =
  'sweep FILE [--provider P] [--model M] [--summary-tokens S] [--json] [--request N]   every budget, every policy: which give a 400, and the mean overshoot (exit 1 if any budget gives a 400)';
const DIFF_USAGE =
  'diff A B [--json] [--provider P] [--format F] | diff FILE --request N [--against M] [--json] | diff LINK (its d=)   what changed between two requests (default M: the one N continues)';
const SCAN_USAGE =
  'scan PATH... [--out FILE.parquet] [--policies P,…] [--budgets 10%,…|N,…] [--shard I/N] [--tokens estimate|exact] [--jobs N] [--json]   every request of many files (folders, globs, s3://bucket/prefix) into Parquet, and the fleet report; PATHs all .parquet: the report over them';

export const COMMANDS: ReadonlyMap<string, Command> = nameTable({
  check: { usage: CHECK_USAGE, run: runCheck, settled: true },
  repair: {
    usage: REPAIR_USAGE,
    run: async (argv, io) => (await import('./repair.ts')).runRepair(argv, io),
  },
  simulate: {
    usage: SIMULATE_USAGE,
    run: async (argv, io) => (await import('./simulate.ts')).runSimulate(argv, io),
  },
  sweep: {
    usage: SWEEP_USAGE,
    run: async (argv, io) => (await import('./sweep.ts')).runSweep(argv, io),
  },
  share: {
    usage: SHARE_USAGE,
    run: async (argv, io) => (await import('./share.ts')).runShare(argv, io),
  },
  diff: {
    usage: DIFF_USAGE,
    run: async (argv, io) => (await import('./diff.ts')).runDiff(argv, io),
  },
  scan: {
    usage: SCAN_USAGE,
    run: async (argv, io) => (await import('./scan.ts')).runScan(argv, io),
  },
});

/**
 * The usage text: each command, the values `--format` and `--provider` take (from the PARSERS and
 * VALIDATORS registries), and the exit codes.
 */
export function usage(): string {
  const commands = [...COMMANDS.values()].map((c) => `  ${c.usage}`).join('\n');
  const formats = PARSERS.map((p) => p.id).join(', ');
  const providers = VALIDATORS.map((v) => v.id).join(', ');
  return `usage: npm run --silent cli -- <command> ...\n\n${commands}\n\n--format F: ${formats} (default: detected)\n--provider P: ${providers} (default: the format's own)\n--model M: a model id such as claude-opus-4-7 (default: the one the input names)\n\nExit codes: 0 valid, 1 invalid (or not repairable), 2 unreadable input or bad usage.\n`;
}

/**
 * Run the CLI. A usage error (UsageError) prints the message and the usage text; any other
 * failure is the program's, not the user's: one line saying what it was doing, no usage text
 * (issue 14). Both exit 2.
 * @returns the process exit code (0 valid, 1 invalid, 2 unreadable, bad usage or a failure)
 */
export async function runCli(argv: string[], io: CliIO): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === '--help' || name === '-h' || name === 'help') {
    io.out(usage());
    return name ? 0 : EXIT_UNREADABLE;
  }
  const cmd = COMMANDS.get(name);
  if (!cmd) {
    io.err(`error: unknown command "${name}"\n${usage()}`);
    return EXIT_UNREADABLE;
  }
  if (rest.includes('--help') || rest.includes('-h')) {
    io.out(`usage: npm run --silent cli -- ${cmd.usage}\n`);
    return 0;
  }
  try {
    return await cmd.run(rest, io);
  } catch (e) {
    const message = clip(e instanceof Error ? e.message : String(e), 300);
    if (e instanceof UsageError) io.err(`error: ${message}\n${usage()}`);
    else
      io.err(
        `error: ${name} failed while ${io.doing ?? 'starting'}: ${message}\n(This is a fault of the program, not of the command line; the input was not changed.)\n`,
      );
    return EXIT_UNREADABLE;
  }
}
