/**
 * One signal per pair for the header count, the arcs and the row chips, derived from the
 * chosen provider's verdict (issue 16: a SWE-agent trajectory whose demo replay reuses ids showed
 * "8 broken" and red arcs while the verdict said valid).
 *
 * - error (red): the pair is broken (`selectBrokenPairs`: pairing's status, or an error violation
 *   names it) and the verdict holds it against the request: an error violation names its
 *   tool_use id, or sits at its call's or its result's message, or carries no ids at all (a
 *   rule about the request's pairs as a whole, or a provider that pairs by name).
 * - warning (amber): pairing finds the pair odd (duplicate id, answered late, a second result …)
 *   but no error of the verdict is about it: the provider accepts it, or refuses the request for
 *   another reason.
 * - fine: everything else.
 *
 * So red never shows on a request the verdict calls valid, and every red pair is one an error
 * of the verdict is about. O(pairs + violations) once per analysis (memoised).
 */
import type { Analysis } from '../../model/analyze.ts';
import type { PairStatus, ToolPair } from '../../model/pairing.ts';
import { isArcPair } from '../../model/pairTables.ts';
import { selectBrokenPairs, type BrokenPairs } from '../../state/selectors.ts';
import { memoWeak } from '../../state/session/index.ts';
import { STATUS_TEXT } from './verdictLabel.ts';

export const PAIR_FINE = 0;
export const PAIR_WARNING = 1;
export const PAIR_ERROR = 2;
export type PairLevel = typeof PAIR_FINE | typeof PAIR_WARNING | typeof PAIR_ERROR;

export interface PairSignals {
  /** Per pair position (`analysis.pairs`): PAIR_FINE, PAIR_WARNING or PAIR_ERROR. */
  level: Uint8Array;
  /** Arc pairs (`isArcPair`) at PAIR_ERROR: the header's "broken" count. */
  errorArcs: number;
  /** Arc pairs at PAIR_WARNING: the header's "warnings" count. */
  warningArcs: number;
  /** The broken pairs the levels come from (for the provider's rule in a label). */
  broken: BrokenPairs;
  /** Level of the pair with this key (`p3`); PAIR_FINE for an unknown key. O(1). */
  levelOf(key: string): PairLevel;
}

/**
 * The signals of an analysis (see the module comment). Memoised per analysis.
 * @param a the analysis shown (its validation is the chosen provider's verdict)
 */
export const selectPairSignals = memoWeak((a: Analysis): PairSignals => {
  const broken = selectBrokenPairs(a);
  const errorAt = new Set<number>();
  // An error without ids (Mistral's role order or last message, which it checks instead of
  // pairs; a provider that pairs by name) is about the request as a whole: every broken pair is
  // part of its cause.
  let idless = false;
  for (const v of a.validation.violations)
    if (v.severity === 'error') {
      errorAt.add(v.index);
      if (v.ids.length === 0) idless = true;
    }
  const n = a.pairs.length;
  const level = new Uint8Array(n);
  let errorArcs = 0;
  let warningArcs = 0;
  for (let i = 0; i < n; i++) {
    if (broken.broken[i] !== 1) continue;
    const p = a.pairs[i] as ToolPair;
    const named =
      idless ||
      (broken.violationOf[i] as number) >= 0 ||
      (p.call !== null && errorAt.has(p.call.message)) ||
      (p.result !== null && errorAt.has(p.result.message));
    level[i] = named ? PAIR_ERROR : PAIR_WARNING;
    if (isArcPair(p)) {
      if (named) errorArcs++;
      else warningArcs++;
    }
  }
  const out: PairSignals = {
    level,
    errorArcs,
    warningArcs,
    broken,
    levelOf: (key) => {
      const i = broken.positionOf(key);
      return i < 0 ? PAIR_FINE : ((level[i] ?? PAIR_FINE) as PairLevel);
    },
  };
  return out;
});

/**
 * The signals of a preview (a large file's first rows, drawn while the rest is read): every pair
 * fine, none counted broken — a tool_use near the preview's end may be answered further on, and
 * the verdict the levels come from waits for the whole file. Memoised per analysis.
 */
export const pendingSignals = memoWeak((a: Analysis): PairSignals => {
  const out: PairSignals = {
    level: new Uint8Array(a.pairs.length),
    errorArcs: 0,
    warningArcs: 0,
    broken: selectBrokenPairs(a),
    levelOf: () => PAIR_FINE,
  };
  return out;
});

/**
 * Why a pair is a warning and not an error, for its chip and arc: "duplicate tool_use id — no
 * Anthropic Messages error names it (accepted)".
 * @param valid whether the verdict accepts the request
 */
export function pairWarningText(status: PairStatus, providerLabel: string, valid: boolean): string {
  return `${STATUS_TEXT[status]} — a warning: no ${providerLabel} error names this pair${valid ? ', the request is accepted' : ''}`;
}
