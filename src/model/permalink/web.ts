/**
 * The web-standard APIs the permalink codec uses. Browsers, workers and Node ≥ 20 all have them,
 * but the model's tsconfig has neither DOM nor Node types (a stray `window` or `fs` must fail the
 * build), so each is declared here with the part of its interface the codec uses, and read from
 * the global scope at run time (as `parse/bytes.ts` does for `TextDecoder`).
 */

export interface SearchParams {
  get(key: string): string | null;
  set(key: string, value: string): void;
  toString(): string;
}

declare const URLSearchParams: new (init?: string) => SearchParams;
declare const TextDecoder: new (
  label: string,
  options: { fatal: boolean },
) => { decode: (input: Uint8Array) => string };
declare const btoa: (latin1: string) => string;
declare const atob: (base64: string) => string;

/** `new URLSearchParams(init)`: `application/x-www-form-urlencoded` pairs (`+` is a space). */
export function searchParams(init?: string): SearchParams {
  return new URLSearchParams(init);
}

/**
 * Strict UTF-8 decoding.
 * @returns the text, or null when the bytes are not valid UTF-8 (never throws)
 */
export function decodeUtf8(bytes: Uint8Array): string | null {
  try {
    return new TextDecoder('utf-8', { fatal: true }).decode(bytes);
  } catch {
    return null;
  }
}

/** `btoa`: a latin1 string (each char < 256) → base64. */
export function latin1ToBase64(latin1: string): string {
  return btoa(latin1);
}

/** `atob`: base64 → a latin1 string; throws on text that is not base64 (as `atob` does). */
export function base64ToLatin1(base64: string): string {
  return atob(base64);
}
