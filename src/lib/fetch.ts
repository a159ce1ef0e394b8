/**
 * The checked fetch: a `fetch` for any client that accepts one, validating each provider request
 * before it leaves. It reads a body only for a recognised provider endpoint, never a stream and
 * never over the size cap; everything else is passed to the inner fetch at once, untouched.
 */
import type { ProviderId } from '../model/types.ts';
import { DEFAULT_MAX_BODY_BYTES, plan, urlOf, type SkipReason } from './body.ts';
import { type CheckResult } from './check.ts';
import { type EndpointId, type NamedEndpoint } from './endpoints.ts';
import { knownProvider, type UnreadableTranscriptError } from './read.ts';
import { recordWriter, type RecordTarget } from './record.ts';
import { type LabelledChange } from './repairReport.ts';
import { runChecked, type CallContext } from './checkedCall.ts';

export { MalformedTranscriptError, findMalformed } from './errors.ts';
export type { SkipReason } from './body.ts';
export type { RecordLine, RecordTarget, RecordOutcome, RecordedViolation } from './record.ts';
export type { ChangeLabel, LabelledChange } from './repairReport.ts';

/** The `fetch` signature the official SDKs accept. */
export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

/** A checked fetch: a `FetchLike`, and `flush()` to wait until every record line is written. */
export type CheckedFetch = FetchLike & { flush: () => Promise<void> };

/**
 * What a checked fetch does with a request the provider would reject:
 * - `throw`: reject with `MalformedTranscriptError`, nothing sent. Code that calls fetch itself
 *   and the AI SDK see that error; the official Anthropic and OpenAI SDKs take any rejected fetch
 *   for a connection failure, retry it (`maxRetries`, checked again each time, never sent) and
 *   then throw `APIConnectionError` with this error as `cause` (see `findMalformed`).
 * - `respond`: answer as the provider would, nothing sent: a synthetic HTTP 400 whose body is the
 *   provider's exact error body (header `x-transcript-inspector: not-sent`), so an SDK throws its
 *   own 400 error (`BadRequestError`, `APICallError`) at once, with no retry.
 * - `warn`: report (`onViolation`), then send unchanged.
 * - `repair`: repair the request with the fixes the page and the CLI use (`repair`), send the
 *   repaired request (same format, same other fields and headers), and say what changed
 *   (`onRepair`). A request the repair cannot make valid is handled as `unrepaired` says.
 */
export type CheckMode = 'throw' | 'respond' | 'warn' | 'repair';

/** What `onViolation` receives for a request the provider would reject. */
export interface ViolationReport {
  /** The request URL. */
  url: string;
  /** The verdict: `violations`, `firstError` (the provider's exact body), `provider`, `format`. */
  result: CheckResult;
  /** What happens next: `throw` rejects, `respond` answers 400, `warn` sends anyway, `repair` repairs. */
  mode: CheckMode;
}

/** What `onRepair` receives: the request was repaired and the repaired one is sent. */
export interface RepairReport {
  url: string;
  /** The endpoint id (`endpointOf`). */
  endpoint: EndpointId;
  /** The verdict on the request as given. */
  before: CheckResult;
  /**
   * Each change in the order made: `rule` (the violation it answers), `ids` (tool ids), `label`
   * as the request diff labels it (`dropped`, `inserted`, `merged`, `rewritten`), `kind`, the
   * input and output message positions (`messageIndex`, `outputIndex`, `replaced`) and a `note`.
   */
  changes: LabelledChange[];
  /** The body sent instead of the one given (JSON text). */
  body: string;
}

/** What `onSkip` receives besides the reason. */
export interface SkipInfo {
  url: string;
  /** The endpoint id, or null when the URL is no provider endpoint (`not-endpoint`). */
  endpoint: EndpointId | null;
  /** The body's size (bytes; a string's length) when over the cap. */
  size?: number;
  /** For `unreadable-transcript`: the error naming the missing message. */
  error?: UnreadableTranscriptError;
}

export interface CheckedFetchOptions {
  /** The fetch that sends (default: `globalThis.fetch`, looked up at call time). */
  fetch?: FetchLike;
  /** `throw`, `respond`, `warn` or `repair` (see `CheckMode`). */
  mode: CheckMode;
  /** Whose rules, instead of the one the URL names (e.g. `deepseek` behind a generic gateway). */
  provider?: ProviderId;
  /**
   * Base URLs that are provider endpoints too (a gateway, a proxy, a local server): a request at
   * or under one is read; its API is the end of its path (`…/v1/messages`, `…/chat/completions`,
   * `…/responses`, `…:generateContent`, `…/converse`), else the body decides. Without them only
   * the providers' own hosts are read (`endpointOf`).
   */
  endpoints?: readonly NamedEndpoint[];
  /** Bodies over this many bytes pass through unread (default 32 MB). */
  maxBodyBytes?: number;
  /**
   * In `repair` mode, what to do with a request the repair cannot make valid (a stripped thinking
   * block, missing tool definitions): as in that mode (default `respond`).
   */
  unrepaired?: 'throw' | 'respond' | 'warn';
  /**
   * Called for every request the provider would reject, before it is refused (throw, respond),
   * sent anyway (warn) or repaired (repair). Default in warn mode: one `console.warn` line with
   * the provider's text. An exception here propagates to the caller.
   */
  onViolation?: (report: ViolationReport) => void;
  /**
   * Called for every repaired request before the repaired one is sent. Default: one
   * `console.warn` line per change. An exception here propagates to the caller.
   */
  onRepair?: (report: RepairReport) => void;
  /**
   * Called for every request passed through unread or unchecked, with the reason (`SkipReason`),
   * before the inner fetch is called. An exception here propagates to the caller.
   */
  onSkip?: (reason: SkipReason, info: SkipInfo) => void;
  /**
   * Record every provider call: a file path (Node: one JSON line appended per call) or a function
   * called with each line (`RecordLine`, schema in docs/fetch-record.md): time, URL, endpoint, the
   * request as sent (auth headers never), the verdict, what repair changed, and the answer's
   * status (with the provider's error body for a non-2xx answer). Calls that are not to a
   * provider endpoint are not recorded.
   */
  record?: RecordTarget;
}

