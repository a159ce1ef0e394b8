/**
 * Command-line entry: the same model as the page, headless.
 *
 *   npm run --silent cli -- check FILE [--format F] [--provider P] [--json]
 *
 * FILE `-` reads stdin. Exit codes: 0 valid, 1 invalid, 2 unreadable input or bad usage.
 */
import { runCli } from './commands.ts';
import { readInput } from './read.ts';

// A reader that stops early (`| head`) closes the pipe: stop quietly, as Unix tools do.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw e;
  });
}

const code = await runCli(process.argv.slice(2), {
  read: (file) => readInput(file),
  out: (s) => process.stdout.write(s),
  err: (s) => process.stderr.write(s),
});
process.exitCode = code;
