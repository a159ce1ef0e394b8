/**
 * The share panel's two link sections: "Link to this view" (with the transcript when it fits, or
 * the view only and why) and the structure-only link with what it keeps and a preview.
 */
import { isStructureOnly } from '../../state/permalink/storeLink.ts';
import type { Source } from '../../state/store.ts';
import { fmtCount, fmtInt } from '../format.ts';
import { LinkRow } from './ShareParts.tsx';
import { LINK_SOFT_LIMIT, whatToOpen, type ViewLink } from './shareLinks.ts';
import type { StructureRedaction } from './useShareData.ts';

/**
 * The link to this view, with what it holds: the whole transcript (every text), or the view only
 * (and what its reader must open), and a warning when it is too long for chat tools.
 */
export function ViewLinkSection({
  source,
  view,
  structureLink,
}: {
  source: Source;
  view: ViewLink;
  /** The structure-only link when built (null: none, or not yet): the warning weighs it too. */
  structureLink: string | null;
}) {
  const fullLink = view.link;
  const tooLong = fullLink.length > LINK_SOFT_LIMIT;
  return (
    <section>
      <h2>Link to this view</h2>
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
          This link holds the view only, not the transcript.{view.why ? ` ${view.why}` : ''} Whoever
          opens it must open {whatToOpen(source)} to see it: send the file along with the link.
        </p>
      )}
      {tooLong && (
        <p className="share-warn" data-testid="share-too-long">
          This link is {fmtInt(fullLink.length)} characters: chat tools and documents cut links
          above about {fmtInt(LINK_SOFT_LIMIT)}. {instead(structureLink)}
        </p>
      )}
    </section>
  );
}

/**
 * What to share instead of a view link that is too long: the structure-only link only when it is
 * short enough itself (the same rule, LINK_SOFT_LIMIT), else a file.
 */
function instead(structureLink: string | null): string {
  if (structureLink === null) return 'Export the file below and send it instead.';
  if (structureLink.length <= LINK_SOFT_LIMIT)
    return `Share the structure-only link below (${fmtInt(structureLink.length)} characters), or export the file.`;
  return `The structure-only link below is too long as well (${fmtInt(structureLink.length)} characters): download the structure-only copy or export the file below, and send the file instead.`;
}

/**
 * The structure-only link: what it replaces and keeps, the "Hide tool names" choice, then the
 * link and its preview, or why it is too large, or that it is still being built. When the link
 * above already says why (the same size limit), only a pointer to it: the reason is said once.
 * @param tooLarge why no structure-only link is offered (null when one is or will be)
 * @param saidAbove whether the view link's note already gives `tooLarge`
 */
export function StructureSection({
  hideNames,
  setHideNames,
  redaction,
  link,
  tooLarge,
  saidAbove,
  onDownload,
}: {
  /** Save the structure-only copy (`redaction.text`) as a file. */
  onDownload: () => void;
  hideNames: boolean;
  setHideNames: (hide: boolean) => void;
  redaction: StructureRedaction | null;
  link: string | null;
  tooLarge: string | null;
  saidAbove: boolean;
}) {
  if (tooLarge !== null && saidAbove)
    return (
      <section>
        <h2>Structure-only link</h2>
        <p className="share-note" data-testid="structure-too-large">
          Not offered for a transcript this size: see the link above.
        </p>
      </section>
    );
  return (
    <section>
      <h2>Structure-only link</h2>
      <p className="share-note" data-testid="structure-note">
        In this link every text, tool input and result, the system prompt and tool descriptions
        become placeholders of the same token count; ids, uuids and session ids are renamed
        {redaction ? ` (${fmtCount(redaction.ids, 'id')})` : ''}; times become a relative clock; a
        fine-tuned or custom model name becomes its public base.
      </p>
      <p className="share-note" data-testid="structure-keeps">
        What stays: the format, roles, block types and order, message positions, token counts,
        settings (thinking, tool choice, limits), usage figures and tool names (unless hidden: they
        name the tools, rarely a secret, and keep the provider&apos;s error texts readable) — so
        exchanges, arcs, violations and eviction results are the same.
      </p>
      {redaction && redaction.request !== null && (
        <p className="share-note" data-testid="structure-call">
          The call chosen is copied with the first message of its reply (a placeholder too), so the
          copy is a log whose call {fmtInt(redaction.request + 1)} is this one: the link opens on
          it. In the downloaded copy, choose call {fmtInt(redaction.request + 1)}.
        </p>
      )}
      <label>
        <input
          type="checkbox"
          checked={hideNames}
          onChange={(e) => setHideNames(e.target.checked)}
          data-testid="share-hide-names"
        />{' '}
        Hide tool names
      </label>
      {tooLarge !== null ? (
        <p className="share-warn" data-testid="structure-too-large">
          Too large for a link. {tooLarge} Share the file itself (or export it below) together with
          the view link above.
        </p>
      ) : redaction && redaction.problems.length > 0 ? (
        <UnsafeCopy problems={redaction.problems} />
      ) : link !== null && redaction ? (
        <>
          <LinkRow label="Copy structure-only link" link={link} testId="structure-link" />
          {link.length > LINK_SOFT_LIMIT && (
            <p className="share-warn" data-testid="structure-too-long">
              This link is {fmtInt(link.length)} characters too: chat tools and documents cut links
              above about {fmtInt(LINK_SOFT_LIMIT)}. Download the structure-only copy and send it as
              a file instead: whoever drops it on this page sees the same structure.
            </p>
          )}
          <button type="button" data-testid="structure-download" onClick={onDownload}>
            Download structure-only copy
          </button>
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
  );
}

/** Why no structure-only link is offered: where the copy breaks the contract (`problems`). */
function UnsafeCopy({ problems }: { problems: readonly string[] }) {
  return (
    <div className="share-warn" role="status" data-testid="structure-unsafe">
      <p>
        No structure-only link for this transcript: its copy would not read back as the original
        does, or would still hold some of it, so it could mislead whoever opens it. Share the file
        itself (or export it below) together with the view link above.
      </p>
      <ul>
        {problems.map((p) => (
          <li key={p}>{p}</li>
        ))}
      </ul>
    </div>
  );
}
