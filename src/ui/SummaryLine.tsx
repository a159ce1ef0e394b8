/**
 * The stats line over the timeline: format → provider, the counts of messages, exchanges, arcs,
 * broken and odd pairs, the token total and how it was counted, and the format picker when the
 * text reads as more than one format.
 */
import type { Analysis } from '../model/analyze.ts';
import type { TokenTable } from '../model/tokens.ts';
import type { Counts } from '../state/pairs.ts';
import { useAppStore } from '../state/store.ts';
import { AmbiguousFormat } from './AmbiguousFormat.tsx';
import type { PairSignals } from './arcs/pairSignals.ts';
import { fmtInt } from './format.ts';
import type { InspectionState } from './useInspection.ts';

export interface SummaryLineProps {
  analysis: Analysis;
  counts: Counts;
  signals: PairSignals | null;
  tokens: TokenTable;
  providerLabel: string;
  parsed: InspectionState['parsed'];
  /**
   * The streamed file still being read while its preview (first rows) is drawn
   * (`partialLoadName`): the counts are of those rows only and no pair is called broken yet (its
   * tool_result may simply not be read yet); null/undefined = complete.
   */
  provisional?: string | null | undefined;
}

export function SummaryLine({
  analysis,
  counts,
  signals,
  tokens,
  providerLabel,
  parsed,
  provisional,
}: SummaryLineProps) {
  const setFormatOverride = useAppStore((s) => s.setFormatOverride);
  return (
    <div
      className="summary"
      data-testid="summary"
      data-provisional={provisional ? 'true' : undefined}
    >
      <span data-testid="format">{analysis.transcript.format}</span> →{' '}
      <span data-testid="provider">{analysis.provider}</span>
      {provisional && (
        <span
          className="provisional-tag"
          data-testid="summary-provisional"
          title={`${provisional} is still being read: these counts are of its first rows`}
        >
          first rows only:
        </span>
      )}
      <span>
        <b data-testid="count-messages">{fmtInt(counts.messages)}</b>{' '}
        {counts.messages === 1 ? 'message' : 'messages'}
        {counts.numbered !== counts.messages && (
          <span
            data-testid="count-numbered"
            title="Row numbers are the source's message numbers: a source message shown as several rows keeps its number, with .1, .2 for its parts"
          >
            {' '}
            (numbered as the source&apos;s {fmtInt(counts.numbered)}: #N.1, #N.2 are rows of one)
          </span>
        )}
      </span>
      <span>
        <b data-testid="count-exchanges">{fmtInt(counts.exchanges)}</b>{' '}
        {counts.exchanges === 1 ? 'exchange' : 'exchanges'}
      </span>
      <span title="Arcs join each tool_use to its tool_result (blue: answered in the next message)">
        <span className="swatch sw-arc" aria-hidden="true" />
        <b data-testid="count-arcs">{fmtInt(counts.arcs)}</b> {counts.arcs === 1 ? 'arc' : 'arcs'}{' '}
        <span data-testid="count-calls">{arcsForCalls(counts)}</span>
      </span>
      {provisional ? (
        <span
          data-testid="count-broken-pending"
          title="Counted once the whole file is read: a tool_use near the end of the rows read so far may have its tool_result further on"
        >
          <span className="swatch sw-arc-bad" aria-hidden="true" />
          broken: after the whole file
        </span>
      ) : (
        <PairCounts signals={signals} providerLabel={providerLabel} />
      )}
      <span
        className="basis"
        title={`${tokens.basis.exact ? '' : '≈'}${fmtInt(tokens.total)} tokens, ${tokens.basis.label}: how the token counts were obtained`}
        data-testid="token-basis"
        data-estimate={tokens.basis.encoding === 'chars/4' ? 'true' : undefined}
      >
        {tokens.basis.exact ? '' : '≈'}
        {fmtInt(tokens.total)} tokens, {tokens.basis.label}
      </span>
      {parsed?.ambiguous && (
        <AmbiguousFormat
          candidates={parsed.candidates}
          current={analysis.transcript.format}
          onPick={setFormatOverride}
        />
      )}
    </div>
  );
}

/**
 * "for 13 tool calls", and what the arcs beyond one per call are ("+ 4 second results"), so the
 * arc count reads against the calls the CLI and the verdict count.
 */
export function arcsForCalls(c: Pick<Counts, 'calls' | 'secondResults' | 'orphanResults'>): string {
  const extra = [
    c.secondResults > 0
      ? `${fmtInt(c.secondResults)} second ${c.secondResults === 1 ? 'result' : 'results'}`
      : '',
    c.orphanResults > 0
      ? `${fmtInt(c.orphanResults)} ${c.orphanResults === 1 ? 'result' : 'results'} with no call`
      : '',
  ].filter((x) => x !== '');
  const calls = `${fmtInt(c.calls)} tool ${c.calls === 1 ? 'call' : 'calls'}`;
  return extra.length > 0 ? `(${calls} + ${extra.join(' + ')})` : `(${calls})`;
}

/** The broken and warning pair counts of a complete analysis (red and amber arcs). */
function PairCounts({
  signals,
  providerLabel,
}: {
  signals: PairSignals | null;
  providerLabel: string;
}) {
  return (
    <>
      <span
        className={signals && signals.errorArcs > 0 ? 'bad' : ''}
        title={`Pairs the ${providerLabel} verdict holds against the request (red arcs)`}
      >
        <span className="swatch sw-arc-bad" aria-hidden="true" />
        <b data-testid="count-broken">{fmtInt(signals?.errorArcs ?? 0)}</b> broken
      </span>
      {signals && signals.warningArcs > 0 && (
        <span
          className="warn"
          data-testid="count-warnings"
          title={`Pairs pairing finds odd (a reused id, a late or second result) that no ${providerLabel} error names (amber arcs)`}
        >
          <span className="swatch sw-arc-warn" aria-hidden="true" />
          <b>{fmtInt(signals.warningArcs)}</b> warning
          {signals.warningArcs === 1 ? '' : 's'}
        </span>
      )}
    </>
  );
}
