/**
 * Lost-meaning marks (issue 8) for the simulator's primary policy at the current budget: kept
 * calls that repeat a call whose result was evicted, and evicted user messages that later
 * messages still refer to (model/lostMeaning.ts). Shown under the policy cards.
 */
import type { LostMeaning } from '../../model/lostMeaning.ts';
import { findLostMeaning } from '../../model/lostMeaning.ts';
import type { PolicyResult } from '../../model/evict/policies.ts';
import type { Transcript } from '../../model/types.ts';
import { useState } from 'react';
import { memoLead, memoWeak } from '../../state/session/index.ts';
import { LostMeaningList } from '../faults/LostMeaningList.tsx';
import { fmtInt } from '../format.ts';

/**
 * Above this many messages the marks are computed only on request: the first computation
 * indexes every message's text (about 4 s at 100,000 messages on the page's thread), which
 * would freeze a slider drag. Later cuts of the same transcript are cheap (cached index).
 */
export const LOST_MEANING_AUTO_MAX = 10_000;
/** Whether the user asked for the marks of a transcript (one record per transcript, the session's). */
const askedFor = memoWeak((_t: Transcript): { asked: boolean } => ({ asked: false }));

/** True when the marks for this transcript wait for the user to ask for them. */
export function lostMeaningDeferred(t: Transcript): boolean {
  return t.messages.length > LOST_MEANING_AUTO_MAX && !askedFor(t).asked;
}

/** Edits of a policy that rewrites nothing. */
const NO_EDITS: readonly never[] = [];

/**
 * The marks of a cut: one slot on (transcript, policy, cut, evicted count, edits). A rewriting
 * policy's cleared or removed results are looked for in later kept messages.
 */
const lostMeaningOf = memoLead(
  5,
  (
    t: Transcript,
    _policy: string,
    _cut: number,
    _evicted: number,
    edits: Readonly<NonNullable<PolicyResult['edits']>>,
    r: PolicyResult,
  ) => findLostMeaning(t, r.kept, r.evicted, edits),
);

/**
 * The lost meaning of a policy's eviction, memoised per policy on (transcript by reference, cut,
 * evicted count, edits): slider steps that keep the same cut reuse the marks (findLostMeaning and
 * the kept/evicted lists are O(n) messages).
 * @returns null when nothing was evicted, cleared or removed
 */
export function selectSimulatorLostMeaning(t: Transcript, r: PolicyResult): LostMeaning | null {
  if (r.deficit === 0 || r.freed === 0) return null;
  if (lostMeaningDeferred(t)) return null;
  const evictedCount = r.evicted.length;
  const edits = r.edits ?? NO_EDITS;
  if (evictedCount === 0 && edits.length === 0) return null;
  return lostMeaningOf(t, r.policy, r.cut, evictedCount, edits, r);
}

export interface SimulatorLostMeaningProps {
  transcript: Transcript;
  result: PolicyResult;
  onJump: (message: number) => void;
  /**
   * Not used any more: the marks carry their row labels (`#12`, `#3.2`, model/lostMeaning.ts), so
   * the list and the rows agree even where several messages share a raw index.
   */
  labelOf?: (message: number) => string;
}

export function SimulatorLostMeaning({ transcript, result, onJump }: SimulatorLostMeaningProps) {
  const [, setAsked] = useState(0);
  if (lostMeaningDeferred(transcript) && result.deficit > 0 && result.freed > 0) {
    return (
      <section className="simulator-lost" data-testid="simulator-lost" aria-label="Lost meaning">
        <button
          type="button"
          data-testid="lost-meaning-compute"
          onClick={() => {
            askedFor(transcript).asked = true;
            setAsked((n) => n + 1);
          }}
        >
          Find lost meaning ({transcript.messages.length.toLocaleString('en')} messages: indexes all
          text once)
        </button>
      </section>
    );
  }
  const lost = selectSimulatorLostMeaning(transcript, result);
  if (!lost) return null;
  return (
    <section className="simulator-lost" data-testid="simulator-lost" aria-label="Lost meaning">
      <h2>
        Lost meaning after {result.policy} eviction ({fmtInt(lost.marks.length)} mark
        {lost.marks.length === 1 ? '' : 's'})
      </h2>
      <LostMeaningList lost={lost} onJump={onJump} />
    </section>
  );
}
