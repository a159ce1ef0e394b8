/**
 * `npm run cli`: run the built CLI (dist-cli/cli.js) with plain `node`, building it first when it
 * is missing or older than its sources (scripts/buildCli.js), so the command always runs the code
 * in src/ without a TypeScript loader at run time (issue 20).
 */
import { pathToFileURL } from 'node:url';
import { buildCli, CLI_FILE, isStale } from './buildCli.js';

if (await isStale()) await buildCli();
// The CLI reads its arguments from process.argv.slice(2): the same here as when run directly.
await import(pathToFileURL(CLI_FILE).href);
