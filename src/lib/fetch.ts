/**
 * The checked fetch: a `fetch` for any client that accepts one, validating each provider request
 * before it leaves. It reads the body, never changes it, and passes what it cannot read through.
 */
import type { ProviderId } from '../model/types.ts';
import type { Violation } from '../model/validate/index.ts';
import { checkParsed, type CheckResult } from './check.ts';
import { recogniseEndpoint } from './endpoints.ts';
import { knownProvider, tryRead } from './read.ts';

/** The `fetch` signature the official SDKs accept. */
export type FetchLike = (input: string | URL | Request, init?: RequestInit) => Promise<Response>;

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
 */
export type CheckMode = 'throw' | 'respond' | 'warn';

/** What `onViolation` receives for a request the provider would reject. */
export interface ViolationReport {
  /** The request URL. */
  url: string;
  /** The verdict: `violations`, `firstError` (the provider's exact body), `provider`, `format`. */
  result: CheckResult;
  /** What happens next: `throw` rejects, `respond` answers 400, `warn` sends anyway. */
  mode: CheckMode;
}

export interface CheckedFetchOptions {
  /** The fetch that sends (default: `globalThis.fetch`, looked up at call time). */
  fetch?: FetchLike;
  /** `throw`, `respond` or `warn` (see `CheckMode`). */
  mode: CheckMode;
  /** Whose rules, instead of the one the URL names (e.g. `deepseek` behind a generic gateway). */
  provider?: ProviderId;
  /**
   * Called for every request the provider would reject, before it is refused (throw, respond)
   * or sent anyway (warn). Default in warn mode: one `console.warn` line with the provider's
   * text. An exception here propagates to the caller.
   */
  onViolation?: (report: ViolationReport) => void;
}

/**
 * The error a checked fetch rejects with in throw mode: the request was not sent.
 * `message` carries the provider's own text, so it reads the same wherever an SDK wraps it
 * (the Anthropic and OpenAI SDKs pass errors from a custom fetch through, or as `cause`).
 */
export class MalformedTranscriptError extends Error {
  /** The violations, first error first (as `check` returns them). */
  readonly violations: Violation[];
  /** The exact JSON body the provider would have answered with. */
  readonly providerError: unknown;
  /** The HTTP status the provider would have answered with (400). */
  readonly status: number;
  readonly provider: ProviderId;
  readonly url: string;
  readonly result: CheckResult;
  constructor(url: string, result: CheckResult) {
    const v = result.firstViolation;
    super(
      `${result.provider} would reject this request with HTTP ${v?.status ?? 400} [${v?.code ?? '?'} ${v?.rule ?? ''}]: ${v?.message ?? ''} (not sent; checked by transcript-inspector)`,
    );
    this.name = 'MalformedTranscriptError';
    this.violations = result.violations;
    this.providerError = result.firstError;
    this.status = v?.status ?? 400;
    this.provider = result.provider;
    this.url = url;
    this.result = result;
  }
}

