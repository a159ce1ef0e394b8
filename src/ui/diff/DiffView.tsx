/**
 * The diff view (issue 33), in place of the timeline while open: the one sentence of what
 * changed, the two sides, the pairings the change broke with the exact 400, where the
 * prompt-cache prefix stops matching, and the rows (`DiffRows`). What it compares is the user's
 * choice (`diff` in the store, carried by the link as `d=`): the request shown against its
 * predecessor, two requests, the two policies' cuts at the simulator's budget, or the transcript
 * shown against a pasted one. `.` and `,` step through the changes; a rewritten row opens its
 * character diff, computed in the diff worker when opened.
 */
import { useEffect, useState } from 'react';
import { useStore } from 'zustand';
import type { Analysis } from '../../model/analyze.ts';
import { ruleWords } from '../../model/ruleWords.ts';
import { diffTokensWords, isCharsPer4, TEXT_TOKENS } from '../../model/tokenWords.ts';
import type { DiffAnswer } from '../../state/diffView.ts';
import type { EvictionView } from '../../state/eviction.ts';
import {
  diffAnswers,
  selectCutsDiffJob,
  selectDiffNav,
  selectPastedDiffJob,
  selectPastedTranscript,
  selectRequestDiffJob,
  type DiffViewJob,
} from '../../state/diffView.ts';
import { requestListingStore, selectStreamedListing } from '../../state/requests.ts';
import { useAppStore, type AppStore, type DiffChoice } from '../../state/store.ts';
import { fmtCount, fmtInt } from '../format.ts';
import { isTypingTarget } from '../input/typingTarget.ts';
import { useSession } from '../useSession.ts';
import { CharDiffPanel } from './CharDiffPanel.tsx';
import { DiffControls } from './DiffControls.tsx';
import { DiffRows } from './DiffRows.tsx';
import './diff.css';

export interface DiffViewProps {
  analysis: Analysis;
  /** The request shown of a file holding several (`parsed.requestIndex`), or undefined. */
  requestIndex: number | undefined;
  /** The simulator's two cuts at its budget, or null (no simulator). */
  eviction: EvictionView | null;
  policyNames: readonly [string, string];
  /**
   * The page's exact tokenizer is loaded (the main view's counts are the BPE's): the diff then
   * counts as the CLI does; until then by chars/4, said "estimated".
   */
  exactTokens: boolean;
}

/** The job of the store's diff choice (null: nothing to compare yet, or the choice is not possible). */
function useDiffJob(p: DiffViewProps, diff: DiffChoice): DiffViewJob | null {
  const fromText = useStore(requestListingStore, (s) => s.value);
  // A streamed log's calls are the inspect worker's listing (the page holds no text of it).
  const listing = useSession(selectStreamedListing) ?? fromText;
  const count = listing?.ok ? listing.requests.count : null;
  const tokens = p.exactTokens ? 'exact' : 'estimate';
  const requestJob = useAppStore((s: AppStore) =>
    selectRequestDiffJob(
      s.source,
      s.formatOverride,
      s.provider,
      s.diff,
      p.requestIndex,
      count,
      tokens,
    ),
  );
  if (diff?.kind === 'pasted') {
    const other = selectPastedTranscript(diff.other);
    return other
      ? selectPastedDiffJob(p.analysis.transcript, other, p.analysis.provider, tokens)
      : null;
  }
  if (diff?.kind === 'cuts')
    return p.eviction
      ? selectCutsDiffJob(
          p.analysis.transcript,
          p.eviction.results,
          p.policyNames,
          p.eviction.budget,
          p.analysis.provider,
          tokens,
        )
      : null;
  return requestJob;
}

/** `.` / `,`: the next / previous change (outside text fields). */
function useChangeKeys(
  changes: readonly number[],
  current: number | null,
  set: (r: number) => void,
) {
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey || isTypingTarget(e.target)) return;
      if (e.key !== '.' && e.key !== ',') return;
      if (changes.length === 0) return;
      e.preventDefault();
      const at = current ?? -1;
      const next =
        e.key === '.'
          ? (changes.find((r) => r > at) ?? changes[changes.length - 1])
          : ([...changes].reverse().find((r) => r < at) ?? changes[0]);
      if (next !== undefined) set(next);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [changes, current, set]);
}

/** True when the diff's tokens are chars/4 estimates (not the CLI's BPE counts). */
function estimated(a: Extract<DiffAnswer, { ok: true }>): boolean {
  return isCharsPer4(a.diff.tokenBasis);
}

function Sides({ a }: { a: Extract<DiffAnswer, { ok: true }> }) {
  const approx = estimated(a) ? '≈ ' : '';
  const side = (s: typeof a.diff.left, which: string) => (
    <li data-testid={`diff-side-${which}`}>
      <b>{which === 'left' ? 'Left' : 'Right'}:</b> {s.label} · {fmtCount(s.messages, 'message')} ·{' '}
      {approx}
      {fmtInt(s.tokens)} {TEXT_TOKENS} ·{' '}
      {s.valid ? (
        <span className="ok">valid</span>
      ) : (
        <span className="bad">400{s.firstRule ? ` (${s.firstRule.code})` : ''}</span>
      )}
    </li>
  );
  return (
    <ul className="diff-sides">
      {side(a.diff.left, 'left')}
      {side(a.diff.right, 'right')}
    </ul>
  );
}

