/**
 * Command-line entry: the same model as the page, headless.
 *
 *   npm run --silent cli -- check FILE [--format F] [--provider P] [--json]
 *
 * FILE `-` reads stdin. Exit codes: 0 valid, 1 invalid, 2 unreadable input or bad usage.
 */
import { readFileSync } from 'node:fs';
import { gunzipSync } from 'node:zlib';
import { runCli } from './commands.ts';

function readInput(file: string): { text: string; name: string } {
  const buf = file === '-' ? readFileSync(0) : readFileSync(file);
  const gz = buf.length > 2 && buf[0] === 0x1f && buf[1] === 0x8b;
  return { text: (gz ? gunzipSync(buf) : buf).toString('utf8'), name: file.replace(/\.gz$/, '') };
}

const code = await runCli(process.argv.slice(2), {
  read: readInput,
  out: (s) => process.stdout.write(s),
  err: (s) => process.stderr.write(s),
});
process.exitCode = code;
