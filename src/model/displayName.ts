/**
 * Names and texts shown from links, files and transcripts: bidirectional control characters
 * (U+202A–U+202E embeddings and overrides, U+2066–U+2069 isolates, U+200E/U+200F and U+061C
 * marks) would reorder what the page shows — `invoice‮nosj.exe` reads as `invoiceexe.json`
 * (Trojan Source, CVE-2021-42574) — so each is shown as its code point instead.
 */
const BIDI = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g;

const hex4 = (c: string) => (c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0');

/**
 * @param text a name from a file or a link, or a transcript's text
 * @returns the text with every bidi control character written as `[U+202E]`
 * @example visibleBidi('a\u202Egpj.exe') // 'a[U+202E]gpj.exe'
 */
export function visibleBidi(text: string): string {
  return text.replace(BIDI, (c) => `[U+${hex4(c)}]`);
}

/** A name from a file or a link as the page shows it (`visibleBidi`). */
export const displayName = visibleBidi;

/**
 * JSON text with every bidi control character as a JSON escape (`\u202E`): the same value,
 * shown as it is (raw JSON and error bodies).
 */
export function jsonBidiEscaped(json: string): string {
  return json.replace(BIDI, (c) => `\\u${hex4(c)}`);
}
