/**
 * The context windows the simulator offers for the chosen endpoint, for the "compact at N % of
 * the window" reading. The table is the model's (`Endpoint.windows`,
 * `model/validate/endpoints/windows.ts`: each window with its provider's page); the user can
 * always type another value. They only label the budget: no rule or verdict depends on them.
 */
import { ENDPOINTS, resolveEndpoint } from '../../model/validate/index.ts';
import type { ContextWindow } from '../../model/validate/endpoints/windows.ts';
import { windowForModel } from '../../model/validate/endpoints/windows.ts';
import { fmtInt } from '../format.ts';

export type { ContextWindow };

/** Id of the "type a value" choice. */
export const CUSTOM_WINDOW = 'custom';

/**
 * The windows the picker offers for a provider: its endpoint's, and no other's.
 * @param provider an endpoint id or alias; a name the registry does not know offers none (the
 *   user types a value)
 */
export function windowsFor(provider: string): readonly ContextWindow[] {
  const id = resolveEndpoint(provider);
  return id === undefined ? [] : ENDPOINTS[id].windows;
}

/**
 * The window row to preselect for a transcript: among the provider's windows, the one its model
 * name matches, else the provider's first.
 * @param model `settings.model`, if the transcript names one
 * @param provider the provider id the transcript is validated for
 * @returns the window, or undefined for a provider with none (an unknown name)
 */
export function defaultWindowFor(
  model: string | undefined,
  provider: string,
): ContextWindow | undefined {
  return windowForModel(windowsFor(provider), model);
}

/**
 * The budget as a share of the window, in percent (what a "compact at N %" trigger would be).
 * @returns a percentage, or null when the window is not a positive number
 */
export function triggerPercent(budget: number, windowTokens: number): number | null {
  if (!(windowTokens > 0) || !Number.isFinite(windowTokens)) return null;
  return (budget / windowTokens) * 100;
}

/** A percentage with the precision it deserves: 42 %, 4.2 %, 0.14 %, 13,887 % (shared `fmtInt`). */
export function fmtPercent(p: number): string {
  if (p === 0) return '0 %';
  if (p >= 10) return `${fmtInt(p)} %`;
  if (p >= 1) return `${p.toFixed(1)} %`;
  // Below a hundredth of a percent two significant digits read as a run of zeros (0.00013 %).
  if (p < 0.01) return '< 0.01 %';
  return `${p.toPrecision(2)} %`;
}

/**
 * The rate calculator of issue 4: one session in N breaks when `compactShare` of sessions compact
 * and `breakShare` of their compactions give a 400.
 * @param compactShare share of sessions that reach the trigger (0..1)
 * @param breakShare share of compactions (budgets) that give a 400 (0..1)
 * @returns N (sessions per broken session), or null when none break
 */
export function oneIn(compactShare: number, breakShare: number): number | null {
  const p = compactShare * breakShare;
  if (!(p > 0) || !Number.isFinite(p)) return null;
  return 1 / p;
}

/**
 * The budget read against a context window, as the simulator's budget row says it: "compact at
 * 42 % of a 200,000-token window" up to the window; past it a percentage says little (13,887 %),
 * so the budget is given as a multiple of the window, the percentage in brackets.
 * @param budget the budget, tokens
 * @param windowTokens the window, tokens
 * @returns the phrase; "compact at — …" when the window is not a positive number
 */
export function windowReadingText(budget: number, windowTokens: number): string {
  const pct = triggerPercent(budget, windowTokens);
  const win = `${fmtInt(windowTokens)}-token window`;
  if (pct === null) return `compact at — of a ${win}`;
  if (pct <= 100) return `compact at ${fmtPercent(pct)} of a ${win}`;
  const times = budget / windowTokens;
  const x = times >= 10 ? fmtInt(times) : times.toFixed(1);
  return `budget ${x}× a ${win} (${fmtPercent(pct)}): no trigger of this window reaches it`;
}

/**
 * The sentence under the sweep table about exchange eviction's mean overshoot (freed ÷ deficit,
 * at least 1), phrased by its value as shown (two decimals): at 1.00× it frees what it must;
 * above, how much more history it discards (a percentage below 2×, a multiple from 2×).
 * @param meanOvershoot `PolicySweep.meanOvershoot` of the exchange policy (a ratio)
 */
export function overshootSentence(meanOvershoot: number): string {
  const shown = meanOvershoot.toFixed(2);
  const r = Number(shown);
  const head = `Exchange eviction frees on average ${shown}× the deficit on this transcript`;
  if (r <= 1)
    return `${head}: its whole exchanges came close to the deficits here, so it discards about as much history as it must, and never breaks a pair.`;
  const more =
    r < 2
      ? `${fmtPercent((r - 1) * 100)} more history than it must`
      : `${shown}× the history it must`;
  return `${head}: whole exchanges are the unit, so it discards ${more}, and never breaks a pair.`;
}
