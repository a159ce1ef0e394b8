/**
 * HAR files (DevTools "Save all as HAR", mitmproxy, Charles): `log.entries[]`, one API call each.
 * Each entry that calls an LLM API becomes one request in the request picker; its
 * `request.postData.text` is the request body. Headers are never read (`authorization`,
 * `x-api-key` and `cookie` must never be shown), and URLs are shown without their query
 * (Gemini's `?key=`). The request opened first is the latest by `startedDateTime`: HAR entries
 * are not guaranteed to be in time order. See docs/formats.md#har.
 */
import { parseJsonBounded } from '../json.ts';
import { decodeBytes } from '../bytes.ts';
import { isObject, str, type Json } from '../util.ts';
import { splitSse, rebuildStreams } from './sse.ts';
import type { ContainerEntry, ContainerRead } from './types.ts';
import { endpointOfUrl } from '../../validate/endpoints/recognise.ts';
import { displayUrl, formatOfUrl, isLlmUrl } from './urlFormat.ts';

/** True for a HAR document: an object with a `log.entries` array. */
export function isHar(v: unknown): boolean {
  return isObject(v) && isObject(v.log) && Array.isArray(v.log.entries);
}

function parseBody(text: string): unknown {
  const t = text.trimStart();
  if (!t.startsWith('{') && !t.startsWith('[')) return undefined;
  try {
    return parseJsonBounded(text);
  } catch {
    return undefined;
  }
}

/** True when a parsed body holds a primary list (`messages`, `input`, `contents`). */
function isRequestBody(v: unknown): boolean {
  return (
    isObject(v) &&
    (Array.isArray(v.messages) ||
      Array.isArray(v.contents) ||
      Array.isArray(v.input) ||
      typeof v.input === 'string')
  );
}

/** The text of a HAR response body, decoded from base64 when it says so. */
function responseText(content: Json): string | undefined {
  const text = str(content.text);
  if (text === undefined) return undefined;
  if (content.encoding !== 'base64') return text;
  const bytes = fromBase64(text);
  if (!bytes) return undefined;
  const decoded = decodeBytes(bytes);
  return decoded.ok ? decoded.value : undefined;
}

const B64 = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';

/** Decode standard base64 (whitespace ignored); null when it holds another character. */
export function fromBase64(text: string): Uint8Array | null {
  const clean = text.replace(/[\s=]+/g, '');
  const out = new Uint8Array(Math.floor((clean.length * 3) / 4));
  let bits = 0;
  let acc = 0;
  let n = 0;
  for (let i = 0; i < clean.length; i++) {
    const v = B64.indexOf(clean[i] as string);
    if (v < 0) return null;
    acc = (acc << 6) | v;
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out[n++] = (acc >> bits) & 0xff;
    }
  }
  return out.subarray(0, n);
}

/**
 * The provider's error for an entry whose response is a 4xx/5xx: `HTTP 400: <message>` (the
 * status alone when the body holds no `error.message`); undefined for any other entry.
 */
function responseError(entry: Json): string | undefined {
  const res = isObject(entry.response) ? entry.response : null;
  const status = res && typeof res.status === 'number' ? res.status : undefined;
  if (!res || status === undefined || status < 400) return undefined;
  const message = errorMessage(res);
  return message !== undefined ? `HTTP ${status}: ${message}` : `HTTP ${status}`;
}

/** The `error.message` of a response's JSON body, if any. */
function errorMessage(res: Json): string | undefined {
  const content = isObject(res.content) ? res.content : {};
  const text = responseText(content);
  const body = text !== undefined ? parseBody(text) : undefined;
  const err = isObject(body) && isObject(body.error) ? body.error : null;
  return err ? str(err.message) : undefined;
}

