/**
 * One file of a fleet scan (issue 40) → one row per request: the format, provider, size, the
 * verdict (valid, first rule, its message), the compactions seen, and for every policy × budget
 * whether the cut gives a 400 and its overshoot. Pure: the CLI's workers and the page call it on
 * text they decoded; the rows go into Parquet (docs/scan.md, `SCAN_SCHEMA_VERSION`).
 */
import type { Analysis } from '../analyze.ts';
import { defaultProviderOf, validateTranscript, type ChainValidator } from '../validate/index.ts';
import {
  cutPlan,
  fittingCut,
  planCost,
  planHead,
  POLICIES,
  type EvictionContext,
} from '../evict/policies.ts';
import { assembleEviction, prepareEvictionParts } from '../evict/prepare.ts';
import { firstErrorOf, stepChain, stepValidation, type StepChain } from '../evict/rewrite.ts';
import { cutFirstRule } from '../evict/simulate.ts';
import type { PolicyId } from '../evict/types.ts';
import { decodeBytes, DROP_ADVICE } from '../parse/bytes.ts';
import { readSource } from '../parse/index.ts';
import { MAX_UNPACKED_BYTES } from '../limits.ts';
import type { ScanRecord } from './report.ts';
import { countTokensCached, TokenCache, TokenChain } from '../tokenCache.ts';
import { CHARS_PER_4, type TextCounter, type TokenTable } from '../tokens.ts';
import type { ParseError, Transcript } from '../types.ts';
import { EvictionChain } from '../evict/chain.ts';
import { setMessageShapes, ShapesChain } from '../evict/shapes.ts';
import { addIds, parseRequests, type ScanRequest } from './requests.ts';

export { parseRequests, type ChainTables, type ScanRequest } from './requests.ts';

/** The version of the row layout written to Parquet; docs/scan.md#schema describes each. */
export const SCAN_SCHEMA_VERSION = 2;

/** The extensions a folder is scanned for (every format the page reads), by the CLI and the page. */
export const SCAN_EXTENSIONS = /\.(jsonl|ndjson|json|har|txt|log|eval|sse)(\.gz)?$/i;

/** The default budgets: 10 %, 20 %, … 90 % of each request's own size. */
export const DEFAULT_BUDGETS: readonly ScanBudget[] = [1, 2, 3, 4, 5, 6, 7, 8, 9].map((d) => ({
  fraction: d / 10,
}));

/** A budget: a fraction of the request's own tokens, or a number of tokens. */
export type ScanBudget = { fraction: number } | { tokens: number };

/** One policy at one budget on one request. */
export interface ScanCut {
  policy: PolicyId;
  /** The budget as a fraction of the request's tokens, or null for a budget in tokens. */
  fraction: number | null;
  /** The budget in tokens. */
  budget: number;
  /** True when the request the policy keeps at this budget gets a 400. */
  gives400: boolean;
  /** Tokens freed ÷ tokens over the budget (`simulatePolicy`'s overshoot); null when nothing is over. */
  overshoot: number | null;
  /** The rule of that 400 (`Violation.rule`), or null. */
  rule: string | null;
}

/** A row: one request of one file, or the file itself when it cannot be read (`error`). */
export interface ScanRow {
  /** The file as scanned: a path or `s3://bucket/key`. */
  file: string;
  /** Its path under the root it was found from (`/`-separated): how the page finds it again. */
  path: string;
  /** Bytes of the file as stored (compressed for a .gz). */
  size: number;
  /** The file's version: its mtime in ms (a file) or ETag (S3). Resuming compares it. */
  version: string;
  /** 0-based request of the file (as `check --request N+1`); null on an error row. */
  request: number | null;
  /** Requests the file holds (1 for a single body or a log). */
  requests: number;
  format: string | null;
  provider: string | null;
  messages: number | null;
  /** The request's tokens (system + messages) on `tokenBasis`. */
  tokens: number | null;
  tokenBasis: string | null;
  valid: boolean | null;
  /** The first error's rule (`Violation.rule`) and catalogue code (the mechanism), or null. */
  firstRule: string | null;
  firstCode: string | null;
  /** Its message index as pasted (`Violation.messageIndex`, as `check --json` prints it). */
  firstMessage: number | null;
  /** Compaction summaries seen in the request (`meta.compactSummary`). */
  compactions: number | null;
  /** Lines of a JSON Lines file that did not parse and were skipped (1-based). */
  brokenLines: number[];
  cuts: ScanCut[];
  /** Why the file could not be read or parsed; null for a request row. */
  error: string | null;
  /** The 1-based line the error is at, when known (bad JSON, a truncated .gz). */
  errorLine: number | null;
}

