/**
 * Names shown from links and files (a file name, a link's `n=`): bidirectional control
 * characters (U+202A–U+202E embeddings and overrides, U+2066–U+2069 isolates, U+200E/U+200F and
 * U+061C marks) would reorder what the page shows — `invoice‮nosj.exe` reads as
 * `invoiceexe.json` — so each is shown as its code point instead.
 */
const BIDI = /[\u202A-\u202E\u2066-\u2069\u200E\u200F\u061C]/g;

/**
 * @param name a name from a file or a link
 * @returns the name with every bidi control character written as `[U+202E]`
 * @example displayName('a\u202Egpj.exe') // 'a[U+202E]gpj.exe'
 */
export function displayName(name: string): string {
  return name.replace(
    BIDI,
    (c) => `[U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}]`,
  );
}
