/**
 * The analysis of a transcript with faults applied (issue 8), as the page shows it and the CLI
 * prints it: `applyFaults` in order, the result re-indexed for display (`reindexForView`), then
 * analysed for the loaded analysis' provider. One function, so the inspect worker (the page's
 * engine, engine/inspect.ts) and the CLI (`fx=` of a link) give one verdict for one link.
 */
import { analyze, type Analysis } from './analyze.ts';
import { applyFaults, reindexForView, type FaultSpec } from './faults.ts';
import type { Transcript } from './types.ts';

/** What applying a list of faults did, beside the analysis of the result. */
export interface AppliedFaults {
  /**
   * The faulted transcript before display re-indexing (the input of repair: a message the
   * faults did not touch is the loaded message itself, its `index` naming its source place).
   */
  transcript: Transcript;
  /** One description per applied fault (messages named by their row labels). */
  descriptions: string[];
  /** Why a fault in the list did not fit (the ones after it are not applied), or null. */
  error: string | null;
  /** The faults asked for, in order (the applied ones and, after an error, the rest). */
  asked: readonly FaultSpec[];
}

/**
 * Apply `faults` to a transcript, in order, and make the display copy the page shows.
 * @returns `shown`: the faulted transcript re-indexed for display (`Message.index` is the row
 *   position; the faulted transcript itself when it already is), and `applied`
 */
export function faultTranscript(
  t: Transcript,
  faults: readonly FaultSpec[],
): { shown: Transcript; applied: AppliedFaults } {
  const r = applyFaults(t, faults);
  return {
    shown: reindexForView(r.transcript),
    applied: {
      transcript: r.transcript,
      descriptions: r.descriptions,
      error: r.error,
      asked: faults,
    },
  };
}

/**
 * Apply `faults` to `loaded`'s transcript and analyse the result for `loaded.provider`.
 * @param loaded the analysis of the transcript as loaded
 * @param faults applied in order, each to the result of the previous one (an empty list gives
 *   an analysis equal to `loaded`)
 * @returns `analysis`: of the faulted transcript re-indexed for display (`analysis.transcript`
 *   is `faultTranscript`'s `shown`), and `applied`. A fault that does not fit is
 *   `applied.error`, never a throw.
 */
export function analyzeFaults(
  loaded: Analysis,
  faults: readonly FaultSpec[],
): { analysis: Analysis; applied: AppliedFaults } {
  const { shown, applied } = faultTranscript(loaded.transcript, faults);
  return { analysis: analyze(shown, loaded.provider), applied };
}
