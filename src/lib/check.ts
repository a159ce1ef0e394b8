/**
 * `check`: the provider's verdict on a request body, as the CLI's `check` gives it.
 */
import type { ParsedTranscript } from '../model/parse/index.ts';
import type { FormatId, ProviderId, Transcript } from '../model/types.ts';
import { countInput, windowOpen } from '../model/validate/contextWindow.ts';
import {
  defaultProviderOf,
  validateTranscript,
  type InputCount,
  type Violation,
} from '../model/validate/index.ts';
import { knownProvider, read, type Body, type ReadOptions } from './read.ts';

export interface CheckOptions extends ReadOptions {
  /**
   * Whose rules: `anthropic`, `openai-chat`, `openai-responses`, `gemini`, `bedrock`,
   * `deepseek`, `mistral`, `qwen`. Default: the format's own provider (the CLI's default).
   */
  provider?: ProviderId;
  /**
   * The model the request goes to; overrides the body's `model` (Gemini and Bedrock bodies do
   * not name it: it is in the URL). Some rules depend on it: Anthropic prefill (A12), Gemini thought signatures (G4),
   * Claude on Bedrock.
   */
  model?: string;
}

export interface CheckResult {
  /** True when the provider would accept the request (no violation of severity `error`). */
  valid: boolean;
  /**
   * In the order the provider meets them: the first error is the 400 the request gets, later
   * ones follow once it is fixed. Warnings (accepted but risky) are included, with
   * `severity: 'warning'`. Each has the rule id, the provider's code (A1, O2, …), the message
   * and block index, the tool ids, the provider's path and its exact error body.
   */
  violations: Violation[];
  /** The exact JSON body the provider answers with (HTTP 400), or null when valid. */
  firstError: unknown;
  /** The violation behind `firstError`, or null when valid. */
  firstViolation: Violation | null;
  /** The detected (or forced) input format. */
  format: FormatId;
  /** The provider whose rules were applied. */
  provider: ProviderId;
  /** What was not checked and why (e.g. tools not given, so A7 not checked). */
  notes: string[];
  /** Non-fatal notes from reading the body (skipped JSONL lines, server-held history). */
  warnings: string[];
}

/**
 * Validate a request body as the provider would, before it is sent: the same verdict, violation
 * paths and exact error bodies as `npm run cli -- check FILE --json`, for every format the
 * project reads (request bodies, message lists, session logs, HAR, curl …).
 * Costs O(messages); no tokenizer is loaded. The context window (O14, A21, G12) is judged by
 * bounds from the text alone: a huge body is over at once, a normal one clears in one pass over
 * its lengths; where the bounds cannot say, a note says so and `checkCounted` counts.
 * @param body the parsed request body (what you pass to the SDK), its JSON text, or its bytes
 * @param opts `provider` (default: the format's own), `format` (default: detected), `model`
 * @returns the verdict; never throws for a readable body
 * @throws UnreadableTranscriptError when the body is not a transcript of any known format
 * @throws RangeError for an unknown `format` or `provider` id
 * @example
 * const r = check({
 *   model: 'claude-sonnet-4-5', max_tokens: 1024,
 *   messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 'toolu_1', content: 'ok' }] }],
 * });
 * r.valid;                       // false
 * r.firstViolation?.code;        // 'A1' (orphan tool_result)
 * r.firstError;                  // { type: 'error', error: { type: 'invalid_request_error', message: 'messages.0.content.0: unexpected `tool_use_id` …' } }
 */
export function check(body: Body, opts: CheckOptions = {}): CheckResult {
  return checkParsed(read(body, opts), opts);
}

/**
 * `check`, with the context window judged by an o200k count where the text's bounds cannot
 * judge it: the verdict of the CLI's `check` and of the page once its exact count came (a body the
 * bounds put over keeps the bound's N, as in the CLI). The BPE (a lazy chunk, ~1 MB gzip) loads
 * only for such a body.
 * @throws as `check`; also if the BPE chunk cannot be loaded
 */
export async function checkCounted(body: Body, opts: CheckOptions = {}): Promise<CheckResult> {
  const parsed = read(body, opts);
  const first = checkParsed(parsed, opts);
  if (!windowOpen(first)) return first;
  const t = withModel(parsed.transcript, opts.model);
  return checkParsed(parsed, opts, await countInput(t, first.provider));
}

/**
 * `check` for a body already read (the checked fetch reads once, then checks).
 * @param inputTokens the input's count, when the caller has one (`checkCounted`)
 */
export function checkParsed(
  parsed: ParsedTranscript,
  opts: CheckOptions = {},
  inputTokens?: InputCount,
): CheckResult {
  const provider = knownProvider(opts.provider);
  const t = withModel(parsed.transcript, opts.model);
  const p = provider ?? defaultProviderOf(t);
  const v = validateTranscript(t, p, inputTokens ? { inputTokens } : undefined);
  const violations = v.violations;
  const first = violations.find((x) => x.severity === 'error') ?? null;
  return {
    valid: first === null,
    violations,
    firstError: first?.error ?? null,
    firstViolation: first,
    format: t.format,
    provider: v.provider,
    notes: v.notes,
    warnings: t.warnings,
  };
}

/** The transcript with `settings.model` set to the model the caller names (unchanged when none). */
export function withModel(t: Transcript, model: string | undefined): Transcript {
  if (model === undefined || t.settings.model === model) return t;
  return { ...t, settings: { ...t.settings, model } };
}
