/**
 * The share panel's exports: the original file or paste (the bytes as opened, while unmodified),
 * the kept request (after the primary policy at the budget, else the transcript as the page read
 * it, written back in its format), the incident summary in Markdown, and the timeline as SVG or
 * PNG, each as a file or copied. The summary and the timeline carry no transcript content unless
 * the user ticks it in.
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
import { activeSession } from '../../state/session/index.ts';
import { fmtInt } from '../format.ts';
import { downloadBlob, svgToPngBlob } from './download.ts';
import type { OriginalExport } from './originalExport.ts';
import { exportExt, keptExportName, shareExportName } from './shareLinks.ts';
import { copy } from './ShareParts.tsx';
import { buildTimelineSvg, SVG_PREVIEW_CHARS } from './timelineSvg.ts';
import type { ShareEvictions } from './useShareData.ts';

/**
 * The links the summary may carry; `viewOnly` (without the file's name: the summary of the
 * structure-only copy names nothing of the user's) is built only when the summary needs it.
 */
export interface SummaryLinks {
  /** The "Link to this view" and whether it carries the transcript. */
  full: string;
  carriesTranscript: boolean;
  /** The structure-only link, null when there is none (yet). */
  structure: string | null;
  /** The structure-only copy is still being built: a summary made now would lack its link. */
  structureBuilding: boolean;
  viewOnly: () => string;
}

/**
 * The summary's link: by default the structure-only one (else the view only), and the summary is
 * made from the structure-only copy; ticked in, the link to this view and the transcript itself.
 */
function summaryLinkOf(links: SummaryLinks, includeTranscript: boolean): SummaryLink {
  if (includeTranscript)
    return { url: links.full, contains: links.carriesTranscript ? 'transcript' : 'view' };
  return links.structure !== null
    ? { url: links.structure, contains: 'structure' }
    : { url: links.viewOnly(), contains: 'view' };
}

/**
 * The timeline as SVG, greyed where evicted: by default of the structure-only copy (titled so,
 * without the file's name, as a structure-only link carries none); with previews, of the
 * transcript, titled with the file, format and provider.
 */
function timelineSvg(
  analysis: Analysis,
  baseName: string,
  chosen: ShareEvictions['chosen'],
  content: { previews: boolean; counter: TextCounter; toolNames: 'keep' | 'hide' },
) {
  const where = `${analysis.transcript.format} → ${analysis.provider}`;
  return buildTimelineSvg(analysis, {
    title: content.previews ? `${baseName} · ${where}` : `Structure-only copy · ${where}`,
    ...(content.previews
      ? {}
      : { structureOnly: { counter: content.counter, toolNames: content.toolNames } }),
    ...(chosen ? { evicted: new Set(chosen.evicted) } : {}),
  });
}

/** What the timeline export holds, under its "Include message previews" box. */
const TIMELINE_SENTENCE = {
  structure: (names: 'keep' | 'hide') =>
    `The timeline (.svg, .png) is drawn from the structure-only copy: every text is a placeholder of the same size; roles, block types, ${names === 'hide' ? 'arcs and evictions stay, tool names are hidden as above' : 'tool names, arcs and evictions stay'}. It carries no transcript content.`,
  previews: `The timeline (.svg, .png) shows the start of every message (up to ${SVG_PREVIEW_CHARS} characters: its texts, file paths, names) and the transcript's name: whoever has the image can read them. Untick the box to share the structure only.`,
} as const;

/** The summary's note while the structure-only copy, whose link it carries, is being built. */
const SUMMARY_WAITS =
  'The summary carries the structure-only link, which is still being built: its buttons wait for it.';

/** What the summary's link holds, said under its checkbox (or that the summary waits for it). */
function summaryNote(links: SummaryLinks, link: SummaryLink, waits: boolean): string {
  if (waits) return SUMMARY_WAITS;
  // The view-only link: the note on it above says what it holds, once. The summary's copy of it
  // leaves the file's name out (issue 37), so it is the same link but for `n=`.
  if (link.contains === 'view' && !links.carriesTranscript)
    return link.url === links.full
      ? 'The summary carries the link above.'
      : "The summary carries the link above, without the file's name.";
  return LINK_SENTENCE[link.contains];
}

/** A checkbox that says what it adds, and a note that says what the export then holds. */
function ContentChoice({
  checked,
  onChange,
  label,
  testId,
  note,
  noteTestId,
}: {
  checked: boolean;
  onChange: (checked: boolean) => void;
  label: string;
  testId: string;
  note: string;
  noteTestId: string;
}) {
  return (
    <>
      <label className="share-note">
        <input
          type="checkbox"
          checked={checked}
          onChange={(e) => onChange(e.target.checked)}
          data-testid={testId}
        />{' '}
        {label}
      </label>
      <p className="share-note" data-testid={noteTestId}>
        {note}
      </p>
    </>
  );
}

