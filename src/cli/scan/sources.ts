/**
 * What `scan` reads: files, folders (recursive), globs and `s3://bucket/prefix`, listed with
 * their size and version (mtime in ms, or the object's ETag), and split into shards by a hash of
 * the file's name.
 */
import { stat, readdir } from 'node:fs/promises';
import path from 'node:path';
import { SCAN_EXTENSIONS, type ScanSource } from '../../model/scan/rows.ts';
import { listS3, parseS3Url } from './s3.ts';

// The extensions a folder or an S3 prefix is scanned for: the model's, which the page's scan uses too.
export { SCAN_EXTENSIONS };

/** A file to scan. */
export type ScanTarget = ScanSource;

/**
 * FNV-1a (32-bit) of a string's UTF-16 code units: the shard hash, the same on every machine.
 */
export function fnv1a(s: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < s.length; i++) {
    h ^= s.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h >>> 0;
}

/** A shard: index `i` (0-based) of `n`. */
export interface Shard {
  i: number;
  n: number;
}

/** True when `file` belongs to `shard` (FNV-1a of its `path` mod n = i; every file when none). */
export function inShard(target: Pick<ScanTarget, 'path'>, shard: Shard | null): boolean {
  return shard === null || fnv1a(target.path) % shard.n === shard.i;
}

/** The extensions a folder is scanned for, in words (`SCAN_EXTENSIONS`). */
export const SCAN_EXTENSIONS_WORDS =
  '.jsonl, .ndjson, .json, .har, .txt, .log, .eval, .sse, each also .gz';

/** `/`-separated. */
const slash = (p: string) => p.split(path.sep).join('/');

async function walk(dir: string, root: string, out: ScanTarget[], passed: string[]): Promise<void> {
  const entries = await readdir(dir, { withFileTypes: true });
  entries.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const e of entries) {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) await walk(full, root, out, passed);
    else if (e.isFile() && !SCAN_EXTENSIONS.test(e.name)) passed.push(full);
    else if (e.isFile()) {
      const st = await stat(full);
      out.push({
        file: full,
        path: slash(path.relative(root, full)),
        size: st.size,
        version: String(Math.trunc(st.mtimeMs)),
      });
    }
  }
}

/**
 * Every file the arguments name, once each, in a stable order: a file as given (any extension),
 * a folder's matching files (recursive, `SCAN_EXTENSIONS`), a glob's matches, an S3 prefix's
 * objects. `path` is relative to the folder, the glob's fixed part or the prefix (a file: its name).
 * @param passed gets the files a folder held that are not named as transcripts are
 *   (`SCAN_EXTENSIONS`): not scanned, for the command to say so
 * @throws Error naming an argument that names nothing (a missing file, an empty glob, a folder
 *   without a file to scan)
 */
export async function listTargets(
  args: readonly string[],
  passed: string[] = [],
): Promise<ScanTarget[]> {
  const out: ScanTarget[] = [];
  // Loaded here, not at the bundle's start: `check` and the other commands never glob (issue 38:
  // the CLI's start-up is part of `check`'s time).
  const { glob, isDynamicPattern } = await import('tinyglobby');
  for (const arg of args) {
    if (parseS3Url(arg)) {
      out.push(...(await listS3(arg, SCAN_EXTENSIONS)));
      continue;
    }
    if (isDynamicPattern(arg)) {
      const matches = (await glob(arg, { onlyFiles: true, absolute: false })).sort();
      if (matches.length === 0) throw new Error(`no file matches ${arg}`);
      const base = globBase(arg, isDynamicPattern);
      for (const m of matches) {
        const st = await stat(m);
        out.push({
          file: m,
          path: slash(path.relative(base, m)),
          size: st.size,
          version: String(Math.trunc(st.mtimeMs)),
        });
      }
      continue;
    }
    const st = await stat(arg).catch((e: NodeJS.ErrnoException) => {
      throw new Error(e.code === 'ENOENT' ? `no such file or folder: ${arg}` : e.message);
    });
    if (st.isDirectory()) {
      const before = out.length;
      await walk(arg, arg, out, passed);
      if (out.length === before)
        throw new Error(
          `no file to scan in ${arg} (looked for ${SCAN_EXTENSIONS_WORDS}, recursively)`,
        );
    } else
      out.push({
        file: arg,
        path: path.basename(arg),
        size: st.size,
        version: String(Math.trunc(st.mtimeMs)),
      });
  }
  const seen = new Set<string>();
  return out.filter((t) => (seen.has(t.file) ? false : (seen.add(t.file), true)));
}

/**
 * The folder part of a glob before its first pattern character.
 * @param isDynamic tinyglobby's `isDynamicPattern` (loaded with it by `listTargets`)
 */
function globBase(pattern: string, isDynamic: (p: string) => boolean): string {
  const parts = pattern.split('/');
  const fixed: string[] = [];
  for (const p of parts) {
    if (isDynamic(p)) break;
    fixed.push(p);
  }
  return fixed.join('/') || '.';
}
