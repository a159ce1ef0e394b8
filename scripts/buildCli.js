/**
 * Build the CLI (issue 20): src/cli/main.ts and everything it imports bundled by esbuild into one
 * ES module, dist-cli/cli.js, that plain `node` runs: no TypeScript loader at run time, one file
 * to read and compile instead of some two hundred modules transpiled on every start.
 *
 * Plain JavaScript, not TypeScript, so that `npm run cli` (scripts/cli.js) can rebuild a stale
 * bundle without a loader. Usage: `npm run build:cli`.
 *
 * - gpt-tokenizer stays outside (imported from node_modules when a command counts tokens): its
 *   vocabularies are megabytes that `check` never loads.
 * - `import.meta.dirname` in the sources means src/cli (the one user, cli/link.ts, finds the
 *   page's samples from it); in the bundle it would be dist-cli, so it is defined as src/cli.
 * - The inputs are listed in dist-cli/cli.meta.json, so `isStale` can tell when a source changed.
 * - Code split (issue 38): a module the sources load with `import()` (a link's codec and with it
 *   zod, some 750 KB of the bundle that `check FILE` never needs) goes to a chunk,
 *   dist-cli/<module>-<hash>.js, loaded only when that import runs; code shared by several goes
 *   to dist-cli/chunk-<hash>.js. The chunks sit beside cli.js, so the banner's `../src/cli`
 *   means the same in each; the .js files of an earlier build are removed first.
 */
import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
/** The built CLI. */
export const CLI_FILE = path.join(root, 'dist-cli', 'cli.js');
const META_FILE = path.join(root, 'dist-cli', 'cli.meta.json');

const BANNER = [
  '#!/usr/bin/env node',
  '// Built by scripts/buildCli.js from src/cli/main.ts: edit the sources, not this file.',
  "import { fileURLToPath as __tiFileURLToPath } from 'node:url';",
  "const __tiCliSourceDir = __tiFileURLToPath(new URL('../src/cli', import.meta.url));",
].join('\n');

/**
 * Bundle the CLI into dist-cli/cli.js and list its inputs in dist-cli/cli.meta.json.
 * @returns `bytes`: the size of what starting the CLI reads (cli.js, the command table it imports
 *   and the chunks they import statically; `files` of them), and `inputs`: the number of source files in the build
 */
export async function buildCli() {
  const { build } = await import('esbuild');
  const outdir = path.dirname(CLI_FILE);
  // Every .js here is this build's output; chunk names change with their contents.
  if (existsSync(outdir))
    for (const f of readdirSync(outdir)) if (f.endsWith('.js')) rmSync(path.join(outdir, f));
  const result = await build({
    absWorkingDir: root,
    entryPoints: { cli: 'src/cli/main.ts', scanWorker: 'src/cli/scan/worker.ts' },
    outdir,
    bundle: true,
    platform: 'node',
    format: 'esm',
    // What only some commands need (the link's codec and zod, issue 38) is imported with
    // `import()`: split into chunks beside cli.js (chunk-*.js) that node loads only then.
    splitting: true,
    target: 'node20',
    // jsonc-parser's `main` is a UMD build that esbuild cannot follow; its `module` is ESM.
    mainFields: ['module', 'main'],
    // Native or self-spawning packages stay in node_modules: DuckDB (a platform binary), piscina
    // (starts its own worker file), the AWS SDK and tinyglobby (loaded only by `scan`).
    external: [
      'gpt-tokenizer',
      'gpt-tokenizer/*',
      '@duckdb/*',
      'piscina',
      '@aws-sdk/*',
      'tinyglobby',
    ],
    define: { 'import.meta.dirname': '__tiCliSourceDir' },
    banner: { js: BANNER },
    metafile: true,
    logLevel: 'warning',
  });
  const inputs = Object.keys(result.metafile.inputs);
  await writeFile(META_FILE, JSON.stringify({ inputs }, null, 2) + '\n');
  // What `node dist-cli/cli.js` reads before a command runs: cli.js, what it imports (main.ts
  // imports the command table with `import()` once `check`'s FILE is being read: prefetch.ts),
  // and the chunks those import statically.
  const outputs = result.metafile.outputs;
  const entry = path.relative(root, CLI_FILE);
  const startup = new Set([entry]);
  for (const f of startup)
    for (const i of outputs[f]?.imports ?? [])
      if (!i.external && (i.kind === 'import-statement' || f === entry)) startup.add(i.path);
  let bytes = 0;
  for (const f of startup) bytes += outputs[f]?.bytes ?? 0;
  return { bytes, files: startup.size, inputs: inputs.length };
}

/**
 * True when dist-cli/cli.js is missing or older than one of its sources (or than this script).
 * Costs one `stat` per source file: a few milliseconds.
 */
export async function isStale() {
  let built;
  let inputs;
  try {
    built = statSync(CLI_FILE).mtimeMs;
    inputs = JSON.parse(await readFile(META_FILE, 'utf8')).inputs;
  } catch {
    return true;
  }
  if (!Array.isArray(inputs)) return true;
  const sources = [...inputs, path.relative(root, fileURLToPath(import.meta.url))];
  for (const f of sources) {
    try {
      if (statSync(path.join(root, f)).mtimeMs > built) return true;
    } catch {
      return true; // a source moved or was deleted
    }
  }
  return false;
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const r = await buildCli();
  console.log(
    `built ${path.relative(root, CLI_FILE)} from ${r.inputs} files: ${(r.bytes / 1024).toFixed(0)} KiB read at start (${r.files} files; the rest when a command imports it)`,
  );
}
