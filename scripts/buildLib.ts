/**
 * Build the library package (packages/transcript-inspector): `tsc` emits src/lib and the model
 * modules it imports as ESM + .d.ts into dist/, one file per module (tree-shakeable). tsc rewrites
 * `./x.ts` imports to `./x.js` in the JavaScript but keeps `.ts` in the declarations, which a
 * consumer without `allowImportingTsExtensions` cannot resolve, so those are rewritten here.
 * Prints the files and sizes. Usage: `npm run build:lib`.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const PACKAGE_DIR = path.join(root, 'packages', 'transcript-inspector');
const dist = path.join(PACKAGE_DIR, 'dist');

function files(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) =>
    e.isDirectory() ? files(path.join(dir, e.name)) : [path.join(dir, e.name)],
  );
}

/** `from './x.ts'` and `import('./x.ts')` → `.js`, for relative specifiers only. */
export function rewriteDeclarationImports(text: string): string {
  return text.replace(/(from\s+|import\()(['"])(\.{1,2}\/[^'"]*?)\.ts\2/g, '$1$2$3.js$2');
}

export function buildLib(): { files: number; bytes: number } {
  rmSync(dist, { recursive: true, force: true });
  execFileSync(
    process.execPath,
    [path.join(root, 'node_modules/typescript/bin/tsc'), '-p', 'tsconfig.lib.build.json'],
    { cwd: root, stdio: 'inherit' },
  );
  let bytes = 0;
  const all = files(dist);
  for (const f of all) {
    if (f.endsWith('.d.ts')) writeFileSync(f, rewriteDeclarationImports(readFileSync(f, 'utf8')));
    bytes += statSync(f).size;
  }
  return { files: all.length, bytes };
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const r = buildLib();
  console.log(
    `built ${path.relative(root, dist)}: ${r.files} files, ${(r.bytes / 1024).toFixed(0)} KiB`,
  );
}
