/**
 * The work done off the main thread: parse the text, then analyse it for a provider (the faults
 * applied first when the request has some). Each stage is memoised by its inputs in an
 * `InspectStages` (parse on text/name/format, analysis on parse result/provider), so switching
 * the provider re-validates without re-parsing. Pure: runs in the worker and, as the
 * synchronous fallback, on the main thread and in tests.
 */
import { analyze, type Analysis } from '../model/analyze.ts';
import { faultTranscript, type AppliedFaults } from '../model/faultedAnalysis.ts';
import type { FaultSpec } from '../model/faults.ts';
import { defaultProviderOf } from '../model/validate/index.ts';
import { withSessionCall } from '../model/sessionCall.ts';
import {
  parseDocument,
  parseTranscript,
  readSource,
  type ParseOptions,
  type ParsedTranscript,
} from '../model/parse/index.ts';
import type { SourceDoc } from '../model/parse/json.ts';
import type { FormatId, ParseError, ProviderId, Result } from '../model/types.ts';
import type { InspectRequest, Inspection } from './protocol.ts';

/**
 * The ParseError for a stage that threw: a parser or analysis bug must not take the page down, so
 * it is reported as a shape error naming the stage.
 */
export function thrownError(stage: 'parser' | 'analysis', e: unknown): ParseError {
  const what = stage === 'parser' ? 'The parser failed' : 'Analysis failed';
  return {
    kind: 'shape',
    message: `${what} on this input: ${e instanceof Error ? e.message : String(e)}`,
  };
}

/**
 * The parse options of a request's choices (format, file name, which request of a file, the
 * model to judge as).
 */
export function parseOptionsOf(
  name: string,
  format: FormatId | null,
  requestIndex?: number,
  model?: string,
): ParseOptions {
  return {
    ...(format ? { format } : {}),
    ...(name ? { name } : {}),
    ...(requestIndex !== undefined ? { requestIndex } : {}),
    ...(model ? { model } : {}),
  };
}

/**
 * A session log's call `k` as the request shown (`withSessionCall`); the log as it is when the
 * calls cannot be read from `doc` (a streamed file's records released after its parse).
 */
function sessionCallOf(
  doc: SourceDoc,
  parsed: ParsedTranscript,
  k: number | undefined,
): ParsedTranscript {
  try {
    return withSessionCall(doc, parsed, k);
  } catch {
    return parsed;
  }
}

/**
 * Parse a document already read (a streamed file). Never throws. With `narrow: false` a session
 * log is not narrowed to call `requestIndex` (the caller reads its calls: runRequests.ts).
 */
export function safeParseDoc(
  doc: SourceDoc,
  name: string,
  format: FormatId | null,
  requestIndex?: number,
  model?: string,
  opts: { narrow?: boolean } = {},
): Result<ParsedTranscript> {
  try {
    const r = parseDocument(doc, parseOptionsOf(name, format, requestIndex, model));
    if (!r.ok || opts.narrow === false) return r;
    return { ok: true, value: sessionCallOf(doc, r.value, requestIndex) };
  } catch (e) {
    return { ok: false, error: thrownError('parser', e) };
  }
}

/**
 * The inspect stages with their one-slot memos: parse (on text, name, format, request, model),
 * analysis (on the parse by reference and the provider), faults (on the parse and the faults by
 * value) and the faulted analysis. One per realm that inspects: the inspect worker's (`run`,
 * runState.ts) and each synchronous client's (syncClient.ts: the page's fallback, owned by the
 * session through its client), never a module's.
 */
export class InspectStages {
  private lastParse: {
    text: string;
    name: string;
    format: FormatId | null;
    requestIndex: number | undefined;
    model: string | undefined;
    result: Result<ParsedTranscript>;
  } | null = null;
  private lastAnalysis: {
    parsed: ParsedTranscript;
    provider: ProviderId | null;
    analysis: Analysis;
  } | null = null;
  private lastFaults: {
    parsed: ParsedTranscript;
    key: string;
    shown: ParsedTranscript;
    applied: AppliedFaults;
  } | null = null;
  /** Beside `lastAnalysis`, so removing the faults finds the loaded analysis there. */
  private lastFaulted: {
    shown: ParsedTranscript;
    provider: ProviderId;
    analysis: Analysis;
  } | null = null;

