/**
 * Token tables on the page: the worker's when it counted them for the transcript it sent
 * (`primeTokens`), else counted here once per transcript, provider and counter.
 */
import type { Analysis } from '../model/analyze.ts';
import { countTokens, sumTokens, type TextCounter, type TokenTable } from '../model/tokens.ts';
import type { ProviderId, Transcript } from '../model/types.ts';
import { activeSession, memoN } from './session/index.ts';

/** Token table for a transcript, provider and counter (recomputed when the BPE loads). */
const countTokensMemo = memoN(
  (t: Transcript, provider: ProviderId, counter: TextCounter): TokenTable =>
    countTokens(t, provider, counter),
);

/**
 * Record a token table the worker computed for a transcript it sent (by `primeTokens`); from
 * then on `selectTokens` answers from the worker's tables for that transcript: the table of
 * the counter's encoding when there is one, else the best one so far (the exact BPE count
 * arrives after the chars/4 one), so a large transcript is never counted on the page.
 */
export function primeTokens(t: Transcript, provider: ProviderId, table: TokenTable): void {
  activeSession().primeTokens(t, provider, table);
}

/** Token table for a transcript, provider and counter: the worker's when it sent one. */
export function selectTokens(
  t: Transcript,
  provider: ProviderId,
  counter: TextCounter,
): TokenTable {
  // Token tables the worker counted, per transcript it sent (issue 7: never counted on the page).
  const m = activeSession().answers.tokens.get(t);
  if (m) {
    const exact = m.get(`${provider}|${counter.encoding}`);
    if (exact) return exact;
    let best: TokenTable | undefined;
    for (const [k, v] of m)
      if (k.startsWith(`${provider}|`) && (!best || best.basis.encoding === 'chars/4')) best = v;
    if (best) return best;
  }
  return countTokensMemo(t, provider, counter);
}

/** Tokens per exchange, in tokens (same order as `grouping.exchanges`). */
export const selectExchangeTokens = memoN((a: Analysis, table: TokenTable): number[] =>
  a.grouping.exchanges.map((x) => sumTokens(table, x.messages)),
);