/** The pairings the change broke, each with its rule, and the exact 400 the right side gets. */
function Broken({ a }: { a: Extract<DiffAnswer, { ok: true }> }) {
  const { broken, right } = a.diff;
  if (broken.length === 0) return null;
  return (
    <section
      className="diff-broken"
      aria-label="Pairings the change broke"
      data-testid="diff-broken"
    >
      <p>
        <b className="bad">
          {broken.length} pairing{broken.length === 1 ? '' : 's'} broken:
        </b>{' '}
        {broken.map((b, i) => (
          <span key={`${b.id}-${i}`} data-testid="diff-broken-pair">
            {i > 0 ? '; ' : ''}
            <code>{b.id}</code> ({b.code}: {ruleWords(b.rule)}, right #{b.messageIndex})
          </span>
        ))}
      </p>
      {right.firstError !== null && (
        <pre
          className="diff-error"
          data-testid="diff-error"
          tabIndex={0}
          aria-label="The provider's 400 for the right side"
        >
          {JSON.stringify(right.firstError, null, 2)}
        </pre>
      )}
    </section>
  );
}

/** The row to show first: a summary's or seal's (what a compaction left), else the first change. */
export function firstShown(
  rows: Extract<DiffAnswer, { ok: true }>['diff']['rows'],
  changes: readonly number[],
): number | null {
  const i = rows.findIndex((r) => r.replaces !== undefined);
  return i >= 0 ? i : (changes[0] ?? null);
}

function cacheWords(a: Extract<DiffAnswer, { ok: true }>): string {
  const c = a.diff.cachePrefix;
  return `prompt-cache prefix ends here: ${fmtInt(c.messages)} message${c.messages === 1 ? '' : 's'}, ${fmtInt(c.tokens)} tokens match`;
}

export function DiffView(p: DiffViewProps) {
  const diff = useAppStore((s) => s.diff);
  const setDiff = useAppStore((s) => s.setDiff);
  const job = useDiffJob(p, diff);
  useEffect(() => diffAnswers.ensure(job), [job]);
  const answer = useStore(diffAnswers.store, (s) => (s.job === job ? s.value : null));
  const nav = selectDiffNav(answer);
  const [current, setCurrent] = useState<number | null>(null);
  const [open, setOpen] = useState<number | null>(null);
  useEffect(() => {
    setCurrent(null);
    setOpen(null);
  }, [answer]);
  useChangeKeys(nav?.changes ?? [], current, setCurrent);
  return (
    <section className="diff-view" aria-label="Diff of two requests" data-testid="diff-view">
      <div className="diff-top">
        <h2>Diff</h2>
        <DiffControls requestIndex={p.requestIndex} hasSimulator={p.eviction !== null} />
        <span className="diff-keys">
          <kbd>,</kbd> <kbd>.</kbd> previous / next change
        </span>
        <button type="button" onClick={() => setDiff(null)} data-testid="diff-close">
          Close diff
        </button>
      </div>
      {job === null ? (
        <p className="diff-note" data-testid="diff-note">
          {diff?.kind === 'cuts'
            ? 'Set a budget in the simulator: the diff compares its two policies’ cuts at that budget.'
            : diff?.kind === 'pasted'
              ? diff.other.text.trim() === ''
                ? 'Paste the transcript to compare with in the box above, then press Compare.'
                : 'The pasted transcript could not be read.'
              : 'Nothing to compare yet.'}
        </p>
      ) : !answer ? (
        <p className="diff-note" data-testid="diff-note" aria-live="polite">
          Comparing…
        </p>
      ) : !answer.ok ? (
        <p className="diff-note bad" data-testid="diff-note">
          {answer.error}
        </p>
      ) : (
        nav && (
          <>
            <p className="diff-summary" data-testid="diff-summary">
              {answer.diff.summary}
            </p>
            <Sides a={answer} />
            <p className="diff-cache" data-testid="diff-cache">
              {answer.diff.cachePrefix.messages > 0 || answer.diff.cachePrefix.tokens > 0
                ? `The prompt-cache prefix matches for ${fmtCount(answer.diff.cachePrefix.messages, 'message')} (${fmtInt(answer.diff.cachePrefix.tokens)} tokens), then stops.`
                : 'The prompt-cache prefix does not match from the start.'}{' '}
              {nav.changes.length} of {answer.diff.rows.length} rows changed.{' '}
              <span data-testid="diff-token-basis" data-estimate={estimated(answer) || undefined}>
                {diffTokensWords(answer.diff.tokenBasis)}
              </span>
              {answer.diff.notes.map((n) => ` ${n}`).join('')}
            </p>
            <Broken a={answer} />
            <DiffRows
              rows={answer.diff.rows}
              left={answer.left}
              right={answer.right}
              nav={nav}
              current={current}
              cacheLabel={cacheWords(answer)}
              first={firstShown(answer.diff.rows, nav.changes)}
              onOpen={(r) => {
                setOpen(r);
                setCurrent(r);
              }}
            />
            {open !== null && (
              <CharDiffPanel answer={answer} job={job} row={open} onClose={() => setOpen(null)} />
            )}
          </>
        )
      )}
    </section>
  );
}
