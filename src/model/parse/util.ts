import type { ParseError } from '../types.ts';

/** Small, total helpers for reading untrusted JSON. None of them throws. */

/** A JSON object as parsed: keys to unknown values. */
export type Json = Record<string, unknown>;

/** True for a plain JSON object (not null, not an array). */
export function isObject(v: unknown): v is Json {
  return typeof v === 'object' && v !== null && !Array.isArray(v);
}

/** The value if it is a string, else undefined. */
export function str(v: unknown): string | undefined {
  return typeof v === 'string' ? v : undefined;
}

/** The value if it is an array, else undefined. */
export function arr(v: unknown): unknown[] | undefined {
  return Array.isArray(v) ? v : undefined;
}

/** Bytes of a base64 payload (3 bytes per 4 chars), for media that must not be tokenised. */
export function base64Bytes(data: unknown): number | undefined {
  return typeof data === 'string' ? Math.floor((data.length * 3) / 4) : undefined;
}

/** Parse a JSON-encoded string argument (OpenAI `arguments`); keep the string if it is not JSON. */
export function parseArguments(v: unknown): unknown {
  if (typeof v !== 'string') return v;
  try {
    return JSON.parse(v);
  } catch {
    return v;
  }
}

/**
 * Replace `listKey` in the top-level source object with a new list, keeping every other field
 * (model, tools, system, …). A bare-array source stays a bare array.
 */
export function withList(raw: unknown, listKey: string, list: unknown[]): unknown {
  if (raw !== null && typeof raw === 'object' && !Array.isArray(raw))
    return { ...(raw as Record<string, unknown>), [listKey]: list };
  return list;
}

/** A parse failure for JSON of the wrong shape, with what was expected. */
export function shapeError(message: string): { ok: false; error: ParseError } {
  return { ok: false, error: { kind: 'shape', message } };
}
