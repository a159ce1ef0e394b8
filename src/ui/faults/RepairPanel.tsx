/**
 * "Repair all" (issue 8): the repaired transcript's verdict, each change, what could not be
 * repaired and why, a message-level diff against the shown transcript, and export in the
 * original format (a local download; no network).
 */
import { repairWords, ruleWords } from '../../model/ruleWords.ts';
import { fmtInt } from '../format.ts';
import { useEffect, useMemo } from 'react';
import { parserFor } from '../../model/parse/registry.ts';
import type { FormatId, ProviderId, Transcript } from '../../model/types.ts';
import { selectRepair, selectRepairDiff, type DiffRow } from '../../state/faults.ts';
import { useOpenRepaired } from './repairedView.tsx';
import './faults.css';

export interface RepairPanelProps {
  /** The shown (possibly faulted) transcript, before display re-indexing. */
  transcript: Transcript;
  provider: ProviderId;
  providerLabel: string;
  /** Source file name, for the export's name. */
  sourceName: string;
  onJump: (message: number) => void;
}

function exportName(sourceName: string, format: FormatId): string {
  const base = (sourceName || 'transcript').replace(/\.(jsonl?|ndjson)$/i, '');
  return `${base}-repaired.${parserFor(format)?.jsonl ? 'jsonl' : 'json'}`;
}

function DiffColumn({
  title,
  rows,
  testid,
  onJump,
}: {
  title: string;
  rows: DiffRow[];
  testid: string;
  onJump?: (m: number) => void;
}) {
  return (
    <div className="diff-col" data-testid={testid}>
      <h3>{title}</h3>
      <ol start={0}>
        {rows.map((r) => (
          <li key={r.index} className={`diff-${r.status}`} data-status={r.status}>
            <span className="diff-mark">
              {r.status === 'same'
                ? ' '
                : r.status === 'removed'
                  ? '−'
                  : r.status === 'changed'
                    ? '~'
                    : '+'}
            </span>
            {onJump ? (
              <button type="button" className="linklike" onClick={() => onJump(r.index)}>
                {r.label} {r.role}
              </button>
            ) : (
              <span>
                {r.label} {r.role}
              </span>
            )}{' '}
            <span className="diff-summary">{r.summary}</span>
          </li>
        ))}
      </ol>
    </div>
  );
}

export function RepairPanel({
  transcript,
  provider,
  providerLabel,
  sourceName,
  onJump,
}: RepairPanelProps) {
  const r = selectRepair(transcript, provider);
  const diff = selectRepairDiff(transcript, r);
  const href = useMemo(
    () => URL.createObjectURL(new Blob([r.text], { type: 'application/json' })),
    [r.text],
  );
  useEffect(() => () => URL.revokeObjectURL(href), [href]);
  const name = exportName(sourceName, transcript.format);
  const openRepaired = useOpenRepaired();

  return (
    <section className="repair-panel" data-testid="repair-panel" aria-label="Repair">
      <h2>Repair all</h2>
      <p
        className={`verdict ${r.validation.valid ? 'valid' : 'invalid'}`}
        data-testid="repair-verdict"
        data-valid={r.validation.valid ? 'true' : 'false'}
      >
        {r.validation.valid
          ? `valid: ${providerLabel} accepts the repaired request (${fmtInt(r.changes.length)} change${r.changes.length === 1 ? '' : 's'}).`
          : `still invalid: ${fmtInt(r.unrepaired.length)} error${r.unrepaired.length === 1 ? '' : 's'} cannot be repaired without inventing content.`}
      </p>
      {r.changes.length > 0 && (
        <ol className="repair-changes" data-testid="repair-changes">
          {r.changes.map((c, i) => (
            <li key={i} data-kind={c.kind}>
              <b>{repairWords(c.kind)}</b>: {c.note}
            </li>
          ))}
        </ol>
      )}
      {r.unrepaired.length > 0 && (
        <ul className="repair-unrepaired" data-testid="repair-unrepaired">
          {r.unrepaired.map((u, i) => (
            <li
              key={i}
              data-rule={u.rule}
              data-made-by-repair={u.madeByRepair ? 'true' : undefined}
            >
              <b>
                [{u.code}] {ruleWords(u.rule)}
              </b>
              : {u.note}
              <pre>{u.message}</pre>
            </li>
          ))}
        </ul>
      )}
      <div className="repair-export">
        <button type="button" data-testid="repair-open" onClick={() => openRepaired(r.text, name)}>
          Open repaired here
        </button>{' '}
        <a href={href} download={name} data-testid="repair-export">
          Export repaired ({transcript.format})
        </a>
      </div>
      <details className="repair-diff" open data-testid="repair-diff">
        <summary>Diff: shown transcript → repaired</summary>
        <div className="diff-cols">
          <DiffColumn title="Shown" rows={diff.before} testid="diff-before" onJump={onJump} />
          <DiffColumn title="Repaired" rows={diff.after} testid="diff-after" />
        </div>
      </details>
    </section>
  );
}
