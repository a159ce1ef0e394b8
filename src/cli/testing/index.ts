/** Test-only: the CLI run in-process over a virtual file system (production never imports it). */
import { runCli } from '../commands.ts';

export interface CliRun {
  code: number;
  out: string;
  err: string;
}

/**
 * Run the CLI with `args`; FILE arguments are read from `files` (a missing one fails as a real
 * read does) and `-o` writes land in it.
 * @param failOut make every stdout write throw (an internal failure while printing)
 */
export async function cli(
  args: string[],
  files: Record<string, string>,
  failOut = false,
): Promise<CliRun> {
  let out = '';
  let err = '';
  const code = await runCli(args, {
    read: (f) => {
      const text = files[f];
      if (text === undefined) throw new Error('ENOENT: no such file');
      return { text, name: f };
    },
    write: (f: string, s: string) => {
      files[f] = s;
    },
    out: (s) => {
      if (failOut) throw new Error('simulated write failure');
      out += s;
    },
    err: (s) => (err += s),
  } as Parameters<typeof runCli>[1]);
  return { code, out, err };
}