/**
 * Where a request's cuts go: one call per policy × budget, policy-major, each policy's budgets in
 * order (`ScanCut`'s fields, without an object per cut).
 */
export interface CutSink {
  /**
   * One cut. @param fraction the budget as a fraction of the request's tokens, or null
   * @param rule the rule of the 400 the kept request gets, or null (no 400)
   * @param overshoot tokens freed ÷ tokens over the budget, or null when nothing is over
   */
  cut(
    policy: PolicyId,
    fraction: number | null,
    budget: number,
    rule: string | null,
    overshoot: number | null,
  ): void;
}

/** What `scanText` does to each request. */
export interface ScanOptions {
  policies?: readonly PolicyId[];
  budgets?: readonly ScanBudget[];
  /** Counts tokens (default chars ÷ 4, `CHARS_PER_4`; the CLI's `--tokens exact` passes o200k). */
  counter?: TextCounter;
  /**
   * Where the cuts go instead of each row's `cuts` (then empty): the CLI's worker packs them
   * into typed arrays as they are made (packed.ts), rather than 81 objects per row to pack.
   */
  cutSink?: CutSink;
}

/** Where a file came from: the row's first columns. */
export interface ScanSource {
  file: string;
  path: string;
  size: number;
  version: string;
}

/**
 * An error row for a file that could not be read or parsed. The message says what is wrong with
 * the file, without the advice a page or a terminal gives about what to pass instead
 * (`DROP_ADVICE`): a scan reads the files of a folder, so the row is the same from the page and
 * the command line.
 */
export function errorRow(src: ScanSource, error: string, line: number | null = null): ScanRow {
  return {
    ...src,
    request: null,
    requests: 0,
    format: null,
    provider: null,
    messages: null,
    tokens: null,
    tokenBasis: null,
    valid: null,
    firstRule: null,
    firstCode: null,
    firstMessage: null,
    compactions: null,
    brokenLines: [],
    cuts: [],
    error: error.replace(` ${DROP_ADVICE}`, '').replace(DROP_ADVICE, '').trim(),
    errorLine: line,
  };
}

/** A parse error as a row's error text and line. */
function parseErrorRow(src: ScanSource, e: ParseError): ScanRow {
  return errorRow(src, e.message, e.location?.line ?? null);
}

/**
 * The rows of one file's text: one per request, or one error row.
 * @param text the decoded text (the caller decodes bytes with `decodeBytes` or a stream)
 * @param name the file's name without `.gz` (a hint for the format)
 * @returns rows in request order; never throws for bad input (a failure is an error row)
 */
export function scanText(
  src: ScanSource,
  text: string,
  name: string,
  opts: ScanOptions = {},
): ScanRow[] {
  const read = readSource(text, name);
  if (!read.ok) return [parseErrorRow(src, read.error)];
  const doc = read.value;
  const parsed = parseRequests(doc, name);
  if (!parsed.ok) return [parseErrorRow(src, parsed.error)];
  const brokenLines = doc.kind === 'jsonl' ? [...doc.brokenLines] : [];
  // One token cache per file: a session's calls share their blocks, counted once (by identity).
  const cache = new TokenCache();
  return parsed.value.map((p, i) =>
    requestRow(src, p, i, parsed.value.length, brokenLines, opts, cache),
  );
}

/** policyCuts' scratch: the cuts it checked for one policy, and their rules. */
const CHECKED: number[] = [];
const RULES: (string | null)[] = [];

/**
 * One policy's cuts at every budget, as `simulatePolicy` gives them one budget at a time, from
 * one sweep: the policy's plan is made once, each budget picks its cut (`chooseCut`, O(log n)),
 * and each distinct cut is checked once (budgets that pick the same cut share its verdict).
 * Gives `out` each cut, in the order of the budgets.
 */
