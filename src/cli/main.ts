/**
 * Command-line entry: the same model as the page, headless.
 *
 *   npm run --silent cli -- check FILE [--format F] [--provider P] [--json]
 *
 * FILE `-` reads stdin. Exit codes: 0 valid, 1 invalid, 2 unreadable input or bad usage.
 */
import { readFileSync } from 'node:fs';
import { decodeBytes } from '../model/parse/bytes.ts';
import { runCli } from './commands.ts';

/** Read FILE (or stdin) as the page does: gunzip `.gz`, refuse binary, decode UTF-8. */
function readInput(file: string): { text: string; name: string } {
  const buf = file === '-' ? readFileSync(0) : readFileSync(file);
  const decoded = decodeBytes(new Uint8Array(buf.buffer, buf.byteOffset, buf.byteLength));
  if (!decoded.ok) throw new Error(decoded.error.message);
  return { text: decoded.value, name: file.replace(/\.gz$/, '') };
}

// A reader that stops early (`| head`) closes the pipe: stop quietly, as Unix tools do.
for (const stream of [process.stdout, process.stderr]) {
  stream.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
    throw e;
  });
}

const code = await runCli(process.argv.slice(2), {
  read: readInput,
  out: (s) => process.stdout.write(s),
  err: (s) => process.stderr.write(s),
});
process.exitCode = code;
