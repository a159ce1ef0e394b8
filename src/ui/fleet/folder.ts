/**
 * The scanned folder, opened in the page so a fleet row can open its session: files picked with
 * a folder input or dropped (their `webkitRelativePath`), or a directory handle (File System
 * Access API, where the browser has it). Paths are `/`-separated, relative to the folder, as the
 * scan's `path` column.
 */

/** Files by their path under the opened folder. */
export type FolderIndex = Map<string, () => Promise<File>>;

/** A folder picked with `<input webkitdirectory>` or files dropped: paths without the folder's own name. */
export function indexFiles(files: readonly File[]): FolderIndex {
  const index: FolderIndex = new Map();
  for (const f of files) {
    const rel = f.webkitRelativePath || f.name;
    const inside = rel.includes('/') ? rel.slice(rel.indexOf('/') + 1) : rel;
    index.set(inside, () => Promise.resolve(f));
  }
  return index;
}

/** The File System Access API's directory handle, as far as it is used here. */
interface DirHandle {
  kind: 'directory';
  name: string;
  values(): AsyncIterable<DirHandle | { kind: 'file'; name: string; getFile(): Promise<File> }>;
}

/** Every file under a directory handle (recursive). */
export async function indexDirectory(dir: DirHandle, prefix = ''): Promise<FolderIndex> {
  const index: FolderIndex = new Map();
  for await (const entry of dir.values()) {
    const at = `${prefix}${entry.name}`;
    if (entry.kind === 'file') index.set(at, () => entry.getFile());
    else for (const [k, v] of await indexDirectory(entry, `${at}/`)) index.set(k, v);
  }
  return index;
}

/** True when the browser can open a folder by the File System Access API. */
export function canPickDirectory(): boolean {
  return typeof (window as { showDirectoryPicker?: unknown }).showDirectoryPicker === 'function';
}

/** Ask for a folder (File System Access API). @returns its index, or null when cancelled */
export async function pickDirectory(): Promise<FolderIndex | null> {
  const pick = (window as unknown as { showDirectoryPicker: () => Promise<DirHandle> })
    .showDirectoryPicker;
  try {
    return await indexDirectory(await pick());
  } catch {
    return null;
  }
}

/**
 * The file of a scan row: the exact path, else the one path that ends with it (a folder opened
 * one level up), else the one file of that name (files dropped without their folders).
 */
export function findFile(index: FolderIndex, path: string): (() => Promise<File>) | null {
  const exact = index.get(path);
  if (exact) return exact;
  const ends = [...index.keys()].filter((k) => k.endsWith(`/${path}`));
  if (ends.length === 1) return index.get(ends[0] as string) ?? null;
  const base = path.slice(path.lastIndexOf('/') + 1);
  const named = [...index.keys()].filter((k) => k === base || k.endsWith(`/${base}`));
  return named.length === 1 ? (index.get(named[0] as string) ?? null) : null;
}
