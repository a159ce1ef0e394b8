/** Minimal flag parser: `--key value`, `--flag`, positionals. Unknown flags are errors. */
export interface ParsedArgs {
  positionals: string[];
  flags: Record<string, string | true>;
}

/**
 * @param argv arguments after the command name
 * @param valued flags that take a value (`format`, `provider`, …)
 * @param booleans flags that take none (`json`)
 * @throws Error with a usage message on an unknown flag or a missing value
 */
export function parseArgs(argv: string[], valued: string[], booleans: string[]): ParsedArgs {
  const out: ParsedArgs = { positionals: [], flags: {} };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    if (a.startsWith('--') && a.length > 2) {
      const [key, inline] = a.slice(2).split('=', 2) as [string, string | undefined];
      if (booleans.includes(key)) out.flags[key] = true;
      else if (valued.includes(key)) {
        const v = inline ?? argv[++i];
        if (v === undefined) throw new Error(`--${key} needs a value`);
        out.flags[key] = v;
      } else throw new Error(`unknown option --${key}`);
    } else if (a === '-o') {
      const v = argv[++i];
      if (v === undefined) throw new Error('-o needs a value');
      out.flags.o = v;
    } else out.positionals.push(a);
  }
  return out;
}

/**
 * The one FILE operand of a command.
 * @throws Error when there is none or more than one (a second file would be silently ignored)
 */
export function onlyFile(args: ParsedArgs, command: string): string {
  const [file, ...extra] = args.positionals;
  if (file === undefined) throw new Error(`${command} needs a FILE (or - for stdin)`);
  if (extra.length > 0) throw new Error(`${command} takes one FILE; also got: ${extra.join(' ')}`);
  return file;
}
