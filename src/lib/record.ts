/**
 * The checked fetch's record: one JSON line per provider call (schema in docs/fetch-record.md),
 * written to a file (Node) or handed to a callback. Auth headers and secret query parameters are
 * never written. The record never leaves the machine: it goes where the caller says, nowhere else.
 */
import type { Violation } from '../model/validate/index.ts';
import type { SkipReason } from './body.ts';
import type { CheckResult } from './check.ts';
import type { LabelledChange } from './repairReport.ts';

/** The `schema` of every record line; a reader checks it before anything else. */
export const RECORD_SCHEMA = 'transcript-inspector/fetch-record';
/** The record's version: a change that a version-1 reader would misread raises it. */
export const RECORD_VERSION = 1;

/** What the checked fetch did with the call. */
export type RecordOutcome =
  | 'sent'
  | 'sent-repaired'
  | 'sent-anyway'
  | 'refused'
  | 'answered-400'
  | 'sent-unchecked';

/** A violation as a record line keeps it (the provider's text, not the explanations). */
export interface RecordedViolation {
  rule: Violation['rule'];
  code: string;
  severity: Violation['severity'];
  messageIndex: number;
  blockIndex: number | null;
  ids: string[];
  status: number | null;
  message: string;
}

/** One line of a record file (docs/fetch-record.md). */
export interface RecordLine {
  schema: typeof RECORD_SCHEMA;
  v: typeof RECORD_VERSION;
  /** When the call was made (ISO 8601, UTC). */
  time: string;
  /** The URL, secret query parameters (`key`, `api_key`, `token`, …) replaced by `[removed]`. */
  url: string;
  /** The endpoint id (`endpointOf`). */
  endpoint: string;
  /** What was done: sent as given, sent repaired, sent despite a violation (warn), refused
   * (throw), answered with the provider's 400 (respond), sent unchecked (a skip). */
  outcome: RecordOutcome;
  request: {
    method: string;
    /** Headers as sent, auth headers removed (authorization, x-api-key, api-key, cookie, …). */
    headers: Record<string, string>;
    /** The body as sent (repaired when repaired), parsed; absent when not read (see `skipped`). */
    body?: unknown;
  };
  /** The verdict on the request as given; null when it was not checked (see `skipped`). */
  verdict: {
    valid: boolean;
    provider: string;
    format: string;
    violations: RecordedViolation[];
    /** The exact body the provider answers with, or null when valid. */
    firstError: unknown;
  } | null;
  /** Why the request was not checked. */
  skipped?: SkipReason;
  /** The repair: each change, and the body before it. */
  repair?: { changes: LabelledChange[]; original: unknown };
  /**
   * The provider's answer: its status; for a non-2xx answer its error body (JSON when it parses,
   * else text). `streamed`: the answer was an event stream (its body is read only when an error).
   * `failed`: the fetch itself rejected (network), with its message. Absent when nothing was sent.
   */
  response?: { status: number; streamed: boolean; error?: unknown } | { failed: string };
}

/** Where record lines go: a file path (Node, appended) or a function called with each line. */
export type RecordTarget = string | ((line: RecordLine) => void | Promise<void>);

/** Header and query names that may carry a credential (`key` covers `x-api-key`, `api-key`, Gemini's `key`). */
const SECRET = /(authorization|key|cookie|token|secret|password|signature|credential|session)/i;

/** Headers without auth or secrets: `authorization`, `x-api-key`, `api-key`, `cookie`, … */
export function safeHeaders(h: HeadersInit | undefined): Record<string, string> {
  const out = Object.create(null) as Record<string, string>;
  if (h === undefined) return out;
  let headers: Headers;
  try {
    headers = new Headers(h);
  } catch {
    return out;
  }
  headers.forEach((v, k) => {
    if (!SECRET.test(k)) out[k] = v;
  });
  return out;
}

/** The URL with secret query parameters (Gemini's `key`, tokens, signatures) replaced. */
export function safeUrl(url: string): string {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return url.replace(/\?.*$/, '');
  }
  const secret: string[] = [];
  u.searchParams.forEach((_, k) => {
    if (SECRET.test(k)) secret.push(k);
  });
  for (const k of secret) u.searchParams.set(k, '[removed]');
  return u.href;
}

/** The verdict as a record keeps it. */
export function recordedVerdict(r: CheckResult): NonNullable<RecordLine['verdict']> {
  return {
    valid: r.valid,
    provider: r.provider,
    format: r.format,
    violations: r.violations.map((v) => ({
      rule: v.rule,
      code: v.code,
      severity: v.severity,
      messageIndex: v.messageIndex,
      blockIndex: v.blockIndex,
      ids: v.ids,
      status: v.status,
      message: v.message,
    })),
    firstError: r.firstError,
  };
}

/** JSON text as a value, or the text itself when it is not JSON. */
export function jsonOrText(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return text;
  }
}

/** A record target as a writer: lines in call order; `flush` waits for every write so far. */
export interface RecordWriter {
  write(line: RecordLine): void;
  /** Count a line still being made (an error body being read) in what `flush` waits for. */
  hold(p: Promise<unknown>): void;
  flush(): Promise<void>;
}

interface AppendFs {
  appendFile(path: string, data: string, encoding: 'utf8'): Promise<void>;
}

/** The write queue of each record file (keyed by the path as given). */
const FILES = new Map<string, Promise<void>>();

let fsModule: Promise<AppendFs> | null = null;

/** `node:fs/promises`, imported on first use; the specifier in a variable, so bundlers for the browser leave it alone. */
function nodeFs(): Promise<AppendFs> {
  const spec = 'node:fs/promises';
  // The package's one Node module, for `record` to a file path only (issue 36): imported at the
  // first write, so the package still loads in browsers and edge runtimes, where it is never asked.
  // eslint-disable-next-line layers/imports -- src/lib is web-standard except this opt-in Node path
  fsModule ??= import(/* @vite-ignore */ spec) as Promise<AppendFs>;
  return fsModule;
}

/**
 * A writer for a record target. A file path is appended to through `node:fs/promises`, imported
 * only when the first line is written (so the package runs where there is no file system).
 * A failed write is reported once (`console.warn`) and never fails the call.
 */
export function recordWriter(target: RecordTarget): RecordWriter {
  let warned = false;
  const fail = (e: unknown) => {
    if (warned) return;
    warned = true;
    console.warn(`transcript-inspector: the fetch record could not be written: ${String(e)}`);
  };
  let own: Promise<void> = Promise.resolve();
  const write = (line: RecordLine) => {
    if (typeof target === 'function') {
      own = own.then(() => target(line)).catch(fail);
      return;
    }
    const text = `${JSON.stringify(line)}\n`;
    // One queue per file, shared by every checked fetch of this module: lines in write order.
    const queued = (FILES.get(target) ?? Promise.resolve())
      .then(async () => (await nodeFs()).appendFile(target, text, 'utf8'))
      .catch(fail);
    FILES.set(target, queued);
    own = queued;
  };
  const chain = () => (typeof target === 'function' ? own : (FILES.get(target) ?? own));
  const pending = new Set<Promise<unknown>>();
  const hold = (p: Promise<unknown>) => {
    pending.add(p);
    void p.finally(() => pending.delete(p));
  };
  const flush = async () => {
    while (pending.size > 0) await Promise.allSettled([...pending]);
    await chain();
  };
  return { write, hold, flush };
}
