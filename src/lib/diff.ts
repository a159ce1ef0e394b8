/**
 * `diff`: what changed between two requests (issue 33), as the CLI's `diff A B --json` prints it.
 */
import { diffTranscripts, type TranscriptDiff } from '../model/diff/index.ts';
import type { ProviderId } from '../model/types.ts';
import { knownProvider, read, type Body, type ReadOptions } from './read.ts';

export type {
  TranscriptDiff,
  DiffRow,
  DiffSide,
  DiffChange,
  BrokenPair,
  NewFinding,
  CachePrefix,
  DiffCounts,
} from '../model/diff/index.ts';

export interface DiffOptions extends Omit<ReadOptions, 'request'> {
  /** Whose rules judge both sides (default: the right side's format's provider). */
  provider?: ProviderId;
  /** For a body of several requests (a HAR, a batch, an eval log): which one, 0-based, per side. */
  leftRequest?: number;
  rightRequest?: number;
  /** What the summary calls each side (default `The left request` / `The right request`). */
  leftLabel?: string;
  rightLabel?: string;
}

/**
 * Compare two request bodies: every message labelled (`kept`, `dropped`, `inserted`, `merged`,
 * `rewritten`, `sealed`, `reordered`), the tool pairings the change broke with the provider's
 * rule, where the prompt-cache prefix stops, and one sentence saying what happened — the same
 * answer as `npm run cli -- diff A B --json`. Tokens are counted as chars/4 (`tokenBasis`
 * says so; no tokenizer is loaded). Bodies of two formats are compared through the model
 * (`notes` says so).
 * @param a the request before (parsed body, JSON text, JSON Lines log, or bytes)
 * @param b the request after
 * @returns `{summary, left, right, rows: [{change, left, right}], broken: [{id, rule, code,
 *   messageIndex}], cachePrefix: {messages, tokens}, …}`; row indices are 0-based message
 *   positions on each side
 * @throws UnreadableTranscriptError when a body is not a transcript of any known format
 * @throws RangeError for an unknown `format` or `provider` id
 * @example
 * const d = diff(requestThatWorked, requestThatFailed);
 * if (d.broken.length > 0) console.log(d.summary); // "… its tool_result is orphaned → … 400 (A1)."
 */
export function diff(a: Body, b: Body, options: DiffOptions = {}): TranscriptDiff {
  const provider = knownProvider(options.provider);
  const readOpts = (request: number | undefined): ReadOptions => ({
    ...(options.format !== undefined ? { format: options.format } : {}),
    ...(options.name !== undefined ? { name: options.name } : {}),
    ...(request !== undefined ? { request } : {}),
  });
  const left = read(a, readOpts(options.leftRequest));
  const right = read(b, readOpts(options.rightRequest));
  return diffTranscripts(left.transcript, right.transcript, {
    ...(provider ? { provider } : {}),
    leftRequest: left.requestIndex !== undefined ? left.requestIndex + 1 : null,
    rightRequest: right.requestIndex !== undefined ? right.requestIndex + 1 : null,
    ...(options.leftLabel !== undefined ? { leftLabel: options.leftLabel } : {}),
    ...(options.rightLabel !== undefined ? { rightLabel: options.rightLabel } : {}),
  });
}