  /**
   * Parse stage, memoised on (text, name, format, requestIndex, model). Never throws: failures
   * are ParseErrors.
   */
  parse(
    text: string,
    name: string,
    format: FormatId | null,
    requestIndex?: number,
    model?: string,
  ): Result<ParsedTranscript> {
    const last = this.lastParse;
    if (
      last &&
      last.text === text &&
      last.name === name &&
      last.format === format &&
      last.requestIndex === requestIndex &&
      last.model === model
    )
      return last.result;
    let result: Result<ParsedTranscript>;
    try {
      result = parseTranscript(text, parseOptionsOf(name, format, requestIndex, model));
      if (result.ok && requestIndex !== undefined && !result.value.requests) {
        const doc = readSource(text, name || undefined);
        if (doc.ok)
          result = { ok: true, value: sessionCallOf(doc.value, result.value, requestIndex) };
      }
    } catch (e) {
      result = { ok: false, error: thrownError('parser', e) };
    }
    this.lastParse = { text, name, format, requestIndex, model, result };
    return result;
  }

  /** Analysis stage, memoised on (parse result by reference, provider). */
  analyze(parsed: ParsedTranscript, provider: ProviderId | null): Analysis {
    const last = this.lastAnalysis;
    if (last && last.parsed === parsed && last.provider === provider) return last.analysis;
    const analysis = analyze(parsed.transcript, provider ?? undefined);
    this.lastAnalysis = { parsed, provider, analysis };
    return analysis;
  }

  /** Analyse a parse for a provider (memoised, `analyze`). Never throws. */
  safeAnalyze(parsed: ParsedTranscript, provider: ProviderId | null): Inspection {
    try {
      return { ok: true, parsed, analysis: this.analyze(parsed, provider) };
    } catch (e) {
      return { ok: false, error: thrownError('analysis', e) };
    }
  }

  /**
   * Fault stage, memoised on (parse result by reference, the faults by value): the faults
   * applied to the parsed transcript (`faultTranscript`), as a parse whose transcript is the
   * display copy, so that another provider for the same faults reuses the messages the page holds.
   */
  faults(
    parsed: ParsedTranscript,
    faults: readonly FaultSpec[],
  ): { shown: ParsedTranscript; applied: AppliedFaults } {
    const key = JSON.stringify(faults);
    const last = this.lastFaults;
    if (last && last.parsed === parsed && last.key === key) return last;
    const f = faultTranscript(parsed.transcript, faults);
    const next = { parsed, key, shown: { ...parsed, transcript: f.shown }, applied: f.applied };
    this.lastFaults = next;
    return next;
  }

  /**
   * Analyse a parse for a provider with the request's faults applied first (`faults`), for the
   * provider the loaded transcript is judged for (the choice, else its format's default);
   * without faults, `safeAnalyze`. Never throws.
   * @returns with faults: `parsed` and `analysis` of the faulted transcript (re-indexed for
   *   display) and `faults`, what they did
   */
  safeInspect(
    parsed: ParsedTranscript,
    provider: ProviderId | null,
    faults: readonly FaultSpec[] | undefined,
  ): Inspection {
    if (!faults || faults.length === 0) return this.safeAnalyze(parsed, provider);
    try {
      const { shown, applied } = this.faults(parsed, faults);
      const p = provider ?? defaultProviderOf(parsed.transcript);
      const last = this.lastFaulted;
      const analysis =
        last && last.shown === shown && last.provider === p
          ? last.analysis
          : analyze(shown.transcript, p);
      this.lastFaulted = { shown, provider: p, analysis };
      return { ok: true, parsed: shown, analysis, faults: applied };
    } catch (e) {
      return { ok: false, error: thrownError('analysis', e) };
    }
  }

  /**
   * Parse and analyse (the request's faults applied: `safeInspect`).
   * @returns `{ok: true, parsed, analysis}` (and `faults`) or `{ok: false, error}` (a ParseError
   *   with a location for bad JSON). Never throws.
   */
  inspect(req: InspectRequest): Inspection {
    const parsed = this.parse(req.text, req.name, req.format, req.requestIndex, req.model);
    if (!parsed.ok) return { ok: false, error: parsed.error };
    return this.safeInspect(parsed.value, req.provider, req.faults);
  }
}

/**
 * Parse and analyse once, with no memo kept (tests, and callers that inspect one text): the
 * request's faults applied. See `InspectStages.inspect`.
 */
export function inspect(req: InspectRequest): Inspection {
  return new InspectStages().inspect(req);
}
