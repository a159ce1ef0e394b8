/**
 * The share panel (issues 6 and 15): the link to this view, the structure-only link with what
 * it keeps and a preview of all it carries, and the exports (request, incident summary,
 * timeline). Everything is built in the page: nothing goes to a server.
 */
import { useEffect, useMemo, useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { Analysis } from '../../model/analyze.ts';
import type { Transcript } from '../../model/types.ts';
import { simulatePolicy } from '../../model/evict/policies.ts';
import type { EvictionResult } from '../../model/evict/types.ts';
import {
  buildSharedIncidentSummary,
  exportKeptSource,
  LINK_SENTENCE,
  type SummaryLink,
} from '../../model/exportSummary.ts';
import { redactTranscriptWithMaps } from '../../model/redact.ts';
import type { TextCounter } from '../../model/tokens.ts';
import { VALIDATORS } from '../../model/validate/index.ts';
import { writeTranscript } from '../../model/write.ts';
import {
  effectiveBudget,
  selectEvictionContext,
  selectPolicyChoices,
} from '../../state/eviction.ts';
import { selectTokens } from '../../state/selectors.ts';
import { useAppStore, type AppState, type Source } from '../../state/store.ts';
import { inlineSizeRefusal } from '../../model/permalink/inline.ts';
import {
  buildShareLink,
  buildViewOnlyFragment,
  isStructureOnly,
} from '../../state/permalink/storeLink.ts';
import { pageUrlWithoutHash } from '../../state/urlSync.ts';
import { fmtInt } from '../format.ts';
import { downloadBlob, svgToPngBlob } from './download.ts';
import { buildTimelineSvg } from './timelineSvg.ts';
import { LinkRow, copy } from './ShareParts.tsx';
import { sourceBytes, viewLink, whatToOpen } from './shareLinks.ts';

/**
 * Above this many characters a link is offered as structure-only first. Chat tools and document
 * editors truncate or refuse long links (and many proxies cap a request line at 8 KiB), so a
 * link past ~8 KB often arrives cut off; a file export is the way to share more.
 */
export const LINK_SOFT_LIMIT = 8 * 1024;

const selectLinkFields = (s: AppState) => ({
  source: s.source,
  formatOverride: s.formatOverride,
  provider: s.provider,
  budget: s.budget,
  policies: s.policies,
  policyOptions: s.policyOptions,
  selection: s.selection,
  anchor: s.anchor,
  faults: s.faults,
  lesson: s.lesson,
  simulator: s.simulator,
});

/** A structure-only text, with what it was built from (a result for other inputs is stale). */
interface BuiltRedaction {
  transcript: Transcript;
  counter: TextCounter;
  hideNames: boolean;
  text: string;
  ids: number;
}

/**
 * The share panel's content.
 * @param shown the source of the transcript on screen: the links carry it, not a newer text that
 *   failed to parse (issue 15); null = the store's
 */
export function Panel({
  analysis,
  counter,
  shown,
}: {
  analysis: Analysis;
  counter: TextCounter;
  shown: Source | null;
}) {
  const fields = useAppStore(useShallow(selectLinkFields));
  const [hideNames, setHideNames] = useState(false);
  const [includeTranscript, setIncludeTranscript] = useState(false);
  const source = shown ?? fields.source;
  const state = { ...fields, source } as AppState;
  const base = pageUrlWithoutHash();
  const view = viewLink(state, base);
  const fullLink = view.link;
  const tooLong = fullLink.length > LINK_SOFT_LIMIT;

  // The structure-only link: decided from the cheap estimate first (a transcript above the
  // decoder's limit is never redacted, deflated or offered), then built after the panel has
  // painted, so opening the panel never waits for it.
  const structureRefusal = inlineSizeRefusal(sourceBytes(source));
  const [built, setBuilt] = useState<BuiltRedaction | null>(null);
  useEffect(() => {
    if (structureRefusal !== null) return;
    const timer = setTimeout(() => {
      const r = redactTranscriptWithMaps(analysis.transcript, {
        counter,
        toolNames: hideNames ? 'hide' : 'keep',
      });
      setBuilt({
        transcript: analysis.transcript,
        counter,
        hideNames,
        text: writeTranscript(r.transcript),
        ids: r.ids.size,
      });
    }, 0);
    return () => clearTimeout(timer);
  }, [analysis.transcript, counter, hideNames, structureRefusal]);
  const redaction =
    built &&
    structureRefusal === null &&
    built.transcript === analysis.transcript &&
    built.counter === counter &&
    built.hideNames === hideNames
      ? built
      : null;
  const structure = redaction
    ? buildShareLink(state, { text: redaction.text, redacted: true })
    : null;
  const structureLink = structure?.ok ? `${base}#${structure.fragment}` : null;
  const structureTooLarge =
    structureRefusal ?? (structure && !structure.ok ? structure.reason : null);

  const tokens = selectTokens(analysis.transcript, analysis.provider, counter);
  // The same memoised context, choices and budget clamp as the simulator (state/eviction.ts), so
  // the exports say exactly what the page shows.
  const evictions = useMemo((): {
    chosen: EvictionResult | null;
    alternative: EvictionResult | null;
  } => {
    if (fields.budget === null) return { chosen: null, alternative: null };
    const ctx = selectEvictionContext(analysis.transcript, tokens, analysis.provider);
    const choices = selectPolicyChoices(fields.policies, fields.policyOptions);
    const budget = effectiveBudget(fields.budget, ctx.table.total);
    const exchange = choices.find((c) => c.id === 'exchange')?.options ?? {};
    return {
      chosen: simulatePolicy(ctx, choices[0].id, budget, choices[0].options),
      alternative: simulatePolicy(ctx, 'exchange', budget, exchange),
    };
  }, [analysis, tokens, fields.budget, fields.policies, fields.policyOptions]);

  const baseName = (source.name || source.sampleId || 'transcript')
    .replace(/\.(jsonl?|gz)$/i, '')
    .replace(/[^\w.-]+/g, '_');
  const ext = analysis.transcript.listKey === 'lines' ? 'jsonl' : 'json';
  // The summary carries no transcript content unless the user ticks it in: by default its link
  // is the structure-only one (else the view only) and it is made from the structure-only copy.
  const summaryLink: SummaryLink = includeTranscript
    ? { url: fullLink, contains: view.carriesTranscript ? 'transcript' : 'view' }
    : structureLink !== null
      ? { url: structureLink, contains: 'structure' }
      : { url: `${base}#${buildViewOnlyFragment(state)}`, contains: 'view' };
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
  const [status, setStatus] = useState('');

  return (
    <div className="share-panel" data-testid="share-panel">
      <section>
        <h3>Link to this view</h3>
        {isStructureOnly(source) && (
          <p className="share-note">
            This page was opened from a structure-only link: placeholders stand in for every text.
          </p>
        )}
        <LinkRow label="Copy link" link={fullLink} testId="share-link" />
        {view.carriesTranscript && source.origin !== 'sample' && !isStructureOnly(source) && (
          <p className="share-note" data-testid="share-holds-text">
            This link holds the whole transcript, every text included (in the part after #, which
            browsers do not send to any server): whoever has the link can read it. To share without
            the texts, use the structure-only link below.
          </p>
        )}
        {!view.carriesTranscript && (
          <p className="share-warn" data-testid="share-view-only">
            This link holds the view only, not the transcript.{view.why ? ` ${view.why}` : ''}{' '}
            Whoever opens it must open {whatToOpen(source)} to see it: send the file along with the
            link.
          </p>
        )}
        {tooLong && (
          <p className="share-warn" data-testid="share-too-long">
            This link is {fmtInt(fullLink.length)} characters: chat tools and documents cut links
            above about {fmtInt(LINK_SOFT_LIMIT)}. Share the structure-only link below, or export
            the file.
          </p>
        )}
      </section>
      <section>
        <h3>Structure-only link</h3>
        <p className="share-note">
          In this link every text, tool input and result, the system prompt and tool descriptions
          become placeholders of the same token count; ids, uuids and session ids are renamed
          {redaction ? ` (${fmtInt(redaction.ids)} ids)` : ''}; times become a relative clock; a
          fine-tuned or custom model name becomes its public base.
        </p>
        <p className="share-note" data-testid="structure-keeps">
          What stays: the format, roles, block types and order, message positions, token counts,
          settings (thinking, tool choice, limits), usage figures and tool names (unless hidden:
          they name the tools, rarely a secret, and keep the provider&apos;s error texts readable) —
          so exchanges, arcs, violations and eviction results are the same.
        </p>
        <label>
          <input
            type="checkbox"
            checked={hideNames}
            onChange={(e) => setHideNames(e.target.checked)}
            data-testid="share-hide-names"
          />{' '}
          Hide tool names
        </label>
        {structureTooLarge !== null ? (
          <p className="share-warn" data-testid="structure-too-large">
            Too large for a link. {structureTooLarge} Share the file itself (or export it below)
            together with the view link above.
          </p>
        ) : structureLink !== null && redaction ? (
          <>
            <LinkRow
              label="Copy structure-only link"
              link={structureLink}
              testId="structure-link"
            />
            <details>
              <summary>Preview what is shared</summary>
              <pre className="share-preview" data-testid="structure-preview">
                {redaction.text}
              </pre>
            </details>
          </>
        ) : (
          <p className="share-note" data-testid="structure-building">
            Building the structure-only link…
          </p>
        )}
      </section>
      <section>
        <h3>Export</h3>
        <div className="share-exports">
          <button
            type="button"
            data-testid="export-kept"
            onClick={() =>
              downloadBlob(
                `${baseName}.${evictions.chosen ? `${evictions.chosen.policy}-${evictions.chosen.budget}.` : ''}${ext}`,
                new Blob([exportKeptSource(analysis.transcript, evictions.chosen)], {
                  type: 'application/json',
                }),
              )
            }
          >
            {evictions.chosen
              ? `Request after ${evictions.chosen.policy} at ${fmtInt(evictions.chosen.budget)} tokens`
              : 'Transcript'}{' '}
            (.{ext})
          </button>
          <button
            type="button"
            data-testid="export-kept-copy"
            onClick={() =>
              copy(exportKeptSource(analysis.transcript, evictions.chosen), (ok) =>
                setStatus(ok ? 'Request copied.' : 'Copy failed.'),
              )
            }
          >
            Copy request
          </button>
          <button
            type="button"
            data-testid="export-summary"
            onClick={() =>
              downloadBlob(
                `${baseName}-incident.md`,
                new Blob([summary()], { type: 'text/markdown' }),
              )
            }
          >
            Incident summary (.md)
          </button>
          <button
            type="button"
            data-testid="export-summary-copy"
            onClick={() =>
              copy(summary(), (ok) => setStatus(ok ? 'Summary copied.' : 'Copy failed.'))
            }
          >
            Copy summary
          </button>
          <button
            type="button"
            data-testid="export-svg"
            onClick={() =>
              downloadBlob(`${baseName}-timeline.svg`, new Blob([svg()], { type: 'image/svg+xml' }))
            }
          >
            Timeline (.svg)
          </button>
          <button
            type="button"
            data-testid="export-png"
            onClick={() =>
              void svgToPngBlob(svg()).then(
                (png) => downloadBlob(`${baseName}-timeline.png`, png),
                (e: unknown) =>
                  setStatus(`PNG export failed: ${e instanceof Error ? e.message : String(e)}`),
              )
            }
          >
            Timeline (.png)
          </button>
        </div>
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
          {LINK_SENTENCE[summaryLink.contains]}
        </p>
        {status && <p className="share-note">{status}</p>}
      </section>
    </div>
  );
}
