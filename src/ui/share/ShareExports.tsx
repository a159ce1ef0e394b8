/**
 * The share panel's exports: the kept request (after the primary policy at the budget, else the
 * transcript), the incident summary in Markdown, and the timeline as SVG or PNG, each as a file or
 * copied. The summary carries no transcript content unless the user ticks it in.
 */
import { useState } from 'react';
import type { Analysis } from '../../model/analyze.ts';
import {
  buildSharedIncidentSummary,
  exportKeptSource,
  LINK_SENTENCE,
  type SummaryLink,
} from '../../model/exportSummary.ts';
import type { TextCounter, TokenTable } from '../../model/tokens.ts';
import { VALIDATORS } from '../../model/validate/index.ts';
import { fmtInt } from '../format.ts';
import { downloadBlob, svgToPngBlob } from './download.ts';
import { copy } from './ShareParts.tsx';
import { buildTimelineSvg } from './timelineSvg.ts';
import type { ShareEvictions } from './useShareData.ts';

/** The links the summary may carry; `viewOnly` is built only when the summary needs it. */
export interface SummaryLinks {
  /** The "Link to this view" and whether it carries the transcript. */
  full: string;
  carriesTranscript: boolean;
  /** The structure-only link, null when there is none (yet). */
  structure: string | null;
  viewOnly: () => string;
}

/**
 * The export section.
 * @param baseName the files' name stem (`exportBaseName`)
 */
export function ExportSection({
  analysis,
  counter,
  tokens,
  evictions,
  links,
  baseName,
}: {
  analysis: Analysis;
  counter: TextCounter;
  tokens: TokenTable;
  evictions: ShareEvictions;
  links: SummaryLinks;
  baseName: string;
}) {
  const [includeTranscript, setIncludeTranscript] = useState(false);
  const [status, setStatus] = useState('');
  // By default the summary's link is the structure-only one (else the view only) and it is made
  // from the structure-only copy; ticked in, the link to this view and the transcript itself.
  const summaryLink: SummaryLink = includeTranscript
    ? { url: links.full, contains: links.carriesTranscript ? 'transcript' : 'view' }
    : links.structure !== null
      ? { url: links.structure, contains: 'structure' }
      : { url: links.viewOnly(), contains: 'view' };
  const summary = () =>
    buildSharedIncidentSummary(
      {
        transcript: analysis.transcript,
        provider: analysis.provider,
        providerLabel:
          VALIDATORS.find((v) => v.id === analysis.provider)?.label ?? analysis.provider,
        grouping: analysis.grouping,
        pairs: analysis.pairs,
        validation: analysis.validation,
        tokens,
        eviction: evictions.chosen,
        alternative: evictions.alternative,
        permalink: summaryLink,
      },
      { includeTranscript, counter },
    );
  const svg = () =>
    buildTimelineSvg(analysis, {
      title: `${baseName} · ${analysis.transcript.format} → ${analysis.provider}`,
      ...(evictions.chosen ? { evicted: new Set(evictions.chosen.evicted) } : {}),
    });
  return (
    <section>
      <h3>Export</h3>
      <ExportButtons
        analysis={analysis}
        chosen={evictions.chosen}
        baseName={baseName}
        summary={summary}
        svg={svg}
        setStatus={setStatus}
      />
      <label className="share-note">
        <input
          type="checkbox"
          checked={includeTranscript}
          onChange={(e) => setIncludeTranscript(e.target.checked)}
          data-testid="summary-include-transcript"
        />{' '}
        Include the transcript in the summary (its texts, ids and a link that carries it)
      </label>
      <p className="share-note" data-testid="summary-link-note">
        {summaryLink.url === links.full && !links.carriesTranscript
          ? // The view-only link: the note on it above says what it holds, once.
            'The summary carries the link above.'
          : LINK_SENTENCE[summaryLink.contains]}
      </p>
      {status && <p className="share-note">{status}</p>}
    </section>
  );
}

/** The six export buttons; `summary` and `svg` build their text only when clicked. */
function ExportButtons({
  analysis,
  chosen,
  baseName,
  summary,
  svg,
  setStatus,
}: {
  analysis: Analysis;
  chosen: ShareEvictions['chosen'];
  baseName: string;
  summary: () => string;
  svg: () => string;
  setStatus: (status: string) => void;
}) {
  const ext = analysis.transcript.listKey === 'lines' ? 'jsonl' : 'json';
  const kept = () => exportKeptSource(analysis.transcript, chosen);
  const copied = (what: string) => (ok: boolean) =>
    setStatus(ok ? `${what} copied.` : 'Copy failed.');
  const download = (name: string, text: string, type: string) =>
    downloadBlob(name, new Blob([text], { type }));
  const png = () =>
    svgToPngBlob(svg()).then(
      (blob) => downloadBlob(`${baseName}-timeline.png`, blob),
      (e: unknown) => setStatus(`PNG export failed: ${e instanceof Error ? e.message : String(e)}`),
    );
  return (
    <div className="share-exports">
      <button
        type="button"
        data-testid="export-kept"
        onClick={() =>
          download(
            `${baseName}.${chosen ? `${chosen.policy}-${chosen.budget}.` : ''}${ext}`,
            kept(),
            'application/json',
          )
        }
      >
        {chosen
          ? `Request after ${chosen.policy} at ${fmtInt(chosen.budget)} tokens`
          : 'Transcript'}{' '}
        (.{ext})
      </button>
      <button
        type="button"
        data-testid="export-kept-copy"
        onClick={() => copy(kept(), copied('Request'))}
      >
        Copy request
      </button>
      <button
        type="button"
        data-testid="export-summary"
        onClick={() => download(`${baseName}-incident.md`, summary(), 'text/markdown')}
      >
        Incident summary (.md)
      </button>
      <button
        type="button"
        data-testid="export-summary-copy"
        onClick={() => copy(summary(), copied('Summary'))}
      >
        Copy summary
      </button>
      <button
        type="button"
        data-testid="export-svg"
        onClick={() => download(`${baseName}-timeline.svg`, svg(), 'image/svg+xml')}
      >
        Timeline (.svg)
      </button>
      <button type="button" data-testid="export-png" onClick={() => void png()}>
        Timeline (.png)
      </button>
    </div>
  );
}
