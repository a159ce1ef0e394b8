/**
 * One reading of a policy's result for every place that shows it — the simulator's summary line
 * and the policy card (issue 16: the summary said "exchange valid" in green while its card said
 * "cannot drop more"). A request the provider accepts but that is still over the budget is not
 * a success: it reads as a warning, with why.
 */
import type { PolicyResult } from '../../model/evict/policies.ts';
import { fmtInt } from '../format.ts';

export interface PolicyVerdict {
  /** `ok` valid and within the budget; `over` valid but over it; `error` the provider's 400. */
  kind: 'ok' | 'over' | 'error';
  /** A few words for the summary line: `valid`, `valid, over budget`, `400`. */
  short: string;
  /** The card's sentence. */
  long: string;
}

/**
 * The verdict of one policy result.
 * @param r the policy's result (`fits`, `tokensKept`, `budget`, its validation)
 * @param approx true when token counts are estimates (`≈`)
 */
export function policyVerdict(
  r: Pick<PolicyResult, 'fits' | 'tokensKept' | 'budget'> & { validation: { valid: boolean } },
  approx = false,
): PolicyVerdict {
  if (!r.validation.valid) return { kind: 'error', short: '400', long: 'HTTP 400' };
  if (r.fits) return { kind: 'ok', short: 'valid', long: 'valid' };
  const t = approx ? '≈' : '';
  return {
    kind: 'over',
    short: 'valid, over budget',
    long: `valid, but over budget: it cannot drop more and keeps ${t}${fmtInt(r.tokensKept)} tokens of a ${fmtInt(r.budget)}-token budget`,
  };
}

/** The CSS class of a verdict kind (`ok`, `warn`, `bad`). */
export function verdictClass(kind: PolicyVerdict['kind']): 'ok' | 'warn' | 'bad' {
  return kind === 'ok' ? 'ok' : kind === 'over' ? 'warn' : 'bad';
}
