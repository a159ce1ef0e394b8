/**
 * What this tab keeps of the transcripts it showed that no URL can bring back (a paste, an opened
 * file), so that Back/Forward and a reload show them again (issue 15). Each history entry names
 * its transcript by a key (`urlSync.ts` puts the key in `history.state`); the source is kept here
 * under that key:
 * - in memory, for Back/Forward while the page lives (any size: a streamed file is a Blob
 *   reference);
 * - in the tab's `sessionStorage`, for a reload, when it is text and small enough. It stays in
 *   this tab, on this device: never in the address, never sent anywhere, gone when the tab
 *   closes. A text too large to keep is recorded as lost (name and size only), so the page can
 *   warn before leaving and say what is missing after a reload.
 */
import type { ParseError } from '../model/types.ts';
import type { Source } from './store.ts';

/**
 * Longest text kept for a reload, in characters (2 Mi, the size of the largest transcript a link
 * carries). Session storage holds about 5 M characters per site (Chromium: 10 MiB of UTF-16;
 * Firefox: 5 M characters), shared by every tab of the page's origin in Firefox.
 */
export const MAX_KEPT_CHARS = 2 * 1024 * 1024;

/** All texts kept for a reload together, in characters; the oldest entries go first. */
export const MAX_KEPT_TOTAL_CHARS = 2 * MAX_KEPT_CHARS;

/**
 * Texts held in memory for Back/Forward, in characters all together (the newest entry is always
 * held, whatever its size): a page that pasted many large logs would otherwise never free one.
 */
export const MAX_MEMORY_CHARS = 64 * 1024 * 1024;

/** Prefix of this module's session storage keys. */
const PREFIX = 'transcript-inspector.kept.';
/** The session storage key of the list of kept keys, oldest first. */
const INDEX = `${PREFIX}index`;

/** What the memory holds for a key: a source, and its error when it failed to parse. */
interface Held {
  source: Source;
  error?: ParseError;
}

/** True for a value shaped like a `ParseError` (as read back from session storage). */
function isParseError(v: unknown): v is ParseError {
  if (v === null || typeof v !== 'object') return false;
  const e = v as Record<string, unknown>;
  return typeof e.kind === 'string' && typeof e.message === 'string';
}

/** The part of `Storage` used here (tests pass a fake). */
export type KeptStorage = Pick<Storage, 'getItem' | 'setItem' | 'removeItem'>;

/** What `recall` finds under a key (`error`: kept with it, for input that failed to parse). */
export type Recalled =
  | { kind: 'kept'; source: Source; error?: ParseError }
  /** Too large to keep over a reload: what it was. */
  | { kind: 'lost'; name: string; origin: Source['origin']; chars: number }
  | { kind: 'none' };

/** A history entry's transcript, as stored: the text, or a note that it was too large. */
type Stored =
  | { name: string; origin: Source['origin']; text: string; error?: ParseError }
  | { name: string; origin: Source['origin']; chars: number; lost: true };

export interface TabMemory {
  /**
   * Keep `source` as the transcript of the history entry `key` (replacing what it had); with
   * `error`, input that failed to parse, kept with its error. Written to session storage on
   * `flush`.
   */
  keep(key: string, source: Source, error?: ParseError): void;
  /** The transcript of the entry `key`: from memory, else from session storage (a reload). */
  recall(key: string): Recalled;
  /** Write what `keep` was given to session storage now (the debounced URL write, leaving). */
  flush(): void;
  /**
   * True unless the entry `key` holds a paste that a reload would lose (too large for session
   * storage, or storage refused it). Flushes first.
   */
  survivesReload(key: string): boolean;
}

/** True for a source that no URL brings back: a paste, an opened file. */
export function needsKeeping(source: Source): boolean {
  return (
    (source.origin === 'paste' || source.origin === 'file') && (source.text !== '' || !!source.file)
  );
}

/** Session storage, or null where it is missing or refused (a sandboxed frame, Node). */
function defaultStorage(): KeptStorage | null {
  try {
    return typeof sessionStorage === 'undefined' ? null : sessionStorage;
  } catch {
    return null;
  }
}

/**
 * Build a tab memory.
 * @param storage where texts survive a reload (default: `sessionStorage`; null: memory only)
 * @param limits the caps (tests lower them)
 */
