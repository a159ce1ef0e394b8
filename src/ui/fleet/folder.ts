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
  return (await pickDirectoryNamed())?.index ?? null;
}

/** Ask for a folder (File System Access API). @returns its name and index, or null when cancelled */
export async function pickDirectoryNamed(): Promise<{ name: string; index: FolderIndex } | null> {
  const pick = (window as unknown as { showDirectoryPicker: () => Promise<DirHandle> })
    .showDirectoryPicker;
  try {
    const dir = await pick();
    return { name: dir.name, index: await indexDirectory(dir) };
  } catch {
    return null;
  }
}

/** The name of the folder some picked files come from (their first path segment), or a generic one. */
export function folderName(files: readonly File[]): string {
  const rel = files[0]?.webkitRelativePath ?? '';
  return rel.includes('/') ? rel.slice(0, rel.indexOf('/')) : 'dropped files';
}

/** A dropped item's file system entry (`DataTransferItem.webkitGetAsEntry`), as far as it is used. */
interface DropEntry {
  isFile: boolean;
  isDirectory: boolean;
  name: string;
  file?: (ok: (f: File) => void, fail: (e: unknown) => void) => void;
  createReader?: () => {
    readEntries: (ok: (es: DropEntry[]) => void, fail: (e: unknown) => void) => void;
  };
}

/** Every file under a dropped entry, by its path under the dropped folder (or its name). */
async function indexEntry(e: DropEntry, prefix: string, index: FolderIndex): Promise<void> {
  if (e.isFile && e.file) {
    const file = await new Promise<File>((ok, fail) => e.file?.(ok, fail));
    index.set(`${prefix}${e.name}`, () => Promise.resolve(file));
    return;
  }
  if (!e.isDirectory || !e.createReader) return;
  const reader = e.createReader();
  // readEntries answers in batches (about 100 in Chromium) until an empty one.
  for (;;) {
    const batch = await new Promise<DropEntry[]>((ok, fail) => reader.readEntries(ok, fail));
    if (batch.length === 0) break;
    for (const c of batch) await indexEntry(c, `${prefix}${e.name}/`, index);
  }
}

/**
 * What was dropped when a folder is among it: its files by path under it (one folder dropped: its
 * own name left out, as a folder input gives them), with the folder's name; null when only files
 * were dropped (the caller reads `dataTransfer.files`).
 */
export async function indexDropped(
  items: DataTransferItemList,
): Promise<{ name: string; index: FolderIndex } | null> {
  const entries: DropEntry[] = [];
  for (let i = 0; i < items.length; i++) {
    const item = items[i] as DataTransferItem;
    const e = (
      item as DataTransferItem & { webkitGetAsEntry?: () => DropEntry | null }
    ).webkitGetAsEntry?.();
    if (e) entries.push(e);
  }
  const dirs = entries.filter((e) => e.isDirectory);
  if (dirs.length === 0) return null;
  const index: FolderIndex = new Map();
  if (entries.length === 1 && dirs[0]) {
    const only = dirs[0];
    const inner: FolderIndex = new Map();
    await indexEntry(only, '', inner);
    for (const [k, v] of inner) index.set(k.slice(only.name.length + 1), v);
    return { name: only.name, index };
  }
  for (const e of entries) await indexEntry(e, '', index);
  return { name: 'dropped folders', index };
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
