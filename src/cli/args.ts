/** Minimal flag parser: `--key value`, `--flag`, positionals. Unknown flags are errors. */
export interface ParsedArgs {
  positionals: string[];
  flags: Record<string, string | true>;
}

/**
 * The user's mistake in the command line (exit 2, printed with the usage text). Anything else a
 * command throws is an internal failure: printed as one line, without the usage (commands.ts).
 */
export class UsageError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'UsageError';
  }
}

/** The largest value a whole-number flag accepts (tokens, counts, request numbers): 10^9. */
export const MAX_INT_FLAG = 1_000_000_000;

/** `check`'s flags that take a value and those that take none (check.ts; main.ts reads by them). */
export const CHECK_VALUED = ['format', 'provider', 'model', 'request'];
export const CHECK_BOOLEANS = ['json', 'requests'];

/**
 * @param argv arguments after the command name
 * @param valued flags that take a value (`format`, `provider`, …)
 * @param booleans flags that take none (`json`)
 * @throws UsageError on an unknown flag, a missing value, or a value given to a boolean flag
 *   (`--json=1`)
 */
export function parseArgs(argv: string[], valued: string[], booleans: string[]): ParsedArgs {
  const out: ParsedArgs = { positionals: [], flags: {} };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a.startsWith('--') && a.length > 2) {
      const eq = a.indexOf('=');
      const key = eq < 0 ? a.slice(2) : a.slice(2, eq);
      const inline = eq < 0 ? undefined : a.slice(eq + 1);
      if (booleans.includes(key)) {
        if (inline !== undefined) throw new UsageError(`--${key} takes no value (got "${inline}")`);
        out.flags[key] = true;
      } else if (valued.includes(key)) {
        const v = inline ?? argv[++i];
        if (v === undefined) throw new UsageError(`--${key} needs a value`);
        out.flags[key] = v;
      } else throw new UsageError(`unknown option --${key}`);
    } else if (a === '-o') {
      const v = argv[++i];
      if (v === undefined) throw new UsageError('-o needs a value');
      out.flags.o = v;
    } else out.positionals.push(a);
  }
  return out;
}

/**
 * A whole-number flag value, range checked.
 * @param name the flag (for the message); @param v its value as parsed
 * @param min the smallest value accepted (default 0); at most `MAX_INT_FLAG`
 * @returns the number, or undefined when the flag was not given
 * @throws UsageError for anything but digits, or a number outside [min, MAX_INT_FLAG]
 */
export function intFlag(name: string, v: string | true | undefined, min = 0): number | undefined {
  if (v === undefined) return undefined;
  const range = `from ${min} to ${MAX_INT_FLAG.toLocaleString('en-US')}`;
  if (v === true || !/^\d+$/.test(v))
    throw new UsageError(`--${name} needs a whole number ${range}`);
  const n = Number(v);
  if (n < min || n > MAX_INT_FLAG)
    throw new UsageError(`--${name} needs a whole number ${range}, got ${clipArg(v)}`);
  return n;
}

/** A user's argument quoted in a message: at most 40 characters. */
export function clipArg(v: string): string {
  return v.length <= 40 ? v : `${v.slice(0, 39)}…`;
}

/**
 * The one FILE operand of a command.
 * @throws UsageError when there is none or more than one (a second file would be silently ignored)
 */
export function onlyFile(args: ParsedArgs, command: string): string {
  const [file, ...extra] = args.positionals;
  if (file === undefined) throw new UsageError(`${command} needs a FILE (or - for stdin)`);
  if (extra.length > 0)
    throw new UsageError(`${command} takes one FILE; also got: ${extra.join(' ')}`);
  return file;
}
