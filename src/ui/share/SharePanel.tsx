/**
 * The share panel (issues 6 and 15): the link to this view, the structure-only link with what
 * it keeps and a preview of all it carries, and the exports (request, incident summary,
 * timeline). Everything is built in the page: nothing goes to a server.
 */
import { useState } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { Analysis } from '../../model/analyze.ts';
import type { Message } from '../../model/types.ts';
import { selectTokens } from '../../state/selectors.ts';
import { useAppStore, type AppState, type Source } from '../../state/store.ts';
import { buildShareLink, buildViewOnlyFragment } from '../../state/permalink/storeLink.ts';
import { pageUrlWithoutHash } from '../../state/urlSync.ts';
import { useTextCounter } from '../useSession.ts';
import { downloadBlob } from './download.ts';
import { ExportSection } from './ShareExports.tsx';
import { StructureSection, ViewLinkSection } from './ShareSections.tsx';
import { originalExport } from './originalExport.ts';
import { exportBaseName, exportExt, viewLink } from './shareLinks.ts';
import { useShareEvictions, useStructureRedaction } from './useShareData.ts';

export { LINK_SOFT_LIMIT } from './shareLinks.ts';

const selectLinkFields = (s: AppState) => ({
  source: s.source,
  formatOverride: s.formatOverride,
  provider: s.provider,
  requestIndex: s.requestIndex,
  diff: s.diff,
  budget: s.budget,
  policies: s.policies,
  policyOptions: s.policyOptions,
  selection: s.selection,
  anchor: s.anchor,
  faults: s.faults,
  lesson: s.lesson,
  simulator: s.simulator,
});

/**
 * The share panel's content.
 * @param shown the source of the transcript on screen: the links carry it, not a newer text that
 *   failed to parse (issue 15); null = the store's
 * @param callReply the chosen session call's reply (`ParsedTranscript.callReply`): the
 *   structure-only link carries the call with it and opens on that call
 */
export function Panel({
  analysis,
  shown,
  callReply,
}: {
  analysis: Analysis;
  shown: Source | null;
  callReply?: Message | undefined;
}) {
  // Placeholders are fitted to exact counts: the panel loads the page's exact counter (issue 38:
  // nothing else on the page needs it for a transcript the worker counts), and the copy waits.
  const { counter, loading } = useTextCounter(true);
  const fields = useAppStore(useShallow(selectLinkFields));
  const [hideNames, setHideNames] = useState(false);
  const source = shown ?? fields.source;
  const state = { ...fields, source } as AppState;
  const base = pageUrlWithoutHash();
  const view = viewLink(state, base);

  const { redaction, refusal, building } = useStructureRedaction(
    analysis.transcript,
    counter,
    hideNames,
    source,
    loading,
    callReply,
  );
  // A copy that breaks the contract is never linked (StructureSection says why).
  const structure =
    redaction && redaction.problems.length === 0
      ? buildShareLink(state, {
          text: redaction.text,
          redacted: true,
          request: redaction.request,
          format: redaction.format,
        })
      : null;
  const structureLink = structure?.ok ? `${base}#${structure.fragment}` : null;
  const structureTooLarge = refusal ?? (structure && !structure.ok ? structure.reason : null);

  const tokens = selectTokens(analysis.transcript, analysis.provider, counter);
  const evictions = useShareEvictions(analysis, tokens, fields);
  const baseName = exportBaseName(source);
  const modified = fields.faults.length > 0;

  return (
    <div className="share-panel" data-testid="share-panel">
      <ViewLinkSection source={source} view={view} structureLink={structureLink} />
      <StructureSection
        hideNames={hideNames}
        setHideNames={setHideNames}
        redaction={redaction}
        link={structureLink}
        tooLarge={structureTooLarge}
        saidAbove={!view.carriesTranscript && structureTooLarge === view.why}
        onDownload={() => {
          if (redaction)
            downloadBlob(
              `${baseName}.structure-only.${exportExt(analysis.transcript)}`,
              new Blob([redaction.text], { type: 'application/json' }),
            );
        }}
      />
      <ExportSection
        analysis={analysis}
        counter={counter}
        tokens={tokens}
        evictions={evictions}
        links={{
          full: view.link,
          carriesTranscript: view.carriesTranscript,
          structure: structureLink,
          structureBuilding: building,
          viewOnly: () => `${base}#${buildViewOnlyFragment(state, { withName: false })}`,
        }}
        hideNames={hideNames}
        baseName={baseName}
        source={{
          original: originalExport(source, modified, baseName, exportExt(analysis.transcript)),
          modified,
        }}
      />
    </div>
  );
}
