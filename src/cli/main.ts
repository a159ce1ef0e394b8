/**
 * Command-line entry: the same model as the page, headless.
 *
 *   npm run --silent cli -- check FILE [--format F] [--provider P] [--json]
 *
 * FILE `-` reads stdin. Exit codes: 0 valid, 1 invalid, 2 unreadable input or bad usage.
 *
 * `check`'s FILE starts being read before the commands are loaded (prefetch.ts): only that
 * module and what it needs are imported statically, the rest once the read is under way.
 */
import { prefetchInput } from './prefetch.ts';

// A reader that stops early (`| head`) closes the pipe: stop quietly, as Unix tools do.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw e;
  });
}

const argv = process.argv.slice(2);
let early = prefetchInput(argv);
const [{ COMMANDS, runCli }, { readInput }] = await Promise.all([
  import('./commands.ts'),
  import('./read.ts'),
]);
const code = await runCli(argv, {
  read: async (file) => {
    // The bytes read ahead serve the first read of that file, once.
    const bytes = early?.file === file ? await early.bytes : null;
    early = null;
    return readInput(file, undefined, bytes);
  },
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
