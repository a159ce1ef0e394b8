/**
 * What a checked fetch may read of a request, decided without touching the body: its URL, its
 * method and the body's type and size. Everything it will not read is a `SkipReason`.
 */
import { endpointOf, type EndpointMatch, type NamedEndpoint } from './endpoints.ts';

/**
 * Why a request passes through unread and unchecked:
 * - `not-endpoint`: the URL is no provider endpoint the library knows nor a base URL named in
 *   `endpoints` (an app's own API, a log sink, a storage upload); the body is not touched;
 * - `not-post`: a GET, HEAD, … to a provider endpoint;
 * - `no-body`: a POST without a body;
 * - `stream-body`: the body is a stream (a `ReadableStream` or an async iterable in `init`, or the
 *   body of a `Request`, which is always a stream): reading it would hold the upload until it
 *   ends, so the inner fetch is called at once with it;
 * - `too-large`: the body is over `maxBodyBytes`;
 * - `not-json`: form data, search params, or text that is not JSON;
 * - `other-body`: JSON that is not a request of the endpoint's API (another shape);
 * - `unreadable-transcript`: the endpoint's request with an entry of its message list missing
 *   (a hole or `null`), in `warn` and `repair` modes (sent as given; `throw` and `respond` reject
 *   with `UnreadableTranscriptError`).
 */
export type SkipReason =
  | 'not-endpoint'
  | 'not-post'
  | 'no-body'
  | 'stream-body'
  | 'too-large'
  | 'not-json'
  | 'other-body'
  | 'unreadable-transcript';

/** The default size cap on a body the checked fetch reads: 32 MB. */
export const DEFAULT_MAX_BODY_BYTES = 32 * 1024 * 1024;

/** What the checked fetch does with a request, decided before any of its body is read. */
export type Plan =
  | { kind: 'pass'; reason: SkipReason; endpoint: EndpointMatch | null; size?: number }
  | { kind: 'text'; endpoint: EndpointMatch; text: string }
  | { kind: 'blob'; endpoint: EndpointMatch; blob: Blob };

const isRequest = (x: unknown): x is Request =>
  typeof Request !== 'undefined' && x instanceof Request;

/** The URL of a fetch input, as a string. */
export function urlOf(input: string | URL | Request): string {
  if (typeof input === 'string') return input;
  if (isRequest(input)) return input.url;
  return input.href;
}

const isStream = (b: unknown): boolean =>
  (typeof ReadableStream !== 'undefined' && b instanceof ReadableStream) ||
  (typeof b === 'object' &&
    b !== null &&
    (Symbol.asyncIterator in b || typeof (b as { getReader?: unknown }).getReader === 'function'));

/**
 * Decide, synchronously and without reading the body, whether a request is read.
 * @param named base URLs the caller names as provider endpoints
 * @param maxBytes the size cap (a string's length in UTF-16 units stands for its size: a JSON
 *   body is mostly ASCII, where the two agree)
 * @returns `pass` with the reason, or the body to read: text at hand, or a Blob to read
 */
export function plan(
  input: string | URL | Request,
  init: RequestInit | undefined,
  named: readonly NamedEndpoint[],
  maxBytes: number,
): Plan {
  const endpoint = endpointOf(urlOf(input), named);
  if (!endpoint) return { kind: 'pass', reason: 'not-endpoint', endpoint };
  const method = (init?.method ?? (isRequest(input) ? input.method : 'GET')).toUpperCase();
  if (method !== 'POST') return { kind: 'pass', reason: 'not-post', endpoint };
  const body = init?.body;
  if (body === undefined || body === null) {
    // A Request's body is a stream whatever it was made from: never read (no tee, no wait).
    const inRequest = isRequest(input) && input.body !== null;
    return { kind: 'pass', reason: inRequest ? 'stream-body' : 'no-body', endpoint };
  }
  const pass = (reason: SkipReason, size?: number): Plan => ({
    kind: 'pass',
    reason,
    endpoint,
    ...(size !== undefined ? { size } : {}),
  });
  if (typeof body === 'string')
    return body.length > maxBytes
      ? pass('too-large', body.length)
      : { kind: 'text', endpoint, text: body };
  if (body instanceof ArrayBuffer || ArrayBuffer.isView(body)) {
    if (body.byteLength > maxBytes) return pass('too-large', body.byteLength);
    try {
      return { kind: 'text', endpoint, text: new TextDecoder().decode(body) };
    } catch {
      return pass('not-json');
    }
  }
  if (typeof Blob !== 'undefined' && body instanceof Blob)
    return body.size > maxBytes
      ? pass('too-large', body.size)
      : { kind: 'blob', endpoint, blob: body };
  if (isStream(body)) return pass('stream-body');
  return pass('not-json');
}
