/**
 * The work done off the main thread: parse the text, then analyse it for a provider. Each stage
 * is memoised by its inputs (parse on text/name/format, analysis on parse result/provider), so
 * switching the provider re-validates without re-parsing. Pure: runs in the worker and, as the
 * synchronous fallback, on the main thread and in tests.
 */
import { analyze, type Analysis } from '../model/analyze.ts';
import { parseTranscript, type ParsedTranscript } from '../model/parse/index.ts';
import type { FormatId, ProviderId, Result } from '../model/types.ts';
import type { InspectRequest, Inspection } from './protocol.ts';

let lastParse: {
  text: string;
  name: string;
  format: FormatId | null;
  requestIndex: number | undefined;
  result: Result<ParsedTranscript>;
} | null = null;
let lastAnalysis: {
  parsed: ParsedTranscript;
  provider: ProviderId | null;
  analysis: Analysis;
} | null = null;

/** Parse stage, memoised on (text, name, format, requestIndex). Never throws: failures are ParseErrors. */
export function parseStage(
  text: string,
  name: string,
  format: FormatId | null,
  requestIndex?: number,
): Result<ParsedTranscript> {
  if (
    lastParse &&
    lastParse.text === text &&
    lastParse.name === name &&
    lastParse.format === format &&
    lastParse.requestIndex === requestIndex
  )
    return lastParse.result;
  let result: Result<ParsedTranscript>;
  try {
    result = parseTranscript(text, {
      ...(format ? { format } : {}),
      ...(name ? { name } : {}),
      ...(requestIndex !== undefined ? { requestIndex } : {}),
    });
  } catch (e) {
    // A parser bug must not take the page down: report it as a shape error.
    result = {
      ok: false,
      error: {
        kind: 'shape',
        message: `The parser failed on this input: ${e instanceof Error ? e.message : String(e)}`,
      },
    };
  }
  lastParse = { text, name, format, requestIndex, result };
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

/**
 * Parse and analyse.
 * @returns `{ok: true, parsed, analysis}` or `{ok: false, error}` (a ParseError with a location
 *   for bad JSON). Never throws.
 */
export function inspect(req: InspectRequest): Inspection {
  const parsed = parseStage(req.text, req.name, req.format, req.requestIndex);
  if (!parsed.ok) return { ok: false, error: parsed.error };
  try {
    return { ok: true, parsed: parsed.value, analysis: analyzeStage(parsed.value, req.provider) };
  } catch (e) {
    return {
      ok: false,
      error: {
        kind: 'shape',
        message: `Analysis failed on this input: ${e instanceof Error ? e.message : String(e)}`,
      },
    };
  }
}
