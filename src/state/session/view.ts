/**
 * The request the store's inputs make, and the view the page shows of the engine's answers: the
 * last good analysis next to the current parse error (a failure keeps what the page showed).
 */
import type { Analysis } from '../../model/analyze.ts';
import type { AppliedFaults } from '../../model/faultedAnalysis.ts';
import type { FaultSpec } from '../../model/faults.ts';
import type { ParsedTranscript } from '../../model/parse/index.ts';
import type { FormatId, ParseError, ProviderId } from '../../model/types.ts';
import type { InspectRequest, Inspection } from '../../engine/protocol.ts';
import type { AppState } from '../store.ts';
import { memoN } from './memo.ts';

/** One request object per distinct inputs (one slot, in the session's memo table). */
const requestOf = memoN(
  (
    text: string,
    name: string,
    format: FormatId | null,
    provider: ProviderId | null,
    file: Blob | undefined,
    requestIndex: number | undefined,
    model: string | undefined,
    faults: readonly FaultSpec[] | undefined,
  ): InspectRequest => ({
    text,
    name,
    format,
    provider,
    ...(file ? { file } : {}),
    ...(requestIndex !== undefined ? { requestIndex } : {}),
    ...(model ? { model } : {}),
    ...(faults && faults.length > 0 ? { faults } : {}),
  }),
);

/**
 * The inspect request for the store's inputs, faults included (the engine applies them: the
 * answer is the faulted transcript's); the same object while those inputs do not change.
 */
export function selectRequest(
  s: Pick<AppState, 'source' | 'formatOverride' | 'provider'> &
    Partial<Pick<AppState, 'requestIndex' | 'model' | 'faults'>>,
): InspectRequest {
  return requestOf(
    s.source.text,
    s.source.name,
    s.formatOverride,
    s.provider,
    s.source.file,
    s.requestIndex ?? undefined,
    s.model ?? undefined,
    s.faults,
  );
}

/** What the page shows: the latest good analysis, and the current parse error if any. */
export interface InspectorView {
  /** The request the view answers (compared by reference to drop stale worker answers). */
  request: InspectRequest | null;
  /** The last transcript that parsed; kept when newer text fails to parse. */
  analysis: Analysis | null;
  parsed: ParsedTranscript | null;
  /** What the faults of `analysis`'s request did (the engine's), or null without faults. */
  faults: AppliedFaults | null;
  /** The parse failure of the current text, or null. */
  error: ParseError | null;
}

export const EMPTY_VIEW: InspectorView = {
  request: null,
  analysis: null,
  parsed: null,
  faults: null,
  error: null,
};

/**
 * Fold an inspection into the view: success replaces the transcript; failure keeps the previous
 * transcript and adds the error (nothing is cleared until new text parses).
 */
export function nextView(
  prev: InspectorView,
  request: InspectRequest,
  result: Inspection,
): InspectorView {
  if (result.ok)
    return {
      request,
      analysis: result.analysis,
      parsed: result.parsed,
      faults: result.faults ?? null,
      error: null,
    };
  return {
    request,
    analysis: prev.analysis,
    parsed: prev.parsed,
    faults: prev.faults,
    error: result.error,
  };
}

/** True when two requests ask for the same inspection (same text or file, name and choices). */
export function sameRequest(a: InspectRequest, b: InspectRequest): boolean {
  return (
    a.text === b.text &&
    a.name === b.name &&
    a.format === b.format &&
    a.provider === b.provider &&
    a.file === b.file &&
    a.requestIndex === b.requestIndex &&
    a.model === b.model &&
    (a.faults === b.faults || JSON.stringify(a.faults) === JSON.stringify(b.faults))
  );
}

/**
 * The request to count again so that `view`'s transcript gets its exact token table, or null when
 * none is needed: the view is settled on `request`, shows an analysis that answered an older
 * request (the current one failed, was refused or cancelled) and that analysis has no exact table.
 * The exact count of that older answer may have been dropped by the newer request.
 */
export function recountShown(
  view: InspectorView,
  request: InspectRequest,
  hasExact: (a: Analysis) => boolean,
  answered: (a: Analysis) => InspectRequest | undefined,
): InspectRequest | null {
  const a = view.analysis;
  if (!a || view.request !== request || hasExact(a)) return null;
  const req = answered(a);
  return req && req !== request ? req : null;
}