/** What the entry's response says, in one line: status, and the provider's error message. */
function responseNote(entry: Json): string | undefined {
  const res = isObject(entry.response) ? entry.response : null;
  if (!res) return undefined;
  const status = typeof res.status === 'number' ? res.status : undefined;
  if (status === undefined || status === 0) return 'The HAR did not record a response.';
  if (status < 400) {
    const content = isObject(res.content) ? res.content : {};
    const text = responseText(content);
    if (text !== undefined && /^\s*(event|data):/.test(text)) {
      const streams = rebuildStreams(splitSse(text).events);
      if (streams.length > 0) return `The provider answered ${status} (a streamed response).`;
    }
    return `The provider answered ${status}.`;
  }
  const message = errorMessage(res);
  return message !== undefined
    ? `The provider answered ${status}: ${message}`
    : `The provider answered ${status}.`;
}

/**
 * The position in `times` (epoch ms, NaN when unknown) of the latest time, the later position on a
 * tie; −1 when no time is known.
 */
function latestIndex(times: readonly number[]): number {
  let best = -1;
  times.forEach((t, i) => {
    if (!Number.isNaN(t) && (best < 0 || t >= (times[best] as number))) best = i;
  });
  return best;
}

/**
 * Read a HAR document.
 * @param value a parsed JSON value
 * @returns null when it is not a HAR; else one entry per LLM request in the HAR, in file order,
 *   labelled "HAR entry 4 of 12: POST https://…/v1/messages", with the URL's format hint and
 *   the response status (and the provider's error message for a 4xx/5xx) as a note, the error
 *   also as the entry's `apiError`, the latest by `startedDateTime` (ties: the later entry)
 *   marked `preferred`; or a ParseError when no entry is an LLM request with a JSON body. Never
 *   throws.
 */
export function readHar(value: unknown): ContainerRead {
  if (!isHar(value)) return null;
  const all = ((value as { log: { entries: unknown[] } }).log.entries ?? []).filter(isObject);
  const entries: ContainerEntry[] = [];
  /** Each entry's `startedDateTime`, epoch ms (NaN when absent or unreadable). */
  const times: number[] = [];
  let llmWithoutBody = 0;
  all.forEach((e, i) => {
    const req = isObject(e.request) ? e.request : {};
    const url = str(req.url) ?? '';
    const method = str(req.method) ?? 'POST';
    const post = isObject(req.postData) ? req.postData : {};
    const text = str(post.text);
    const body = text !== undefined ? parseBody(text) : undefined;
    const llm = isLlmUrl(url);
    if (!llm && !isRequestBody(body)) return;
    if (body === undefined || !isRequestBody(body)) {
      if (llm && method !== 'GET' && method !== 'OPTIONS') llmWithoutBody++;
      return;
    }
    const hint = formatOfUrl(url);
    const hit = endpointOfUrl(url, body);
    const endpoint = hit?.id;
    const note = responseNote(e);
    const apiError = responseError(e);
    const where = `HAR entry ${i + 1} of ${all.length}: ${method} ${displayUrl(url)}`;
    times.push(Date.parse(str(e.startedDateTime) ?? ''));
    entries.push({
      label: where,
      value: body,
      note: {
        kind: 'har',
        where,
        ...(hint ? { formatHint: hint } : {}),
        ...(endpoint ? { endpoint } : {}),
        ...(hit?.model !== undefined ? { model: hit.model } : {}),
        ...(note ? { notes: [note] } : {}),
        ...(apiError !== undefined ? { apiError } : {}),
      },
    });
  });
  if (entries.length === 0)
    return {
      ok: false,
      error: {
        kind: 'shape',
        message:
          llmWithoutBody > 0
            ? `This HAR file has ${llmWithoutBody} LLM API call(s), but none recorded a JSON request body (postData.text): save the HAR with content ("Save all as HAR with content").`
            : `This HAR file has ${all.length} entries, none of them an LLM API request (/v1/messages, /chat/completions, /responses, :generateContent, /converse).`,
      },
    };
  const latest = entries[latestIndex(times)];
  if (latest) latest.preferred = true;
  return { ok: true, value: entries };
}
