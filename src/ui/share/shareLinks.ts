/**
 * The links of the share panel, decided before anything is rendered: the "Link to this view"
 * (with the transcript when it fits, else the view only and why), what a reader of a view-only
 * link must open, the length above which a link is too long to share, and the exports' file names.
 */
import { inlineSizeRefusal } from '../../model/permalink/inline.ts';
import {
  buildShareLink,
  buildViewOnlyFragment,
  isAwaitingTranscript,
} from '../../state/permalink/storeLink.ts';
import type { Transcript } from '../../model/types.ts';
import type { AppState, Source } from '../../state/store.ts';

/**
 * Above this many characters a link is offered as structure-only first. Chat tools and document
 * editors truncate or refuse long links (and many proxies cap a request line at 8 KiB), so a
 * link past ~8 KB often arrives cut off; a file export is the way to share more.
 */
export const LINK_SOFT_LIMIT = 8 * 1024;

/** The exports' file name stem: the source's name without .json/.jsonl/.gz, safe characters only. */
export function exportBaseName(source: Source): string {
  return (source.name || source.sampleId || 'transcript')
    .replace(/\.(jsonl?|gz)$/i, '')
    .replace(/[^\w.-]+/g, '_');
}

/** The exports' extension for a transcript: `jsonl` for a log's lines, else `json`. */
export function exportExt(t: Transcript): 'json' | 'jsonl' {
  return t.listKey === 'lines' ? 'jsonl' : 'json';
}

/**
 * The file name of the transcript the page writes back (the export beside the original): the
 * request a policy keeps at a budget (`<base>.<policy>-<budget>.<ext>`), else the transcript as
 * read (`<base>.as-read.<ext>`) or with the faults applied (`<base>.with-faults.<ext>`), never
 * the original's own `<base>.<ext>`, whose bytes differ.
 * @param kept the primary policy and budget whose kept request is exported, or null
 * @param modified faults are applied to the transcript shown
 */
export function keptExportName(
  baseName: string,
  ext: string,
  kept: { policy: string; budget: number } | null,
  modified: boolean,
): string {
  const what = kept ? `${kept.policy}-${kept.budget}` : modified ? 'with-faults' : 'as-read';
  return `${baseName}.${what}.${ext}`;
}

/**
 * The file name of the incident summary or the timeline (issue 37): neutral (`incident.md`,
 * `timeline.svg`, `timeline.png`) for an export made from the structure-only copy, which names
 * nothing of the user's; `<base>-incident.md`, `<base>-timeline.svg` when the user chose to put
 * the transcript in the summary, or the message previews (and the file's name) in the timeline.
 * @param withName the summary's "Include the transcript" or the timeline's "Include message
 *   previews" is ticked
 */
export function shareExportName(
  what: 'incident' | 'timeline',
  ext: string,
  baseName: string,
  withName: boolean,
): string {
  return withName ? `${baseName}-${what}.${ext}` : `${what}.${ext}`;
}

/**
 * The source's size in bytes as far as it is known without reading it: a file's size, else its
 * text's UTF-16 length (a lower bound of its UTF-8 size). The cheap estimate that decides whether
 * an inline link is built at all.
 */
export function sourceBytes(source: Source): number {
  return source.file ? source.file.size : source.text.length;
}

/** "the file “a.jsonl”" / "the same transcript": what a view-only link's reader must open. */
export function whatToOpen(source: Source): string {
  return source.origin === 'file' || (isAwaitingTranscript(source) && source.name !== '')
    ? `the same file (“${source.name}”)`
    : 'the same transcript';
}

/** The "Link to this view" and what it holds. */
export interface ViewLink {
  link: string;
  /** False for a view-only link (the reader must open the transcript), with `why`. */
  carriesTranscript: boolean;
  why: string | null;
}

/** The "Link to this view": with the transcript when it fits, else the view only and why. */
export function viewLink(state: AppState, base: string): ViewLink {
  const s = state.source;
  const viewOnly = () => `${base}#${buildViewOnlyFragment(state)}`;
  if (s.origin === 'sample' && s.sampleId) {
    // The sample goes by name (`src=`): no inline text, nothing to check but the fragment.
    const r = buildShareLink(state, 'full');
    return r.ok
      ? { link: `${base}#${r.fragment}`, carriesTranscript: true, why: null }
      : { link: viewOnly(), carriesTranscript: false, why: r.reason };
  }
  if (isAwaitingTranscript(s))
    return {
      link: viewOnly(),
      carriesTranscript: false,
      why: 'This page was opened from a view-only link.',
    };
  // A streamed file (no text held) or a text above the decoder's limit: decided from the size
  // alone, before anything is encoded.
  const quick = inlineSizeRefusal(sourceBytes(s));
  if (s.text === '' || quick !== null)
    return { link: viewOnly(), carriesTranscript: false, why: quick };
  const r = buildShareLink(state, 'full');
  return r.ok
    ? { link: `${base}#${r.fragment}`, carriesTranscript: true, why: null }
    : { link: viewOnly(), carriesTranscript: false, why: r.reason };
}
