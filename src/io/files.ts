/**
 * Reading what the user gives the page: dropped or picked files (as bytes, so .gz and binary
 * files are recognised) and the built-in samples in `public/samples/`.
 */
import { decodeBytes } from '../model/parse/bytes.ts';
import type { FormatId, Result } from '../model/types.ts';

/**
 * Read a file as bytes and decode it (gzip inflated, UTF-8 checked) with `decodeBytes`.
 * @param name the file's name as picked: a `.gz` that is not gzip data is said so (`notGzip`)
 * @returns the text, or a ParseError of kind `binary` saying why the file is not text. Never rejects.
 */
export async function readFileText(file: Blob, name = ''): Promise<Result<string>> {
  try {
    const bytes = new Uint8Array(await file.arrayBuffer());
    return decodeBytes(bytes, undefined, name);
  } catch (e) {
    return {
      ok: false,
      error: {
        kind: 'binary',
        message: `The file could not be read: ${e instanceof Error ? e.message : String(e)}`,
      },
    };
  }
}

/** One entry of `public/samples/index.json`. */
export interface SampleEntry {
  id: string;
  file: string;
  title: string;
  /** The format detected; for a file of several requests, that of the request opened first. */
  format: FormatId;
  /** For a file of several requests (an archive such as a checked-fetch record): how many. */
  requests?: number;
  broken: boolean;
  note: string;
}

/** URL of a file in `public/samples/`, relative to the page (the build uses `base: './'`). */
export function sampleUrl(file: string): string {
  return `samples/${encodeURIComponent(file)}`;
}

function isEntry(v: unknown): v is SampleEntry {
  if (typeof v !== 'object' || v === null) return false;
  const o = v as Record<string, unknown>;
  return typeof o.id === 'string' && typeof o.file === 'string' && typeof o.title === 'string';
}

/**
 * Fetch the sample index from the page's own origin.
 * @returns the entries (malformed ones skipped), or [] when the index cannot be read
 */
export async function loadSampleIndex(): Promise<SampleEntry[]> {
  try {
    const res = await fetch(sampleUrl('index.json'));
    if (!res.ok) return [];
    const data: unknown = await res.json();
    return Array.isArray(data)
      ? data.filter(isEntry).map((e) => ({
          ...e,
          broken: e.broken === true,
          note: typeof e.note === 'string' ? e.note : '',
        }))
      : [];
  } catch {
    return [];
  }
}

/**
 * Fetch one sample's text (same origin). Files ending in `.gz` are inflated.
 * @returns the text, or an error a person can read
 */
export async function loadSampleText(entry: SampleEntry): Promise<Result<string>> {
  try {
    const res = await fetch(sampleUrl(entry.file));
    if (!res.ok)
      return {
        ok: false,
        error: {
          kind: 'empty',
          message: `Sample ${entry.file} could not be loaded (HTTP ${res.status}).`,
        },
      };
    return decodeBytes(new Uint8Array(await res.arrayBuffer()));
  } catch (e) {
    return {
      ok: false,
      error: {
        kind: 'empty',
        message: `Sample ${entry.file} could not be loaded: ${e instanceof Error ? e.message : String(e)}`,
      },
    };
  }
}