/** The incident summary as shared (`buildSharedIncidentSummary`) of what the page shows. */
function sharedSummary(
  analysis: Analysis,
  tokens: TokenTable,
  evictions: ShareEvictions,
  permalink: SummaryLink,
  opts: { includeTranscript: boolean; counter: TextCounter; toolNames: 'keep' | 'hide' },
): string {
  return buildSharedIncidentSummary(
    {
      transcript: analysis.transcript,
      provider: analysis.provider,
      providerLabel: VALIDATORS.find((v) => v.id === analysis.provider)?.label ?? analysis.provider,
      grouping: analysis.grouping,
      pairs: analysis.pairs,
      validation: analysis.validation,
      tokens,
      eviction: evictions.chosen,
      alternative: evictions.alternative,
      permalink,
    },
    opts,
  );
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
  hideNames,
  baseName,
  source: { original, modified },
}: {
  analysis: Analysis;
  counter: TextCounter;
  tokens: TokenTable;
  evictions: ShareEvictions;
  links: SummaryLinks;
  /** The structure-only link's "Hide tool names": the exports of that copy follow it. */
  hideNames: boolean;
  baseName: string;
  /**
   * `original`: the original file or paste (`originalExport`), or null when not offered;
   * `modified`: faults are applied (the transcript is the page's changed copy).
   */
  source: { original: OriginalExport | null; modified: boolean };
}) {
  const [includeTranscript, setIncludeTranscript] = useState(false);
  const [previews, setPreviews] = useState(false);
  const [status, setStatus] = useState('');
  const summaryLink = summaryLinkOf(links, includeTranscript);
  // Made now, a summary of the structure-only copy would fall back to the view-only link.
  const summaryWaits = !includeTranscript && links.structureBuilding;
  // "Hide tool names" holds for every export made from the structure-only copy.
  const toolNames = hideNames ? 'hide' : 'keep';
  // A large file's message texts are read from the file for an export (issue 38: the page keeps
  // no copy of its bytes); the export is made once they are at hand.
  const withText = <T,>(fn: () => T) => activeSession().withSourceText(analysis.transcript, fn);
  const summary = () =>
    withText(() =>
      sharedSummary(analysis, tokens, evictions, summaryLink, {
        includeTranscript,
        counter,
        toolNames,
      }),
    );
  const svg = () =>
    withText(() =>
      timelineSvg(analysis, baseName, evictions.chosen, { previews, counter, toolNames }),
    );
  return (
    <section>
      <h2>Export</h2>
      <ExportButtons
        analysis={analysis}
        chosen={evictions.chosen}
        baseName={baseName}
        summary={summary}
        summaryName={shareExportName('incident', 'md', baseName, includeTranscript)}
        timelineName={(ext) => shareExportName('timeline', ext, baseName, previews)}
        summaryWaits={summaryWaits}
        svg={svg}
        setStatus={setStatus}
        original={original}
        modified={modified}
      />
      <ExportNote original={original} chosen={evictions.chosen} modified={modified} />
      <ContentChoice
        checked={includeTranscript}
        onChange={setIncludeTranscript}
        label="Include the transcript in the summary (its texts, ids and a link that carries it)"
        testId="summary-include-transcript"
        note={summaryNote(links, summaryLink, summaryWaits)}
        noteTestId="summary-link-note"
      />
      <ContentChoice
        checked={previews}
        onChange={setPreviews}
        label="Include message previews in the timeline (the start of every message's text)"
        testId="timeline-include-previews"
        note={previews ? TIMELINE_SENTENCE.previews : TIMELINE_SENTENCE.structure(toolNames)}
        noteTestId="timeline-note"
      />
      {status && (
        <p className="share-note" role="status" data-testid="export-status">
          {status}
        </p>
      )}
    </section>
  );
}

/** The transcript export's name: the request a policy leaves, or the transcript as read or faulted. */
function keptLabel(chosen: ShareEvictions['chosen'], modified: boolean): string {
  if (chosen) return `Request after ${chosen.policy} at ${fmtInt(chosen.budget)} tokens`;
  return modified ? 'Transcript with the faults' : 'Transcript as read';
}

/**
 * Which export is which: the original (the bytes as opened or pasted) and the transcript or kept
 * request (the page's reading, written back in the format: not the file byte for byte).
 */