export function createTabMemory(
  storage: KeptStorage | null = defaultStorage(),
  limits: { maxChars?: number; maxTotalChars?: number; maxMemoryChars?: number } = {},
): TabMemory {
  const maxChars = limits.maxChars ?? MAX_KEPT_CHARS;
  const maxTotal = limits.maxTotalChars ?? MAX_KEPT_TOTAL_CHARS;
  const maxMemory = limits.maxMemoryChars ?? MAX_MEMORY_CHARS;
  /** Sources (and errors) by key, oldest first (a Map keeps insertion order). */
  const memory = new Map<string, Held>();
  const pending = new Map<string, Held>();
  /** Keys whose paste is not in session storage (too large or refused). */
  const unsaved = new Set<string>();

  const trimMemory = () => {
    let total = 0;
    for (const h of memory.values()) total += h.source.text.length;
    for (const [k, h] of memory) {
      if (total <= maxMemory || memory.size <= 1) break;
      memory.delete(k);
      total -= h.source.text.length;
    }
  };

  const flush = () => {
    for (const [key, held] of pending) {
      const saved = storage !== null && save(storage, key, held, maxChars, maxTotal);
      if (saved || held.source.origin !== 'paste') unsaved.delete(key);
      else unsaved.add(key);
    }
    pending.clear();
  };

  return {
    keep(key, source, error) {
      const was = memory.get(key);
      const held: Held = error ? { source, error } : { source };
      memory.delete(key);
      memory.set(key, held);
      trimMemory();
      // The same source again (an entry applied twice, a reload's boot): already on its way.
      if (was?.source !== source || was.error !== error) pending.set(key, held);
    },
    recall(key) {
      const held = memory.get(key);
      if (held) return { kind: 'kept', ...held };
      const stored = storage ? readStored(storage, key) : null;
      if (!stored) return { kind: 'none' };
      if ('lost' in stored)
        return { kind: 'lost', name: stored.name, origin: stored.origin, chars: stored.chars };
      const source: Source = { text: stored.text, name: stored.name, origin: stored.origin };
      const kept: Held = stored.error ? { source, error: stored.error } : { source };
      memory.set(key, kept);
      return { kind: 'kept', ...kept };
    },
    flush,
    survivesReload(key) {
      flush();
      return !unsaved.has(key);
    },
  };
}

/** One kept entry in the index: its key and the characters its text takes (0 for a note). */
type IndexEntry = [key: string, chars: number];

/** The kept entries, oldest first (sizes kept here, so a save never reads the other texts). */
function readIndex(storage: KeptStorage): IndexEntry[] {
  try {
    const v: unknown = JSON.parse(storage.getItem(INDEX) ?? '[]');
    if (!Array.isArray(v)) return [];
    return v.filter(
      (e): e is IndexEntry =>
        Array.isArray(e) && typeof e[0] === 'string' && typeof e[1] === 'number',
    );
  } catch {
    return [];
  }
}

function readStored(storage: KeptStorage, key: string): Stored | null {
  try {
    const v = JSON.parse(storage.getItem(PREFIX + key) ?? 'null') as Stored | null;
    if (!v || typeof v !== 'object' || typeof v.name !== 'string') return null;
    if (v.origin !== 'paste' && v.origin !== 'file') return null;
    if ('lost' in v ? typeof v.chars !== 'number' : typeof v.text !== 'string') return null;
    if (!('lost' in v) && 'error' in v && !isParseError(v.error))
      return { name: v.name, origin: v.origin, text: v.text };
    return v;
  } catch {
    return null;
  }
}

/**
 * Store one entry's source: its text when it fits (dropping the oldest other entries to stay
 * under `maxTotal`, or when storage is full), else a note that it was lost (name and size). A
 * streamed file (no text) is not stored: its link names it (`n=`), and opening that file again
 * restores the view.
 * @returns true when what a reload needs is stored
 */
function save(
  storage: KeptStorage,
  key: string,
  { source, error }: Held,
  maxChars: number,
  maxTotal: number,
): boolean {
  const others = readIndex(storage).filter(([k]) => k !== key);
  const write = (v: Stored) => storage.setItem(PREFIX + key, JSON.stringify(v));
  const writeIndex = (chars: number | null) =>
    storage.setItem(INDEX, JSON.stringify(chars === null ? others : [...others, [key, chars]]));
  const lost = () => {
    write({ name: source.name, origin: source.origin, chars: source.text.length, lost: true });
    writeIndex(0);
    return false;
  };
  try {
    storage.removeItem(PREFIX + key);
    if (source.text === '') {
      writeIndex(null);
      return true;
    }
    if (source.text.length > maxChars) return lost();
    dropOldest(storage, others, maxTotal - source.text.length);
    for (;;) {
      try {
        write({
          name: source.name,
          origin: source.origin,
          text: source.text,
          ...(error && { error }),
        });
        break;
      } catch {
        // Storage is full (other tabs of the page, other keys): make room, oldest first.
        const oldest = others.shift();
        if (oldest === undefined) return lost();
        storage.removeItem(PREFIX + oldest[0]);
      }
    }
    writeIndex(source.text.length);
    return true;
  } catch {
    try {
      return lost();
    } catch {
      return false; // nothing can be written: the page warns before leaving
    }
  }
}

/**
 * Remove the oldest entries (oldest first; the array is shortened) until the texts of the
 * others fit in `room` characters.
 */
function dropOldest(storage: KeptStorage, entries: IndexEntry[], room: number): void {
  let total = 0;
  for (let i = entries.length - 1; i >= 0; i--) {
    total += entries[i]?.[1] ?? 0;
    if (total > room) {
      for (const [k] of entries.splice(0, i + 1)) storage.removeItem(PREFIX + k);
      return;
    }
  }
}

/** The page's tab memory (one per page; `urlSync.ts` uses it). */
export const tabMemory = createTabMemory();
