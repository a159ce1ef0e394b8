/**
 * The character diff of one rewritten message, below the rows: computed in the diff worker
 * when opened (no size cap), shown as runs of kept, removed (struck, left only) and added (right
 * only) text.
 */
import { useEffect } from 'react';
import { useStore } from 'zustand';
import type { DiffAnswer } from '../../state/diffView.ts';
import { charDiffAnswers, selectCharJob, type DiffViewJob } from '../../state/diffView.ts';
import { visibleBidi } from '../format.ts';

export function CharDiffPanel({
  answer,
  job,
  row,
  onClose,
}: {
  answer: Extract<DiffAnswer, { ok: true }>;
  job: DiffViewJob;
  row: number;
  onClose: () => void;
}) {
  const charJob = selectCharJob(job, answer, row);
  useEffect(() => charDiffAnswers.ensure(charJob), [charJob]);
  const hunks = useStore(charDiffAnswers.store, (s) => (s.job === charJob ? s.value : null));
  const r = answer.diff.rows[row];
  return (
    <section
      className="diff-chars"
      aria-label="Character diff"
      data-testid="diff-chars"
      tabIndex={0}
    >
      <div className="diff-chars-head">
        <b>
          Character diff:{' '}
          {r?.left !== null && r?.left !== undefined
            ? `left #${r.left}`
            : `left #${r?.replaces?.[0] ?? ''}–${(r?.replaces?.[1] ?? 1) - 1}`}{' '}
          → right #{r?.right}
        </b>
        <span className="diff-legend">
          <del>removed</del> <ins>added</ins>
        </span>
        <button type="button" onClick={onClose}>
          Close
        </button>
      </div>
      {hunks === null ? (
        <p aria-live="polite">Computing…</p>
      ) : (
        <pre className="diff-chars-text" data-testid="diff-chars-text">
          {hunks.map((h, i) =>
            h.op === 'equal' ? (
              <span key={i}>{visibleBidi(h.text)}</span>
            ) : h.op === 'delete' ? (
              <del key={i}>{visibleBidi(h.text)}</del>
            ) : (
              <ins key={i}>{visibleBidi(h.text)}</ins>
            ),
          )}
        </pre>
      )}
    </section>
  );
}