function ExportNote({
  original,
  chosen,
  modified,
}: {
  original: OriginalExport | null;
  chosen: ShareEvictions['chosen'];
  modified: boolean;
}) {
  const what = chosen
    ? 'the messages the policy keeps'
    : modified
      ? 'the messages as read, with the faults applied'
      : 'the messages as this page read them';
  return (
    <p className="share-note" data-testid="export-note">
      {original && `${original.label}: ${original.note}. `}
      {keptLabel(chosen, modified)}: {what}, written back in the source&apos;s format by the page —
      not the file byte for byte (spacing and line endings are the writer&apos;s).
    </p>
  );
}

/**
 * The source exports: the original (when offered), the transcript or kept request as a file,
 * and copied.
 */
function SourceButtons({
  analysis,
  chosen,
  baseName,
  original,
  modified,
  setStatus,
}: {
  analysis: Analysis;
  chosen: ShareEvictions['chosen'];
  baseName: string;
  original: OriginalExport | null;
  modified: boolean;
  setStatus: (status: string) => void;
}) {
  const ext = exportExt(analysis.transcript);
  // A large file's message texts are read from the file first (issue 38).
  const kept = () =>
    activeSession().withSourceText(analysis.transcript, () =>
      exportKeptSource(analysis.transcript, chosen),
    );
  const failed = (e: unknown) =>
    setStatus(`Export failed: ${e instanceof Error ? e.message : String(e)}`);
  const name = keptExportName(baseName, ext, chosen, modified);
  return (
    <>
      {original && (
        <button
          type="button"
          data-testid="export-original"
          onClick={() =>
            void original.unreadable().then((why) => {
              if (why) setStatus(why);
              else downloadBlob(original.name, original.blob());
            })
          }
        >
          {original.label}
        </button>
      )}
      <button
        type="button"
        data-testid="export-kept"
        onClick={() =>
          void kept().then(
            (text) => downloadBlob(name, new Blob([text], { type: 'application/json' })),
            failed,
          )
        }
      >
        {keptLabel(chosen, modified)} (.{ext})
      </button>
      <button
        type="button"
        data-testid="export-kept-copy"
        onClick={() =>
          void kept().then(
            (text) => copy(text, (ok) => setStatus(ok ? 'Request copied.' : 'Copy failed.')),
            failed,
          )
        }
      >
        Copy request
      </button>
    </>
  );
}

/**
 * The export buttons; `summary` and `svg` build their text only when clicked, the summary's are
 * disabled while `summaryWaits` (its link is not built yet).
 */
function ExportButtons({
  analysis,
  chosen,
  baseName,
  summary,
  summaryName,
  timelineName,
  summaryWaits,
  svg,
  setStatus,
  original,
  modified,
}: {
  analysis: Analysis;
  chosen: ShareEvictions['chosen'];
  baseName: string;
  summary: () => Promise<string>;
  /** The summary's and the timeline's file names (`shareExportName`). */
  summaryName: string;
  timelineName: (ext: 'svg' | 'png') => string;
  summaryWaits: boolean;
  svg: () => Promise<string>;
  setStatus: (status: string) => void;
  original: OriginalExport | null;
  modified: boolean;
}) {
  const copied = (what: string) => (ok: boolean) =>
    setStatus(ok ? `${what} copied.` : 'Copy failed.');
  const failed = (what: string) => (e: unknown) =>
    setStatus(`${what} failed: ${e instanceof Error ? e.message : String(e)}`);
  const download = (name: string, text: Promise<string>, type: string) =>
    void text.then((t) => downloadBlob(name, new Blob([t], { type })), failed('Export'));
  const copyOf = (text: Promise<string>, done: (ok: boolean) => void) =>
    void text.then((t) => copy(t, done), failed('Copy'));
  const png = () =>
    svg()
      .then(svgToPngBlob)
      .then(
        (blob) => downloadBlob(timelineName('png'), blob),
        (e: unknown) =>
          setStatus(`PNG export failed: ${e instanceof Error ? e.message : String(e)}`),
      );
  return (
    <div className="share-exports">
      <SourceButtons
        analysis={analysis}
        chosen={chosen}
        baseName={baseName}
        original={original}
        modified={modified}
        setStatus={setStatus}
      />
      <button
        type="button"
        data-testid="export-summary"
        disabled={summaryWaits}
        onClick={() => download(summaryName, summary(), 'text/markdown')}
      >
        Incident summary (.md)
      </button>
      <button
        type="button"
        data-testid="export-summary-copy"
        disabled={summaryWaits}
        onClick={() => copyOf(summary(), copied('Summary'))}
      >
        Copy summary
      </button>
      <button
        type="button"
        data-testid="export-svg"
        onClick={() => download(timelineName('svg'), svg(), 'image/svg+xml')}
      >
        Timeline (.svg)
      </button>
      <button type="button" data-testid="export-png" onClick={() => void png()}>
        Timeline (.png)
      </button>
    </div>
  );
}