function policyCuts(
  ctx: EvictionContext,
  policy: PolicyId,
  opts: ScanOptions,
  out: CutSink,
  steps?: Map<PolicyId, StepChain>,
): void {
  const plan = cutPlan(ctx, policy);
  const total = ctx.table.total;
  const last = plan.cuts.length - 1;
  // The cuts checked so far and their rules (a few: one per budget at most), in scratch arrays
  // shared by every call (policyCuts never runs inside itself).
  const checked = CHECKED;
  const rules = RULES;
  checked.length = 0;
  rules.length = 0;
  for (const b of opts.budgets ?? DEFAULT_BUDGETS) {
    const budget = budgetTokens(b, total);
    // chooseCut's j, without its object.
    const fit = fittingCut(ctx, plan, budget);
    const j = fit >= 0 ? fit : last;
    const at = checked.indexOf(j);
    let rule = at < 0 ? undefined : rules[at];
    if (rule === undefined) {
      // A rewriting policy's step is judged as the request it writes (simulatePolicy's
      // stepValidation; a step its plan knows valid gives none), a cut of the message list by
      // the cut tables (checkCut's first error, without renumbering its paths). A rewriting
      // policy that knows a step's rule alone (langchain-trim: its cut's) says it.
      const rw = plan.rewrite;
      if (rw) {
        const known = rw.valid?.(j) === true ? null : rw.firstRule?.(j);
        rule =
          known !== undefined
            ? known
            : (firstErrorOf(stepValidation(ctx, rw, j, stepsOf(steps, policy)))?.rule ?? null);
      } else rule = cutFirstRule(ctx.cuts, plan.cuts[j] as number, planHead(ctx, plan, j));
      checked.push(j);
      rules.push(rule);
    }
    // As simulatePolicy: overshoot = tokens freed ÷ tokens over the budget.
    const deficit = Math.max(0, total - budget);
    out.cut(
      policy,
      'fraction' in b ? b.fraction : null,
      budget,
      rule,
      deficit > 0 ? (total - planCost(ctx, plan, j)) / deficit : null,
    );
  }
}

/** A policy's `StepChain` in a chain's map (made when first asked), or undefined without one. */
function stepsOf(
  steps: Map<PolicyId, StepChain> | undefined,
  policy: PolicyId,
): StepChain | undefined {
  if (steps === undefined) return undefined;
  let s = steps.get(policy);
  if (s === undefined) steps.set(policy, (s = stepChain()));
  return s;
}

/**
 * Every policy × budget cut of one request (policy-major, each policy's budgets in order), as
 * `simulatePolicy` gives them one at a time: whether it gives a 400, its rule, its overshoot.
 * With `opts.cutSink`, they go there instead, and the list returned is empty.
 * @param ctx the request's `EvictionContext` (`prepareEviction`)
 * @param steps the rewriting policies' step validations of the request's chain, if it has one
 */
export function requestCuts(
  ctx: EvictionContext,
  opts: ScanOptions = {},
  steps?: Map<PolicyId, StepChain>,
): ScanCut[] {
  const cuts: ScanCut[] = [];
  const sink: CutSink = opts.cutSink ?? {
    cut: (policy, fraction, budget, rule, overshoot) =>
      cuts.push({ policy, fraction, budget, gives400: rule !== null, overshoot, rule }),
  };
  for (const policy of opts.policies ?? POLICIES) policyCuts(ctx, policy, opts, sink, steps);
  return cuts;
}

/**
 * The rows of one file's stored bytes (the page's scan of a dropped folder): decoded as the page
 * decodes a dropped file (`decodeBytes`: a .gz inflated, UTF-8 checked), then `scanText`.
 * @param bytes the file as stored (gzip or UTF-8), at most `max` bytes of text once inflated
 * @returns rows in request order; an error row when the bytes do not decode (never throws)
 */
export function scanBytes(
  src: ScanSource,
  bytes: Uint8Array,
  opts: ScanOptions = {},
  max = MAX_UNPACKED_BYTES,
): ScanRow[] {
  const base = src.path.slice(src.path.lastIndexOf('/') + 1);
  const text = decodeBytes(bytes, max, base);
  if (!text.ok) return [parseErrorRow(src, text.error)];
  return scanText(src, text.value, base.replace(/\.gz$/i, ''), opts);
}

