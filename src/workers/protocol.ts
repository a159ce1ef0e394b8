/**
 * Typed messages between the page and the inspect worker. The UI never posts to the worker
 * directly: it calls `client.ts`.
 */
import type { Analysis } from '../model/analyze.ts';
import type { ParsedTranscript } from '../model/parse/index.ts';
import type { FormatId, ParseError, ProviderId } from '../model/types.ts';

/** What to inspect: the source text and the user's format/provider choices (null = detect). */
export interface InspectRequest {
  text: string;
  /** File name hint (`.jsonl`), or ''. */
  name: string;
  format: FormatId | null;
  provider: ProviderId | null;
}

/** The parse result for the text, and the analysis when it parsed. */
export type Inspection =
  | { ok: true; parsed: ParsedTranscript; analysis: Analysis }
  | { ok: false; error: ParseError };

export interface WorkerRequest {
  id: number;
  req: InspectRequest;
}

export interface WorkerResponse {
  id: number;
  result: Inspection;
}
