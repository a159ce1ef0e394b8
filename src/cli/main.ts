/**
 * Command-line entry: the same model as the page, headless.
 *
 *   npm run --silent cli -- check FILE [--format F] [--provider P] [--json]
 *
 * FILE `-` reads stdin. Exit codes: 0 valid, 1 invalid, 2 unreadable input or bad usage.
 */
import { COMMANDS, runCli } from './commands.ts';
import { readInput } from './read.ts';

// A reader that stops early (`| head`) closes the pipe: stop quietly, as Unix tools do.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw e;
  });
}

const argv = process.argv.slice(2);
const code = await runCli(argv, {
  read: (file) => readInput(file),
  out: (s) => process.stdout.write(s),
  err: (s) => process.stderr.write(s),
});
exitWhenDone(COMMANDS.get(argv[0] ?? '')?.settled === true, code);

/**
 * End the process with `code`. After a command that leaves nothing running (`settled`) whose
 * words are all written (stdout and stderr write synchronously to files, and to pipes on Linux;
 * what a stream still buffers is waited for), it exits at once: the last turn of the event loop
 * would only run the collector's tasks V8 scheduled on the heap the command leaves, some 20 ms
 * after a `check` of 100 MB (issue 38). Any other command ends when its event loop is empty.
 */
function exitWhenDone(settled: boolean, code: number): void {
  process.exitCode = code;
  if (settled && process.stdout.writableLength === 0 && process.stderr.writableLength === 0)
    process.exit(code);
}
