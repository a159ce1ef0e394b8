/**
 * The store side of permalinks: the store's permalink fields ⇄ a `PermalinkState`
 * (model/permalink), the share links built from the store (full, structure-only, view-only), and
 * the notice for a link that holds no transcript. Pure: no location or history (`urlSync.ts` is
 * the only module that touches those).
 */
import type { PolicyOptions } from '../../model/evict/types.ts';
import {
  encodePermalink,
  encodePermalinkChecked,
  type CheckedFragment,
  type PermalinkNotice,
} from '../../model/permalink/codec.ts';
import { displayName } from '../../model/displayName.ts';
import type { FaultSpec } from '../../model/faults.ts';
import type { FormatId } from '../../model/types.ts';
import {
  DEFAULT_PERMALINK_STATE,
  DiffViewSchema,
  FaultsSchema,
  MAX_REQUEST_INDEX,
  PolicyChoiceSchema,
  SourceNameSchema,
  type PermalinkDiff,
  type PermalinkPolicy,
  type PermalinkSource,
  type PermalinkState,
} from '../../model/permalink/schema.ts';
import type { AppState, DiffChoice, Source } from '../store.ts';

/**
 * Learn mode: the lesson step shown rides along as `learn=<step id>` (model/lesson.ts), so each
 * step has its own link. The permalink codec ignores the key; these two helpers add and read it.
 */