const MODES: readonly CheckMode[] = ['throw', 'respond', 'warn', 'repair'];

/**
 * A `fetch` that validates provider requests before sending them: Anthropic Messages, OpenAI
 * Chat Completions and Responses, Gemini `generateContent`, Bedrock Converse (and Claude through
 * Bedrock InvokeModel or Vertex rawPredict), at the providers' own hosts (`endpointOf`) and the
 * base URLs named in `endpoints`. Any other request is passed to the inner fetch at once with the
 * same arguments, its body not touched; so is a stream body (in `init` or a `Request`'s), a body
 * over `maxBodyBytes`, and a body of another shape (`onSkip` says which and why). A valid request
 * is sent as given (same arguments, same body bytes). Cost for a provider call: one
 * `JSON.parse` of the body plus a check, O(messages).
 * @param opts `mode`, the inner `fetch`, `endpoints`, `maxBodyBytes`, `record`, a `provider`
 *   override, the reporters `onViolation`, `onRepair`, `onSkip`
 * @returns a fetch to give the client (`new Anthropic({ fetch })`, `new OpenAI({ fetch })`,
 *   `createAnthropic({ fetch })`, LangChain's `clientOptions: { fetch }`), with `flush()` to wait
 *   for the record's writes
 * @throws RangeError for an unknown mode or provider, or a negative `maxBodyBytes`
 * @example
 * import Anthropic from '@anthropic-ai/sdk';
 * import { createCheckedFetch } from 'transcript-inspector';
 *
 * const client = new Anthropic({ fetch: createCheckedFetch({ mode: 'respond' }) });
 * await client.messages.create({ model, max_tokens: 1024, messages: compacted });
 * // → Anthropic.BadRequestError, 400, the provider's exact body; nothing was sent
 *
 * const raw = createCheckedFetch({ mode: 'throw' });
 * await raw(url, { method: 'POST', body }); // rejects with MalformedTranscriptError
 */
export function createCheckedFetch(opts: CheckedFetchOptions): CheckedFetch {
  const provider = knownProvider(opts.provider);
  if (!MODES.includes(opts.mode))
    throw new RangeError(`mode must be one of ${MODES.join(', ')}; got ${String(opts.mode)}`);
  const maxBytes = opts.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  if (!(maxBytes >= 0)) throw new RangeError('maxBodyBytes must be a number ≥ 0 (bytes)');
  const named = opts.endpoints ?? [];
  const writer = opts.record !== undefined ? recordWriter(opts.record) : null;
  const onViolation = opts.onViolation ?? (opts.mode === 'warn' ? warnLine : undefined);
  const onRepair = opts.onRepair ?? repairLines;
  const checked = (input: string | URL | Request, init?: RequestInit): Promise<Response> => {
    try {
      const inner = opts.fetch ?? globalThis.fetch;
      const url = urlOf(input);
      const p = plan(input, init, named, maxBytes);
      const ctx: CallContext = {
        input,
        init,
        url,
        inner,
        mode: opts.mode,
        unrepaired: opts.unrepaired ?? 'respond',
        provider,
        writer,
        onViolation,
        onRepair,
        onSkip: opts.onSkip,
      };
      // Everything not read is sent now, before this function returns: no await, no tee.
      return runChecked(ctx, p);
    } catch (e) {
      return Promise.reject(e instanceof Error ? e : new Error(String(e)));
    }
  };
  return Object.assign(checked, { flush: () => writer?.flush() ?? Promise.resolve() });
}

function warnLine(r: ViolationReport): void {
  const v = r.result.firstViolation;
  console.warn(
    `transcript-inspector: ${r.result.provider} would reject ${r.url} with HTTP ${v?.status ?? 400} [${v?.code ?? '?'}]: ${v?.message ?? ''} (sent anyway: warn mode)`,
  );
}

function repairLines(r: RepairReport): void {
  for (const c of r.changes)
    console.warn(
      `transcript-inspector: repaired a request to ${r.url} [${c.rule ?? c.kind}, ${c.label}]: ${c.note}`,
    );
}
