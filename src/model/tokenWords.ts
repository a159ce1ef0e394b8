/**
 * What each token figure of one request counts, in words (newcomer: one call showed 70,099 in the
 * header, 52,024 in the diff and 58,474 in the fleet scan, all called "tokens"). They count
 * differently on purpose:
 * - the header and the simulator (`TokenCounting` with `preferUsage`): the text with the loaded
 *   tokenizer, and each reply the log records usage for by that usage (its basis label says how
 *   many);
 * - the diff and `check --requests` (`countTokens`): the request's text only;
 * - the fleet scan (`scanText`): as the simulator, with chars/4 unless the scan counts exactly.
 * The diff and the scan share no counter (the scan must stay cheap for a fleet), so their
 * figures are told apart by these words rather than made equal.
 */

/** The unit of a diff's figures: the request's text tokens (`countTokens`). */
export const TEXT_TOKENS = 'text tokens';

/** True for a chars/4 basis (`TextCounter.encoding` or a basis label that names it). */
export function isCharsPer4(basis: string): boolean {
  return /chars\/4/.test(basis);
}

/**
 * The note under a diff: what its token figures count.
 * @param basis the diff's `tokenBasis` (the right side's basis label)
 */
export function diffTokensWords(basis: string): string {
  const what =
    "a reply is counted by its text, not by the usage the log records for it (the header's count takes that usage, so it can differ)";
  return isCharsPer4(basis)
    ? `Text tokens estimated (chars/4) until the exact tokenizer is loaded; ${what}.`
    : `Text tokens: ${basis}, as the command line counts them; ${what}.`;
}

/**
 * What a fleet scan's `tokens` figure counts, for its column.
 * @param basis the rows' `token_basis` (`chars/4` by default, `o200k_base` with `--tokens exact`)
 */
export function scanTokensWords(basis: string): string {
  const text = isCharsPer4(basis) ? 'estimated by chars/4' : `counted with ${basis}`;
  return `The request's tokens as the eviction simulator counts them: its text ${text}, and each reply the log records usage for by that usage. The inspector's header counts the same way with its exact tokenizer; its diff counts the text only.`;
}
