/**
 * Token tables on the page: the worker's when it counted them for the transcript it sent
 * (`primeTokens`), else counted here once per transcript, provider and counter.
 */
import type { Analysis } from '../model/analyze.ts';
import {
  CHARS_PER_4,
  countTokens,
  sumTokens,
  type TextCounter,
  type TokenTable,
} from '../model/tokens.ts';
import type { ProviderId, Transcript } from '../model/types.ts';
import { activeSession, memoN } from './session/index.ts';

/** Token table for a transcript, provider and counter (recomputed when the BPE loads). */
const countTokensMemo = memoN(
  (t: Transcript, provider: ProviderId, counter: TextCounter): TokenTable =>
    countTokens(t, provider, counter),
);

/**
 * Record a token table the worker computed for a transcript it sent (by `primeTokens`); from
 * then on `selectTokens` answers from the worker's tables for that transcript, so a large
 * transcript is never counted on the page.
 */
export function primeTokens(t: Transcript, provider: ProviderId, table: TokenTable): void {
  activeSession().primeTokens(t, provider, table);
}

/**
 * Whether the page counts `t`'s tokens itself (no token table of the worker's came with it: the
 * engine ran on the page's thread), and so needs the exact counter loaded on the page to show an
 * exact count (issue 38: a transcript the worker counts never loads the o200k tables on the page).
 */
export function countsOnPage(t: Transcript): boolean {
  return !activeSession().answers.tokens.has(t);
}

/**
 * Token table for a transcript, provider and counter. The worker's when it sent one: its exact
 * table (of `counter`'s encoding when there are several) as soon as it came, whatever the page's
 * own counter is (the page loads its exact counter only where it counts itself, `countsOnPage`,
 * or fits placeholders), else its chars/4 table. Without a worker table: counted here with
 * `counter`, once per transcript, provider and counter. The table's `basis` says which it is.
 */
export function selectTokens(
  t: Transcript,
  provider: ProviderId,
  counter: TextCounter,
): TokenTable {
  // Token tables the worker counted, per transcript it sent (issue 7: never counted on the page).
  const m = activeSession().answers.tokens.get(t);
  if (m) {
    const same = m.get(`${provider}|${counter.encoding}`);
    if (same && same.basis.encoding !== CHARS_PER_4.encoding) return same;
    let best: TokenTable | undefined;
    for (const [k, v] of m)
      if (k.startsWith(`${provider}|`) && (!best || best.basis.encoding === CHARS_PER_4.encoding))
        best = v;
    if (best) return best;
  }
  return countTokensMemo(t, provider, counter);
}

/** Tokens per exchange, in tokens (same order as `grouping.exchanges`). */
export const selectExchangeTokens = memoN((a: Analysis, table: TokenTable): number[] =>
  a.grouping.exchanges.map((x) => sumTokens(table, x.messages)),
);