export function lessonFromFragment(fragment: string): string | null {
  const v = new URLSearchParams(fragment.replace(/^#/, '')).get('learn');
  return v !== null && /^[a-z0-9-]{1,60}$/.test(v) ? v : null;
}

/**
 * `fragment` with `learn=<lesson>` appended; unchanged when `lesson` is unset (null, undefined,
 * or not a step id): a key is never written without a value (no `learn=undefined`).
 */
export function withLesson(fragment: string, lesson: string | null | undefined): string {
  return typeof lesson !== 'string' || !/^[a-z0-9-]{1,60}$/.test(lesson)
    ? fragment
    : `${fragment}${fragment ? '&' : ''}learn=${encodeURIComponent(lesson)}`;
}

/**
 * The simulator panel open (`sim=1`) or collapsed (`sim=0`), as the user left it (issue 16);
 * absent = by the window's width. Rides along like `learn=`, outside the permalink codec.
 */
export function simulatorFromFragment(fragment: string): boolean | null {
  const v = new URLSearchParams(fragment.replace(/^#/, '')).get('sim');
  return v === '1' ? true : v === '0' ? false : null;
}

/** `fragment` with the lesson step (`withLesson`) and the simulator panel's state (`sim=`). */
export function withViewExtras(
  fragment: string,
  s: Pick<AppState, 'lesson' | 'simulator'>,
): string {
  const f = withLesson(fragment, s.lesson);
  return typeof s.simulator !== 'boolean' ? f : `${f}${f ? '&' : ''}sim=${s.simulator ? '1' : '0'}`;
}

/** `Source.name` of a transcript opened from a structure-only link (the store has no flag for it). */
export const STRUCTURE_ONLY_NAME = 'structure-only link';
/** `Source.name` of a transcript opened from a full link. */
export const LINKED_NAME = 'linked transcript';

/**
 * `PermalinkNotice.key` of the notice shown when a link holds a view but no transcript (a view-only
 * link, or one whose transcript was refused): the share bar offers a sample next to it.
 */
export const VIEW_ONLY_NOTICE_KEY = 'view-only';

/**
 * True when the store's source is the stand-in for a link that holds no transcript: nothing is
 * shown, `name` is the transcript the link was made for ('' when it does not say).
 */
export function isAwaitingTranscript(source: Source): boolean {
  return source.origin === 'link' && source.text === '' && !source.file;
}

/** A name a link may carry (`n=`), or undefined (no name, or one the schema refuses). */
function linkName(name: string): string | undefined {
  const r = SourceNameSchema.safeParse(name);
  return r.success ? r.data : undefined;
}

function policyFromStore(id: string, options: unknown, fallback: PermalinkPolicy): PermalinkPolicy {
  const o = (options ?? {}) as PolicyOptions;
  const candidate = {
    id,
    options: {
      pinFirst: o.pinFirst ?? false,
      keepNewestExchanges: o.keepNewestExchanges ?? 0,
      summaryTokens: o.summaryTokens ?? null,
      keepToolUses: o.keepToolUses ?? null,
    },
  };
  const r = PolicyChoiceSchema.safeParse(candidate);
  return r.success ? r.data : fallback;
}

/** The store's faults if they are in the link schema, else none (a link never carries junk). */
function faultsFromStore(faults: readonly FaultSpec[] | undefined): FaultSpec[] {
  if (!faults || faults.length === 0) return [];
  const r = FaultsSchema.safeParse(faults);
  return r.success ? (r.data as FaultSpec[]) : [];
}

/** The store's request index if the link schema takes it, else null (the parser's default). */
function requestFromStore(i: number | null): number | null {
  return i !== null && Number.isInteger(i) && i >= 0 && i <= MAX_REQUEST_INDEX ? i : null;
}

/**
 * The diff view as a link carries it: a pasted other side is not carried (null), nor, in a
 * structure-only copy, a diff of two requests of the original (the copy numbers its requests its
 * own way). The diff against the previous request stays when the copy holds it: a session call
 * copied with its reply opens as call `copied` (0-based) of the copy, whose earlier calls it holds.
 * @param copied the copy's request the link opens, or null (the copy is one request, whole)
 */
function diffFromStore(d: DiffChoice, redacted: boolean, copied: number | null): PermalinkDiff {
  if (!d || d.kind === 'pasted') return null;
  const previousKept = d.kind === 'previous' && copied !== null && copied > 0;
  if (redacted && d.kind !== 'cuts' && !previousKept) return null;
  const r = DiffViewSchema.safeParse(d);
  return r.success ? r.data : null;
}

/** The store's diff choice for a link's (`d=`). */
function diffFromLink(d: PermalinkDiff): DiffChoice {
  return d === null ? null : { ...d };
}

/** True when the store's source is a transcript opened from a structure-only link. */
export function isStructureOnly(source: Source): boolean {
  return source.origin === 'link' && source.text !== '' && source.name === STRUCTURE_ONLY_NAME;
}

/**
 * A text a link carries instead of the store's source: the structure-only copy (`redacted`),
 * which of its requests the link opens (0-based; absent or null: the text whole), and the format
 * to read it as when it is not detected as its own (`CheckedCopy.format`; else the store's).
 */
export interface InlineText {
  text: string;
  redacted: boolean;
  request?: number | null;
  /** The format the text must be read as (a copy not detected as its format), or null/absent. */
  format?: FormatId | null;
}

/**
 * The permalink fields of the store.
 * @param s the store state
 * @param inline which source to put in the link: `auto` = a sample id, or the text when it came
 *   from a link (the URL writer); `full` = also a pasted/dropped text (Copy link);
 *   `{text, redacted, request}` = this text instead (the structure-only link), and which of its
 *   requests to open (0-based: a session call copied with its reply, model/callCopy.ts; absent
 *   or null = none, the text whole). A redacted text is written from the view as shown (faults
 *   already applied), so that link carries no faults.
 *   A source not put in the link is a view-only link; it names the file it was made for (`n=`)
 *   when the source is a file (or the stand-in of a view-only link that named one).
 * @returns an in-schema permalink state (store values outside the schema fall back to defaults)
 */
export function permalinkFromStore(
  s: AppState,
  inline: 'auto' | 'full' | InlineText = 'auto',
): PermalinkState {
  const def = DEFAULT_PERMALINK_STATE.view;
  let source: PermalinkSource = { kind: 'none' };
  if (typeof inline === 'object')
    source = { kind: 'inline', text: inline.text, redacted: inline.redacted };
  else if (s.source.origin === 'sample' && s.source.sampleId)
    source = { kind: 'sample', id: s.source.sampleId };
  else if (s.source.text !== '' && (s.source.origin === 'link' || inline === 'full'))
    source = { kind: 'inline', text: s.source.text, redacted: isStructureOnly(s.source) };
  else if (s.source.origin === 'file' || isAwaitingTranscript(s.source)) {
    const name = linkName(s.source.name);
    if (name !== undefined) source = { kind: 'none', name };
  }
  const opts = s.policyOptions as Record<string, unknown>;
  const [a, b] = s.policies;
  // A structure-only copy is the request shown alone: it carries no request number of the
  // original (only the copy's own, when it holds a session call with its reply), and of the diff
  // views only the cuts (both sides are that request's) and, for a session call, the diff
  // against the previous call (the copy holds the earlier calls).
  const redacted = typeof inline === 'object' && inline.redacted;
  const copied = typeof inline === 'object' ? requestFromStore(inline.request ?? null) : null;
  const state: PermalinkState = {
    source,
    view: {
      format: (typeof inline === 'object' ? inline.format : null) ?? s.formatOverride,
      provider: s.provider,
      request: redacted ? copied : requestFromStore(s.requestIndex),
      model: s.model ?? null,
      budget: s.budget,
      policy: policyFromStore(a, opts[a], def.policy),
      compare: policyFromStore(b, opts[b], def.compare),
      selection: s.selection,
      anchor: s.anchor,
      faults: redacted ? [] : faultsFromStore(s.faults),
      diff: diffFromStore(s.diff, redacted, copied),
    },
  };
  return state;
}

/**
 * The store fields a permalink sets. `policyOptions` is keyed by policy id
 * (`{exchange: {keepNewestExchanges: 2}}`); a sample source leaves `text` empty for the page to
 * load the sample by `sampleId`.
 */
export function storePatchFromPermalink(p: PermalinkState): Partial<AppState> {
  const patch: Partial<AppState> = {
    formatOverride: p.view.format,
    provider: p.view.provider,
    requestIndex: p.view.request,
    diff: diffFromLink(p.view.diff),
    model: p.view.model,
    budget: p.view.budget,
    policies: [p.view.policy.id, p.view.compare.id],
    policyOptions: {
      [p.view.compare.id]: { ...p.view.compare.options },
      [p.view.policy.id]: { ...p.view.policy.options },
    },
    selection: p.view.selection,
    anchor: p.view.anchor,
    faults: p.view.faults,
  };
  if (p.source.kind === 'sample')
    patch.source = { text: '', name: '', origin: 'sample', sampleId: p.source.id };
  else if (p.source.kind === 'inline')
    patch.source = {
      text: p.source.text,
      name: p.source.redacted ? STRUCTURE_ONLY_NAME : LINKED_NAME,
      origin: 'link',
    };
  return patch;
}

/** True when a view carries anything beyond the defaults (a link worth keeping as it is). */
export function hasView(p: PermalinkState): boolean {
  const v = p.view;
  const d = DEFAULT_PERMALINK_STATE.view;
  return (
    v.format !== d.format ||
    v.provider !== d.provider ||
    v.model !== d.model ||
    v.budget !== d.budget ||
    JSON.stringify([v.policy, v.compare]) !== JSON.stringify([d.policy, d.compare]) ||
    v.selection !== null ||
    v.anchor !== null ||
    v.faults.length > 0 ||
    v.request !== null ||
    v.diff !== null
  );
}

/** "budget 5,000,000 tokens, message vs exchange": what a view-only link will show, in short. */
export function describeView(p: PermalinkState): string {
  const v = p.view;
  const parts: string[] = [];
  if (v.request !== null) parts.push(`request ${v.request + 1}`);
  if (v.budget !== null) parts.push(`budget ${v.budget.toLocaleString('en-US')} tokens`);
  parts.push(`policy ${v.policy.id} compared with ${v.compare.id}`);
  if (v.provider !== null) parts.push(`${v.provider} rules`);
  if (v.model !== null) parts.push(`model ${v.model}`);
  if (v.faults.length > 0) parts.push(`${v.faults.length} applied fault(s)`);
  if (v.diff !== null) parts.push('the diff view');
  return parts.join(', ');
}

/**
 * The notice for a link that holds a view but no transcript.
 * @param p the decoded link
 * @param refused true when the link had a transcript that was refused (its own notice says why)
 */
export function viewOnlyNotice(p: PermalinkState, refused: boolean): PermalinkNotice {
  const name = p.source.kind === 'none' ? p.source.name : undefined;
  const view = describeView(p);
  const message = refused
    ? `No transcript is shown: the one in this link was refused (see above). The link's view (${view}) is kept in the address; open the transcript as a file to see it.`
    : name !== undefined
      ? `This link holds a view only (${view}), not the transcript. It was made for the file “${name}”: open that file to see the shared view. No transcript is shown until then.`
      : `This link holds a view only (${view}), not the transcript, and does not say which transcript it was made for: open the one you were sent with it to see the shared view. No transcript is shown until then.`;
  return refused
    ? { key: VIEW_ONLY_NOTICE_KEY, message }
    : { key: VIEW_ONLY_NOTICE_KEY, message, tone: 'info' };
}

/**
 * The notice for a link naming a sample this page does not have: nothing is shown in its place
 * (the link's view is not put on another transcript), and the share bar offers a sample. A link
 * opened in a tab already showing a transcript (an address changed in place) leaves that one on
 * screen, and the notice says so rather than "no transcript is shown" (newcomer: the invoice
 * sample stayed fully shown under that sentence).
 * @param id the sample id the link names (shown with bidi controls as code points)
 * @param keptShown true when a transcript is on screen and stays there
 */
export function unknownSampleNotice(id: string, keptShown = false): PermalinkNotice {
  const unknown = `This page has no sample “${displayName(id)}” (the link may be mistyped, or made by another version of the page)`;
  return {
    key: VIEW_ONLY_NOTICE_KEY,
    message: keptShown
      ? `${unknown}. The transcript shown is still the one you had before this link; the link's sample is not shown. Pick one from the Sample menu, or paste or drop a transcript.`
      : `${unknown}: no transcript is shown. Pick one from the Sample menu, or paste or drop a transcript.`,
  };
}

/**
 * The fragment (no `#`) of a link to share: the current view plus a source (and the lesson step
 * in Learn mode).
 * @param s the store state
 * @param inline `full` to carry a pasted transcript, or the structure-only text
 */
export function buildShareFragment(s: AppState, inline: 'full' | InlineText): string {
  return withViewExtras(encodePermalink(permalinkFromStore(s, inline)), s);
}

/**
 * `buildShareFragment`, checked against the decoder's limits (`encodePermalinkChecked`): a link
 * it returns opens in full on this page.
 * @param s the store state
 * @param inline `full` to carry a pasted transcript, or the structure-only text
 * @returns the fragment (no `#`, with the lesson step), or why it is refused (size and limit)
 */
export function buildShareLink(s: AppState, inline: 'full' | InlineText): CheckedFragment {
  const r = encodePermalinkChecked(permalinkFromStore(s, inline));
  return r.ok ? { ok: true, fragment: withViewExtras(r.fragment, s) } : r;
}

/**
 * A view-only link's fragment for the store: the view, and the name of the file it was made for
 * when the source is a file (never the transcript itself).
 * @param opts `withName: false` leaves the file's name out (`n=`): the link inside a summary made
 *   from the structure-only copy, which carries no name of the user's (issue 37)
 */
export function buildViewOnlyFragment(s: AppState, opts: { withName?: boolean } = {}): string {
  const state = permalinkFromStore(s);
  const name =
    opts.withName === false
      ? undefined
      : state.source.kind === 'none'
        ? state.source.name
        : s.source.origin === 'file'
          ? linkName(s.source.name)
          : undefined;
  state.source = name === undefined ? { kind: 'none' } : { kind: 'none', name };
  return withViewExtras(encodePermalink(state), s);
}
