/**
 * Cut markers: for every cut point k (drop all non-pinned messages before k, pinned system and
 * developer messages stay), whether the request is still accepted and, if not, the provider's
 * first error. Issue 4: green markers where a cut is safe, red with the exact 400 where not.
 */
import type { Violation } from '../validate/index.ts';
import { checkCut, isCutValid, type CutContext } from './simulate.ts';

/** The error a cut produces, as the page shows it on hover. */
export interface CutError {
  rule: Violation['rule'];
  /** The rule code in the rule catalogue (`A1`, `O1`, …; docs/rules.md). */
  code: string;
  /**
   * Raw index (`Message.rawIndex`) of the message holding the cause, for display only: it repeats
   * for retry copies and split messages. Name the row with `messageLabels(ms).of(index)`.
   */
  messageIndex: number;
  /**
   * Our index (`Message.index`, the position in the transcript's `messages`) of the message
   * holding the cause (`Violation.index`); −1 when no message holds it. Find the row by this.
   */
  index: number;
  /**
   * Our index of the message the provider's path names, when not the cause's
   * (`Violation.pathIndex`: O2, B2 name the message after the call); absent otherwise.
   */
  pathIndex?: number;
  providerPath: string | null;
  /** The provider's message text, verbatim. */
  message: string;
  /** The provider's JSON error body. */
  error: unknown;
}

export interface CutMarkers {
  /** safe[k] = 1 when the cut at k (0..n) gives a valid request, else 0. Length n + 1. */
  safe: Uint8Array;
  /** Number of unsafe cuts among 1..n−1 (the markers between two adjacent messages). */
  unsafeCount: number;
  /** The first error of the cut at k (exact provider paths), or null when safe. Computed on demand. */
  errorAt: (k: number) => CutError | null;
}

/**
 * Classify every cut point.
 * @param ctx from `prepareCuts` (or `prepareEviction(...).cuts`)
 * @returns a Uint8Array over k = 0..n (0 keeps everything; n keeps only pinned messages) and a
 *   lazy error lookup. O(n × boundary window); the error objects are built only when asked for.
 */
export function cutMarkers(ctx: CutContext): CutMarkers {
  const n = ctx.n;
  const safe = new Uint8Array(n + 1);
  let last = -1;
  let lastValid = false;
  let unsafeCount = 0;
  for (let k = 0; k <= n; k++) {
    const norm = k >= n ? n : (ctx.nextNonPinned[k] as number);
    if (norm !== last) {
      lastValid = isCutValid(ctx, norm);
      last = norm;
    }
    safe[k] = lastValid ? 1 : 0;
    if (!lastValid && k > 0 && k < n) unsafeCount++;
  }
  const errorAt = (k: number): CutError | null =>
    k < 0 || k > n || safe[k] === 1 ? null : cutErrorAt(ctx, k);
  return { safe, unsafeCount, errorAt };
}

/**
 * The first error of the request a cut leaves, as a marker shows it.
 * @param ctx the cut context; @param k the cut (0 … n: messages before k evicted)
 * @returns the provider's first error there, or null when that request is valid
 */
export function cutErrorAt(ctx: CutContext, k: number): CutError | null {
  const v = checkCut(ctx, k).firstError;
  return v
    ? {
        rule: v.rule,
        code: v.code,
        messageIndex: v.messageIndex,
        index: v.index,
        ...(v.pathIndex !== undefined ? { pathIndex: v.pathIndex } : {}),
        providerPath: v.providerPath,
        message: v.message,
        error: v.error,
      }
    : null;
}
