/**
 * The work done off the main thread: parse the text, then analyse it for a provider. Each stage
 * is memoised by its inputs (parse on text/name/format, analysis on parse result/provider), so
 * switching the provider re-validates without re-parsing. Pure: runs in the worker and, as the
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

/** Analyse a parse for a provider (memoised, `analyzeStage`). Never throws. */
export function safeAnalyze(parsed: ParsedTranscript, provider: ProviderId | null): Inspection {
  try {
    return { ok: true, parsed, analysis: analyzeStage(parsed, provider) };
  } catch (e) {
    return { ok: false, error: thrownError('analysis', e) };
  }
}

// eslint-disable-next-line cache/no-module-cache -- the parse stage's one-slot memo, in the inspect worker's realm (and the page's fallback client when no worker runs)
let lastParse: {
  text: string;
  name: string;
  format: FormatId | null;
  requestIndex: number | undefined;
  model: string | undefined;
  result: Result<ParsedTranscript>;
} | null = null;
// eslint-disable-next-line cache/no-module-cache -- the analysis stage's one-slot memo, beside lastParse (same realm)
let lastAnalysis: {
  parsed: ParsedTranscript;
  provider: ProviderId | null;
  analysis: Analysis;
} | null = null;

/**
 * Parse stage, memoised on (text, name, format, requestIndex, model). Never throws: failures are
 * ParseErrors.
 */
export function parseStage(
  text: string,
  name: string,
  format: FormatId | null,
  requestIndex?: number,
  model?: string,
): Result<ParsedTranscript> {
  if (
    lastParse &&
    lastParse.text === text &&
    lastParse.name === name &&
    lastParse.format === format &&
    lastParse.requestIndex === requestIndex &&
    lastParse.model === model
  )
    return lastParse.result;
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
  lastParse = { text, name, format, requestIndex, model, result };
  return result;
}

/** Analysis stage, memoised on (parse result by reference, provider). */
export function analyzeStage(parsed: ParsedTranscript, provider: ProviderId | null): Analysis {
  if (lastAnalysis && lastAnalysis.parsed === parsed && lastAnalysis.provider === provider)
    return lastAnalysis.analysis;
  const analysis = analyze(parsed.transcript, provider ?? undefined);
  lastAnalysis = { parsed, provider, analysis };
  return analysis;
}

// eslint-disable-next-line cache/no-module-cache -- the fault stage's one-slot memo, beside lastParse (same realm)
let lastFaults: {
  parsed: ParsedTranscript;
  key: string;
  shown: ParsedTranscript;
  applied: AppliedFaults;
} | null = null;
// eslint-disable-next-line cache/no-module-cache -- the faulted analysis' one-slot memo, beside lastAnalysis (so removing the faults finds the loaded analysis there)
let lastFaulted: { shown: ParsedTranscript; provider: ProviderId; analysis: Analysis } | null =
  null;

/**
 * Fault stage, memoised on (parse result by reference, the faults by value): the faults applied
 * to the parsed transcript (`faultTranscript`), as a parse whose transcript is the display copy,
 * so that another provider for the same faults reuses the messages the page holds.
 */
export function faultStage(
  parsed: ParsedTranscript,
  faults: readonly FaultSpec[],
): { shown: ParsedTranscript; applied: AppliedFaults } {
  const key = JSON.stringify(faults);
  if (lastFaults && lastFaults.parsed === parsed && lastFaults.key === key) return lastFaults;
  const f = faultTranscript(parsed.transcript, faults);
  lastFaults = { parsed, key, shown: { ...parsed, transcript: f.shown }, applied: f.applied };
  return lastFaults;
}

/**
 * Analyse a parse for a provider with the request's faults applied first (`faultStage`), for
 * the provider the loaded transcript is judged for (the choice, else its format's default);
 * without faults, `safeAnalyze`. Never throws.
 * @returns with faults: `parsed` and `analysis` of the faulted transcript (re-indexed for
 *   display) and `faults`, what they did
 */
export function safeInspect(
  parsed: ParsedTranscript,
  provider: ProviderId | null,
  faults: readonly FaultSpec[] | undefined,
): Inspection {
  if (!faults || faults.length === 0) return safeAnalyze(parsed, provider);
  try {
    const { shown, applied } = faultStage(parsed, faults);
    const p = provider ?? defaultProviderOf(parsed.transcript);
    if (!lastFaulted || lastFaulted.shown !== shown || lastFaulted.provider !== p)
      lastFaulted = { shown, provider: p, analysis: analyze(shown.transcript, p) };
    return { ok: true, parsed: shown, analysis: lastFaulted.analysis, faults: applied };
  } catch (e) {
    return { ok: false, error: thrownError('analysis', e) };
  }
}

/**
 * Parse and analyse (the request's faults applied: `safeInspect`).
 * @returns `{ok: true, parsed, analysis}` (and `faults`) or `{ok: false, error}` (a ParseError
 *   with a location for bad JSON). Never throws.
 */
export function inspect(req: InspectRequest): Inspection {
  const parsed = parseStage(req.text, req.name, req.format, req.requestIndex, req.model);
  if (!parsed.ok) return { ok: false, error: parsed.error };
  return safeInspect(parsed.value, req.provider, req.faults);
}