/**
 * A `fetch` that validates provider requests before sending them: Anthropic Messages, OpenAI
 * Chat Completions and Responses, Gemini `generateContent`, Bedrock Converse (and Claude through
 * Bedrock InvokeModel or Vertex rawPredict), recognised from the URL and the body. The request is
 * passed to the inner fetch exactly as given (same arguments, same body bytes); requests that are
 * not POSTs to a provider API, and bodies it cannot read (streams, form data, non-JSON), pass
 * through unchecked. Cost: one `JSON.parse` of the body plus a check, O(messages).
 * @param opts `mode`, the inner `fetch`, a `provider` override, an `onViolation` reporter
 * @returns a fetch to give the client (`new Anthropic({ fetch })`, `new OpenAI({ fetch })`,
 *   `createAnthropic({ fetch })`, LangChain's `clientOptions: { fetch }`)
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
export function createCheckedFetch(opts: CheckedFetchOptions): FetchLike {
  const provider = knownProvider(opts.provider);
  if (!MODES.includes(opts.mode))
    throw new RangeError(`mode must be one of ${MODES.join(', ')}; got ${String(opts.mode)}`);
  const report = opts.onViolation ?? (opts.mode === 'warn' ? warnLine : undefined);
  return async (input, init) => {
    const inner = opts.fetch ?? globalThis.fetch;
    const send = () => (init === undefined ? inner(input) : inner(input, init));
    const url = urlOf(input);
    const result = await checkRequest(url, input, init, provider);
    if (result === null || result.valid) return send();
    report?.({ url, result, mode: opts.mode });
    if (opts.mode === 'throw') throw new MalformedTranscriptError(url, result);
    if (opts.mode === 'respond') return providerResponse(result);
    return send();
  };
}

const MODES: readonly CheckMode[] = ['throw', 'respond', 'warn'];

/** The provider's answer to the request, as a `Response` (respond mode). */
function providerResponse(result: CheckResult): Response {
  const headers = new Headers({
    'content-type': 'application/json',
    'x-transcript-inspector': 'not-sent',
  });
  // The AWS SDK names the error from this header, as Bedrock sends it.
  if (result.provider === 'bedrock') headers.set('x-amzn-errortype', 'ValidationException');
  return new Response(JSON.stringify(result.firstError), {
    status: result.firstViolation?.status ?? 400,
    headers,
  });
}

/**
 * The `MalformedTranscriptError` behind an error, following `cause` (an SDK that wraps a rejected
 * fetch, such as `APIConnectionError`), or null.
 * @example
 * catch (e) { const m = findMalformed(e); if (m) console.error(m.providerError); }
 */
export function findMalformed(e: unknown): MalformedTranscriptError | null {
  for (let x = e, depth = 0; x !== null && typeof x === 'object' && depth < 8; depth++) {
    if (x instanceof MalformedTranscriptError) return x;
    x = (x as { cause?: unknown }).cause;
  }
  return null;
}

/** The verdict on one request, or null when it is not a request the library reads. */
async function checkRequest(
  url: string,
  input: string | URL | Request,
  init: RequestInit | undefined,
  provider: ProviderId | undefined,
): Promise<CheckResult | null> {
  const method = (init?.method ?? (isRequest(input) ? input.method : 'GET')).toUpperCase();
  if (method !== 'POST') return null;
  const text = await bodyText(input, init);
  if (text === null) return null;
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    return null;
  }
  const endpoint = recogniseEndpoint(url, value);
  if (endpoint === null) return null;
  const parsed = tryRead(value, { format: endpoint.format });
  if (!parsed.ok) return null;
  return checkParsed(parsed.value, {
    provider: provider ?? endpoint.provider,
    ...(endpoint.model !== undefined ? { model: endpoint.model } : {}),
  });
}

const isRequest = (x: unknown): x is Request =>
  typeof Request !== 'undefined' && x instanceof Request;

function urlOf(input: string | URL | Request): string {
  if (typeof input === 'string') return input;
  if (isRequest(input)) return input.url;
  return input.href;
}

/**
 * The body as text without consuming it: strings and bytes directly, a Blob or a `Request`'s
 * body through a copy. Streams, form data and search params are not read (null).
 */
async function bodyText(
  input: string | URL | Request,
  init: RequestInit | undefined,
): Promise<string | null> {
  const body = init?.body;
  if (body === undefined || body === null) {
    if (!isRequest(input) || input.body === null) return null;
    try {
      return await input.clone().text();
    } catch {
      return null;
    }
  }
  if (typeof body === 'string') return body;
  try {
    if (body instanceof ArrayBuffer) return new TextDecoder().decode(body);
    if (ArrayBuffer.isView(body)) return new TextDecoder().decode(body);
    if (typeof Blob !== 'undefined' && body instanceof Blob) return await body.text();
  } catch {
    return null;
  }
  return null;
}

function warnLine(r: ViolationReport): void {
  const v = r.result.firstViolation;
  console.warn(
    `transcript-inspector: ${r.result.provider} would reject ${r.url} with HTTP ${v?.status ?? 400} [${v?.code ?? '?'}]: ${v?.message ?? ''} (sent anyway: warn mode)`,
  );
}
