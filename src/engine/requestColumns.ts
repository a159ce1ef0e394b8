/**
 * A file's requests as the strip's listing sends them: in columns (typed arrays, the labels joined
 * in one string, the rare fields sparse) rather than one object per request. A long session log
 * has 28,000 calls: as objects, the page's thread spent 30–50 ms taking the structured clone in
 * (one task with the strip's render: 75–98 ms, and during keyboard navigation after the load).
 * Columns are a few buffers and one string to copy; a request's object is made when it is read
 * (`requestAt`), and what the strip needs of all of them is read from the columns.
 */
import type { CompactionEvent } from '../model/diff/index.ts';
import type { RequestSummary } from './diffProtocol.ts';

/** A request's first error, as `RequestVerdict.firstRule`. */
type FirstRule = NonNullable<RequestSummary['firstRule']>;

/** A field most requests do not have: the requests that have it (ascending) and its values. */
export interface Sparse<T> {
  at: Int32Array;
  values: T[];
}

/** `RequestSummary[]` in columns; `count` requests, column `k` of each for request `k` (0-based). */
export interface RequestColumns {
  count: number;
  /** Every label, joined: label `k` is `labels.slice(labelEnds[k - 1] ?? 0, labelEnds[k])`. */
  labels: string;
  labelEnds: Uint32Array;
  request: Float64Array;
  messages: Float64Array;
  tokens: Float64Array;
  /** NaN: the log records no usage for the request. */
  usageTokens: Float64Array;
  /** Bit 1: valid; bit 2: a retry. */
  flags: Uint8Array;
  /** -1: not a retry of a recorded failure. */
  retryOf: Float64Array;
  /** Index into `threads`, -1: no thread (an archive's request). */
  thread: Int32Array;
  threads: string[];
  /** Index into `rules`, -1: no error. */
  firstRule: Int32Array;
  rules: FirstRule[];
  compaction: Sparse<CompactionEvent>;
  apiError: Sparse<string>;
}

const VALID = 1;
const RETRY = 2;

/** Index of `value` in `list`, added when new (`index` maps a value's key to its index). */
function interned<T>(list: T[], index: Map<string, number>, key: string, value: T): number {
  let k = index.get(key);
  if (k === undefined) {
    k = list.length;
    list.push(value);
    index.set(key, k);
  }
  return k;
}

/**
 * Pack `count` requests in columns; request `k` is read by `row(k)` once. O(requests + their
 * labels). Thread names and first errors are kept once each (a log has few of them).
 */
export function packRequests(count: number, row: (k: number) => RequestSummary): RequestColumns {
  const labels: string[] = [];
  const labelEnds = new Uint32Array(count);
  const request = new Float64Array(count);
  const messages = new Float64Array(count);
  const tokens = new Float64Array(count);
  const usageTokens = new Float64Array(count);
  const flags = new Uint8Array(count);
  const retryOf = new Float64Array(count);
  const thread = new Int32Array(count);
  const firstRule = new Int32Array(count);
  const threads: string[] = [];
  const threadIndex = new Map<string, number>();
  const rules: FirstRule[] = [];
  const ruleIndex = new Map<string, number>();
  const compactionAt: number[] = [];
  const compactions: CompactionEvent[] = [];
  const errorAt: number[] = [];
  const errors: string[] = [];
  let end = 0;
  for (let k = 0; k < count; k++) {
    const r = row(k);
    labels.push(r.label);
    end += r.label.length;
    labelEnds[k] = end;
    request[k] = r.request;
    messages[k] = r.messages;
    tokens[k] = r.tokens;
    usageTokens[k] = r.usageTokens ?? NaN;
    flags[k] = (r.valid ? VALID : 0) | (r.retry ? RETRY : 0);
    retryOf[k] = r.retryOf ?? -1;
    thread[k] = r.thread === undefined ? -1 : interned(threads, threadIndex, r.thread, r.thread);
    const f = r.firstRule;
    firstRule[k] = f ? interned(rules, ruleIndex, `${f.rule}\n${f.code}`, f) : -1;
    if (r.compaction) {
      compactionAt.push(k);
      compactions.push(r.compaction);
    }
    if (r.apiError !== undefined) {
      errorAt.push(k);
      errors.push(r.apiError);
    }
  }
  return {
    count,
    labels: labels.join(''),
    labelEnds,
    request,
    messages,
    tokens,
    usageTokens,
    flags,
    retryOf,
    thread,
    threads,
    firstRule,
    rules,
    compaction: { at: Int32Array.from(compactionAt), values: compactions },
    apiError: { at: Int32Array.from(errorAt), values: errors },
  };
}

/** `packRequests` of a list of requests. */
export function packRequestList(list: readonly RequestSummary[]): RequestColumns {
  return packRequests(list.length, (k) => list[k] as RequestSummary);
}

/** The value sparse field `s` has at request `k`, or undefined. O(log n). */
export function sparseAt<T>(s: Sparse<T>, k: number): T | undefined {
  let lo = 0;
  let hi = s.at.length;
  while (lo < hi) {
    const mid = (lo + hi) >>> 1;
    if ((s.at[mid] as number) < k) lo = mid + 1;
    else hi = mid;
  }
  return s.at[lo] === k ? s.values[lo] : undefined;
}

/** Request `k`'s label (0-based), or '' out of range. */
export function labelAt(c: RequestColumns, k: number): string {
  if (!(k >= 0 && k < c.count)) return '';
  return c.labels.slice(k === 0 ? 0 : c.labelEnds[k - 1], c.labelEnds[k]);
}

/** Whether request `k` passes (its verdict; false out of range). */
export function validAt(c: RequestColumns, k: number): boolean {
  return ((c.flags[k] ?? 0) & VALID) !== 0;
}

/** Whether request `k` is a retry. */
export function retryAt(c: RequestColumns, k: number): boolean {
  return ((c.flags[k] ?? 0) & RETRY) !== 0;
}

/** Request `k`'s first error, or null (none, or out of range). */
export function firstRuleAt(c: RequestColumns, k: number): FirstRule | null {
  return c.rules[c.firstRule[k] ?? -1] ?? null;
}

/**
 * Request `k` (0-based) as the object it was packed from (a new object each call; the same
 * fields, the optional ones only where it had them), or undefined out of range.
 */
export function requestAt(c: RequestColumns, k: number): RequestSummary | undefined {
  if (!(Number.isInteger(k) && k >= 0 && k < c.count)) return undefined;
  const out: RequestSummary = {
    request: c.request[k] as number,
    label: labelAt(c, k),
    messages: c.messages[k] as number,
    tokens: c.tokens[k] as number,
    compaction: sparseAt(c.compaction, k) ?? null,
    valid: validAt(c, k),
    firstRule: firstRuleAt(c, k),
    retry: retryAt(c, k),
  };
  const thread = c.threads[c.thread[k] as number];
  if (thread !== undefined) out.thread = thread;
  const usage = c.usageTokens[k] as number;
  if (!Number.isNaN(usage)) out.usageTokens = usage;
  const apiError = sparseAt(c.apiError, k);
  if (apiError !== undefined) out.apiError = apiError;
  const retryOf = c.retryOf[k] as number;
  if (retryOf >= 0) out.retryOf = retryOf;
  return out;
}

/** Every request, as objects (tests, and a caller that reads them all). */
export function unpackRequests(c: RequestColumns): RequestSummary[] {
  return Array.from({ length: c.count }, (_, k) => requestAt(c, k) as RequestSummary);
}
