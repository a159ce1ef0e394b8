/**
 * The figures of one policy card (kept tokens against the budget, deficit, freed, overshoot,
 * fits, evicted) and, for a request the provider rejects, its error body with a jump to the
 * message that holds the cause.
 */
import type { ReactNode } from 'react';
import type { PolicyResult } from '../../model/evict/policies.ts';
import type { LostMeaning } from '../../model/lostMeaning.ts';
import { LostMeaningList } from '../faults/LostMeaningList.tsx';
import type { Violation } from '../../model/validate/index.ts';
import { fmtInt, prettyJson } from '../format.ts';
import { RequestIndexNote } from '../RequestIndexNote.tsx';

/**
 * The kept bar and the figures list.
 * @param evicted messages the policy evicts (a count, the list is never built here)
 * @param approx true when token counts are estimates (`≈`)
 * @param lost lost-meaning marks of this result (null when none were looked for): `listedBelow`
 *   when the simulator lists them under the cards and marks their rows (the primary policy's)
 */
export function PolicyFigures({
  result: r,
  evicted,
  approx,
  lost = null,
}: {
  result: PolicyResult;
  evicted: number;
  approx: boolean;
  lost?: { marks: LostMeaning; listedBelow: boolean; onJump: (message: number) => void } | null;
}) {
  const cleared = r.edits?.filter((e) => e.kind === 'cleared').length ?? 0;
  const removed = r.edits?.filter((e) => e.kind === 'removed').length ?? 0;
  const valid = r.validation.valid;
  const t = approx ? '≈' : '';
  const keptPct = r.budget > 0 ? Math.min(100, (r.tokensKept / r.budget) * 100) : 100;
  return (
    <>
      <div
        className="kept-bar"
        title={`kept ${fmtInt(r.tokensKept)} of a ${fmtInt(r.budget)}-token budget`}
      >
        <span className={`kept-fill${r.fits ? '' : ' over'}`} style={{ width: `${keptPct}%` }} />
      </div>
      <dl className="policy-figures">
        <Figure name="kept" testId="policy-kept">
          {t}
          {fmtInt(r.tokensKept)} / {fmtInt(r.budget)}
        </Figure>
        <Figure name="deficit" testId="policy-deficit">
          {t}
          {fmtInt(r.deficit)}
        </Figure>
        <Figure name="freed" testId="policy-freed">
          {t}
          {fmtInt(r.freed)}
        </Figure>
        <Figure
          name="overshoot"
          testId="policy-overshoot"
          title="tokens freed ÷ deficit (1× = exact fit)"
        >
          {r.overshoot === null ? '—' : `${r.overshoot.toFixed(2)}×`}
        </Figure>
        <Figure name="fits" testId="policy-fits" className={r.fits ? '' : valid ? 'warn' : 'bad'}>
          {r.fits ? 'yes' : 'no: cannot drop more'}
        </Figure>
        <Figure name="evicted" testId="policy-evicted">
          {fmtInt(evicted)} message{evicted === 1 ? '' : 's'}
          {r.summary ? ` → one ${fmtInt(r.summary.tokens)}-token summary` : ''}
        </Figure>
        {r.edits && (
          <Figure
            name="edited"
            testId="policy-edited"
            title="blocks the policy changed in place: tool results cleared to a placeholder (their calls stay), or blocks removed"
          >
            {cleared > 0 || removed === 0
              ? `${fmtInt(cleared)} result${cleared === 1 ? '' : 's'} cleared`
              : ''}
            {removed > 0
              ? `${cleared > 0 ? ', ' : ''}${fmtInt(removed)} block${removed === 1 ? '' : 's'} removed`
              : ''}
          </Figure>
        )}
        {lost !== null && <LostFigure {...lost} policy={r.policy} />}
      </dl>
    </>
  );
}

/**
 * "lost meaning N marks" as a disclosure (its explanation was a hover title only, out of reach
 * of the keyboard, and the marks themselves were not found; newcomer): what a mark is and where
 * the marks are — listed under the cards and marked on their rows for the primary policy, listed
 * right here for the other, which has no list of its own.
 */
function LostFigure({
  marks,
  listedBelow,
  onJump,
  policy,
}: {
  policy: string;
  marks: LostMeaning;
  listedBelow: boolean;
  onJump: (message: number) => void;
}) {
  const n = marks.marks.length;
  return (
    <div className="lost-figure">
      <dt>lost meaning</dt>
      <dd data-testid="policy-lost">
        <details className="lost-why">
          <summary>
            {fmtInt(n)} mark{n === 1 ? '' : 's'}
          </summary>
          <p data-testid="policy-lost-where">
            A mark is a message whose meaning this cut loses: an evicted instruction that later
            messages still refer to, a kept call repeating one whose result was evicted, or a
            cleared result that later messages still quote.{' '}
            {listedBelow
              ? `They are listed under the cards (“Lost meaning after ${policy} eviction”), each with a jump to its row, and each marked row in the timeline has an amber bar at its left edge.`
              : n > 0
                ? 'They are listed here (the timeline marks the primary policy’s only):'
                : ''}
          </p>
          {!listedBelow && n > 0 && <LostMeaningList lost={marks} onJump={onJump} />}
        </details>
      </dd>
    </div>
  );
}

/** One term and its value in the figures list. */
function Figure({
  name,
  testId,
  title,
  className,
  children,
}: {
  name: string;
  testId: string;
  title?: string;
  className?: string;
  children: ReactNode;
}) {
  return (
    <div>
      <dt>{name}</dt>
      <dd data-testid={testId} title={title} className={className}>
        {children}
      </dd>
    </div>
  );
}

/**
 * The provider's error body (four lines by default, the whole body on demand) and the jump to
 * its cause.
 * @param causeMessage our message index of the cause; −1 for the summary message (no jump)
 * @param causeLabel the cause's label as the timeline shows it
 * @param pathLabel the label of the row the provider's path names, when it is not the cause's
 * @param full whether the whole body shows (the card keeps it, so it outlives a valid step)
 */
export function PolicyError({
  err,
  causeMessage,
  causeLabel,
  pathLabel,
  providerLabel,
  onJump,
  full,
  setFull,
}: {
  err: Violation;
  causeMessage: number;
  causeLabel: string;
  /** The row label of the message the provider's path names, when not the cause's (`pathIndex`). */
  pathLabel: string | null;
  providerLabel: string;
  onJump: (message: number) => void;
  full: boolean;
  setFull: (update: (full: boolean) => boolean) => void;
}) {
  return (
    <div className="policy-error">
      <button
        type="button"
        className="jump"
        data-testid="policy-jump"
        disabled={causeMessage < 0}
        onClick={() => onJump(causeMessage)}
      >
        Jump to its cause: message {causeLabel}
      </button>
      <RequestIndexNote
        providerPath={err.providerPath}
        rowLabel={pathLabel ?? (causeMessage >= 0 ? causeLabel : null)}
      />
      {/* Four lines by default (the timeline keeps its height); the whole body on demand.
          Focusable, so its scroll works from the keyboard. */}
      <pre
        className={`policy-error-body${full ? ' full' : ''}`}
        data-testid="policy-error-body"
        tabIndex={0}
        aria-label={`HTTP ${err.status} body from ${providerLabel}`}
      >
        {prettyJson(err.error)}
      </pre>
      <button
        type="button"
        className="body-toggle"
        data-testid="policy-body-toggle"
        aria-expanded={full}
        onClick={() => setFull((f) => !f)}
      >
        {full ? 'Show less' : 'Show the whole body'}
      </button>
    </div>
  );
}
