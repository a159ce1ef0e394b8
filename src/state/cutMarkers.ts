/**
 * The cut markers on the timeline (a dot between two rows: the cut there is safe or a 400), once
 * per cut context: the worker's classification when it sent one, every cut at once on the fast
 * path or a short transcript, else on demand for the rows on screen.
 */
import { cutErrorAt, cutMarkers, type CutError } from '../model/evict/cuts.ts';
import { isCutValid, type CutContext } from '../model/evict/simulate.ts';
import { activeSession, memoN } from './session/index.ts';

/**
 * Largest transcript (messages) for which the page classifies every cut, or sweeps every policy,
 * when the provider has no fast cut path (simulate.ts `FAST_PROVIDERS`): there each cut is a
 * validation of the kept tail, O(n), so all cuts are O(n²) — measured 1.5 s (markers) and 4.3 s
 * (sweep) for 2,000 Gemini messages on the dev machine. Above it, markers are classified on
 * demand (only the rows on screen) and the sweep is left to the CLI.
 */
export const SLOW_PATH_LIMIT = 300;

/** Cut markers as the timeline reads them: one cut at a time. */
export interface MarkerLookup {
  /** True when dropping every non-pinned message before `k` gives a valid request (k in 0..n). */
  isSafe: (k: number) => boolean;
  /** The first error of the cut at `k` (exact provider paths), or null when safe. */
  errorAt: (k: number) => CutError | null;
  /** True when every cut was classified up front; false = on demand (slow provider, long transcript). */
  eager: boolean;
}

/**
 * Hand the page the cut markers the worker classified for a cut context it adopted (client.ts,
 * with `adoptEvictionParts`), so `selectCutMarkers` does not classify every cut on the page.
 * @param cuts the adopted parts' `cuts` (for the page's transcript)
 * @param safe `cutMarkers(cuts).safe` as the worker computed it: length n + 1, 1 = safe cut
 */
export function adoptCutMarkers(cuts: CutContext, safe: Uint8Array): void {
  if (safe.length === cuts.n + 1) activeSession().answers.cutMarkers.set(cuts, safe);
}

/**
 * Cut markers of a context: every cut classified at once (`cutMarkers`, or the worker's
 * classification when it sent one: `adoptCutMarkers`) on the fast path or a short transcript,
 * else classified on demand and cached. Error bodies are always built lazily, for the marker
 * shown.
 */
export const selectCutMarkers = memoN((cuts: CutContext): MarkerLookup => {
  // The worker's classification (the session's), when it sent one.
  const safe = activeSession().answers.cutMarkers.get(cuts);
  if (safe)
    return {
      isSafe: (k) => safe[k] === 1,
      errorAt: (k) => (k < 0 || k > cuts.n || safe[k] === 1 ? null : cutErrorAt(cuts, k)),
      eager: true,
    };
  if (cuts.fast || cuts.n <= SLOW_PATH_LIMIT) {
    const m = cutMarkers(cuts);
    return { isSafe: (k) => m.safe[k] === 1, errorAt: m.errorAt, eager: true };
  }
  const known = new Int8Array(cuts.n + 1).fill(-1);
  const isSafe = (k: number): boolean => {
    if (k < 0 || k > cuts.n) return true;
    if (known[k] === -1) known[k] = isCutValid(cuts, k) ? 1 : 0;
    return known[k] === 1;
  };
  return {
    isSafe,
    errorAt: (k) => (isSafe(k) ? null : cutErrorAt(cuts, k)),
    eager: false,
  };
});
