/**
 * The CLI's command table. A new command is a file exporting `runX(argv, io)` and one entry here.
 */
import { CHECK_USAGE, runCheck } from './check.ts';
import { REPAIR_USAGE, runRepair } from './repair.ts';
import { SIMULATE_USAGE, runSimulate } from './simulate.ts';
import { SHARE_USAGE, runShare } from './share.ts';
import { SWEEP_USAGE, runSweep } from './sweep.ts';
import { DIFF_USAGE, runDiff } from './diff.ts';
import { SCAN_USAGE, runScan } from './scan.ts';
import { EXIT_UNREADABLE, type CliIO } from './io.ts';
import { UsageError } from './args.ts';
import { clip } from '../model/limits.ts';
import { nameTable } from '../model/own.ts';
import { PARSERS } from '../model/parse/registry.ts';
import { VALIDATORS } from '../model/validate/index.ts';

interface Command {
  usage: string;
  run: (argv: string[], io: CliIO) => number | Promise<number>;
}

export const COMMANDS: ReadonlyMap<string, Command> = nameTable({
  check: { usage: CHECK_USAGE, run: runCheck },
  repair: { usage: REPAIR_USAGE, run: runRepair },
  simulate: { usage: SIMULATE_USAGE, run: runSimulate },
  sweep: { usage: SWEEP_USAGE, run: runSweep },
  share: { usage: SHARE_USAGE, run: runShare },
  diff: { usage: DIFF_USAGE, run: runDiff },
  scan: { usage: SCAN_USAGE, run: runScan },
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