/**
 * A row as the Parquet holds it (column names of docs/scan.md#schema, `SCAN_SCHEMA_VERSION`):
 * what the CLI writes and what the page's report (`reportOf`) and list read, whether the rows came
 * from a Parquet or from the page's own scan.
 */
export function recordOf(r: ScanRow): ScanRecord {
  return {
    schema_version: SCAN_SCHEMA_VERSION,
    file: r.file,
    path: r.path,
    size: r.size,
    version: r.version,
    request: r.request,
    requests: r.requests,
    format: r.format,
    provider: r.provider,
    messages: r.messages,
    tokens: r.tokens,
    token_basis: r.tokenBasis,
    valid: r.valid,
    first_rule: r.firstRule,
    first_code: r.firstCode,
    first_message: r.firstMessage,
    compactions: r.compactions,
    broken_lines: r.brokenLines,
    cuts: r.cuts,
    error: r.error,
    error_line: r.errorLine,
  };
}

/** The budget in tokens of a `ScanBudget` for a request of `total` tokens. */
export function budgetTokens(b: ScanBudget, total: number): number {
  return 'tokens' in b ? b.tokens : Math.floor(total * b.fraction);
}

/**
 * `analyze(t)` without its pairs (a row needs none): the same provider and validation,
 * the validator told the ids are unique when no tool_use id comes twice (as `analyze` tells it
 * from its pairs). @param duplicateIds whether one does, when the caller knows (a chain's calls)
 * @param validate the chain's validation (`chainValidation`), when the request is one of a chain's
 */
function analysisOf(
  t: Transcript,
  duplicateIds?: boolean,
  validate: ChainValidator = validateTranscript,
): Pick<Analysis, 'provider' | 'validation'> {
  let dup = duplicateIds;
  if (dup === undefined) {
    const seen = new Set<string>();
    dup = false;
    for (const m of t.messages) if (addIds(seen, m)) dup = true;
  }
  const provider = defaultProviderOf(t);
  return {
    provider,
    validation: validate(t, provider, dup ? undefined : { uniqueToolUseIds: true }),
  };
}

function requestRow(
  src: ScanSource,
  req: ScanRequest,
  request: number,
  requests: number,
  brokenLines: number[],
  opts: ScanOptions,
  cache: TokenCache,
): ScanRow {
  const t = req.transcript;
  const a = analysisOf(t, req.duplicateIds, req.validate);
  const first = a.validation.violations.find((v) => v.severity === 'error');
  const counter = opts.counter ?? CHARS_PER_4;
  // A chain's calls count only the messages each adds (`TokenChain`: the same table).
  let table: TokenTable;
  if (req.tables) {
    req.tables.tokens ??= new TokenChain(counter, cache, { preferUsage: true });
    table = req.tables.tokens.table(t, a.provider);
  } else table = countTokensCached(t, a.provider, counter, cache, { preferUsage: true });
  // The analysis validated this transcript already: the cuts reuse it (as the page's worker
  // does), so a request is validated once, not twice. A chain's calls resume the tables of the
  // call before (`EvictionChain`: the same parts).
  const known = { validation: a.validation };
  const parts = req.tables
    ? (req.tables.parts ??= new EvictionChain()).parts(t, a.provider, {}, known)
    : prepareEvictionParts(t, a.provider, {}, known);
  if (req.memo) parts.cuts.memo = req.memo;
  const ctx = assembleEviction(parts, t, table);
  if (req.tables) {
    setMessageShapes(ctx.cuts, (req.tables.shapes ??= new ShapesChain()).shapes(t.messages));
    ctx.resume = req.tables.resume ??= new Map();
  }
  const cuts = requestCuts(ctx, opts, req.steps);
  return {
    ...src,
    request,
    requests,
    format: t.format,
    provider: a.provider,
    messages: t.messages.length,
    tokens: table.total,
    tokenBasis: counter.encoding,
    valid: a.validation.valid,
    firstRule: first?.rule ?? null,
    firstCode: first?.code ?? null,
    firstMessage: first?.messageIndex ?? null,
    compactions: req.compactions,
    brokenLines,
    cuts,
    error: null,
    errorLine: null,
  };
}
