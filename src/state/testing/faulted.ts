/**
 * Test support: what the page shows for an analysis with faults applied, the way the page gets
 * it — the engine's fault stage (engine/inspect.ts `InspectStages.safeInspect`, what the inspect worker runs
 * for a request with faults) answers, and the state reads the answer (`selectFaulted`).
 */
import type { Analysis } from '../../model/analyze.ts';
import type { FaultSpec } from '../../model/faults.ts';
import type { ParsedTranscript } from '../../model/parse/index.ts';
import type { Transcript } from '../../model/types.ts';
import { InspectStages } from '../../engine/inspect.ts';
import { selectFaulted, type FaultedView } from '../faults.ts';

/** The engine's stages, as one worker holds them. */
const stages = new InspectStages();
/** One parse per transcript, so the engine's stages memoise as they do for one loaded text. */
const parses = new WeakMap<Transcript, ParsedTranscript>();

/**
 * The fault view of `loaded` with `faults` applied (none: the loaded analysis itself), as the
 * engine answers a request with these faults for `loaded.provider`.
 * @throws when the engine answers with an error
 */
export function faultedViewOf(loaded: Analysis, faults: readonly FaultSpec[]): FaultedView {
  if (faults.length === 0) return selectFaulted(loaded, null);
  let parsed = parses.get(loaded.transcript);
  if (!parsed) {
    parsed = { transcript: loaded.transcript, candidates: [], ambiguous: false };
    parses.set(loaded.transcript, parsed);
  }
  const r = stages.safeInspect(parsed, loaded.provider, faults);
  if (!r.ok) throw new Error(r.error.message);
  return selectFaulted(r.analysis, r.faults ?? null);
}
