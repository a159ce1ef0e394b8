/**
 * Blank text: empty, or whitespace only. Anthropic (A11) and Bedrock Converse (B12) refuse such
 * text blocks; this runs for every text block of every check, so it answers from the first
 * character when it can.
 */

/** True when a text starts with a character that is not whitespace (`/^\S/`), ASCII fast path. */
export function startsVisible(text: string): boolean {
  const c = text.charCodeAt(0);
  if (c > 32 && c < 127) return true;
  return /^\S/.test(text);
}

/** True when a text is empty or holds only whitespace (`!/\S/`). */
export function isBlank(text: string): boolean {
  return !startsVisible(text) && !/\S/.test(text);
}
