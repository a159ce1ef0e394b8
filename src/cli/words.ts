/**
 * The CLI's counted words: "1 message", "3 messages" — one helper for every command's summary
 * lines (a newcomer saw "kept 1 messages").
 */

/** `n` and `word`, plural unless n is 1 (`word` + "s"). */
export function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}
