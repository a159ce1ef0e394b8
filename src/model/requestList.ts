/**
 * A file's requests, one summary each (issue 33): what the page's request strip draws and what
 * `check --requests` lists. For a file holding several requests (an OTel trace's LLM calls, a
 * HAR's or a batch's entries, an eval log's samples), each request is parsed and judged on its
 * own, by the provider it names (or the one forced), with chars/4 token estimates (exact counts
 * would load a tokenizer per request; the strip compares sizes, it does not bill them).
 */
import { analyze } from './analyze.ts';
import { parseTranscript, type ParseOptions } from './parse/index.ts';
import { countTokens } from './tokens.ts';
import type { ProviderId } from './types.ts';

/** A compaction the log records before a request: what triggered it, tokens before → after. */
export interface CompactionEvent {
  /** `auto`, `manual`, or the log's own word. */
  trigger: string;
  /** Tokens before and after, as the log records them (null when it does not). */
  before: number | null;
  after: number | null;
}

/** One request of a file, as the strip and `check --requests` show it. */
export interface RequestSummary {
  /** 1-based, as `--request N`, `rq=N` and the strip number it. */
  request: number;
  /** The parser's label (`#2 · 14:05:01 UTC · claude-opus-4-7 · chat claude-opus-4-7`). */
  label: string;
  messages: number;
  /** System prompt plus messages, chars/4 estimate. */
  tokens: number;
  /** False when the provider would answer 400; null when the request did not parse. */
  valid: boolean | null;
  /** The first error's rule and catalogue code, or null. */
  firstRule: { rule: string; code: string } | null;
  /** A compaction the log records just before this request, or null. */
  compaction: CompactionEvent | null;
  /** The request repeats the one before it (same messages, sent again). */
  retry: boolean;
  /** Why the request could not be read, when it could not. */
  fault: string | null;
}

/**
 * Summaries of every request a file holds, in the file's order.
 * @param text the file's text
 * @param opts the page's parse options (format, name); `requestIndex` is ignored
 * @param provider the provider forced by the user, or null for each request's own
 * @returns one summary per request, or null when the text holds at most one request
 */
export function summariseRequests(
  text: string,
  opts: Omit<ParseOptions, 'requestIndex'>,
  provider: ProviderId | null,
): RequestSummary[] | null {
  const first = parseTranscript(text, opts);
  if (!first.ok || !first.value.requests || first.value.requests.length < 2) return null;
  const labels = first.value.requests;
  const out: RequestSummary[] = [];
  let previous: string | null = null;
  for (let i = 0; i < labels.length; i++) {
    const r = parseTranscript(text, { ...opts, requestIndex: i });
    const label = labels[i]?.label ?? `#${i + 1}`;
    if (!r.ok) {
      out.push({
        request: i + 1,
        label,
        messages: 0,
        tokens: 0,
        valid: null,
        firstRule: null,
        compaction: null,
        retry: false,
        fault: r.error.message,
      });
      previous = null;
      continue;
    }
    const t = r.value.transcript;
    const a = analyze(t, provider ?? undefined);
    const err = a.validation.violations.find((v) => v.severity === 'error');
    const shape = JSON.stringify(t.messages.map((m) => [m.role, m.blocks]));
    out.push({
      request: i + 1,
      label,
      messages: t.messages.length,
      tokens: countTokens(t, a.provider).total,
      valid: a.validation.valid,
      firstRule: err ? { rule: err.rule, code: err.code } : null,
      compaction: null,
      retry: previous !== null && shape === previous,
      fault: null,
    });
    previous = shape;
  }
  return out;
}
