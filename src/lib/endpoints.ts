/**
 * Which provider API a request goes to, from its URL and body: the table the checked fetch reads.
 * One entry per API; a new API is one entry here.
 */
import { parserFor } from '../model/parse/registry.ts';
import { detectFormats } from '../model/parse/index.ts';
import type { FormatId, ProviderId } from '../model/types.ts';

/** A recognised provider request: the body's format, whose rules, and the model when in the URL. */
export interface Endpoint {
  format: FormatId;
  provider: ProviderId;
  /** The model named by the URL (Gemini, Bedrock, Vertex), when it is there. */
  model?: string;
}

interface Route {
  /** Matched against the URL's path (no query). Group 1, when present, is the model. */
  path: RegExp;
  format: FormatId;
  provider: ProviderId;
  /** A body test, for paths that several APIs share (Bedrock and Vertex invoke Anthropic models). */
  body?: (v: Record<string, unknown>) => boolean;
}

const isAnthropicBody = (v: Record<string, unknown>) => 'anthropic_version' in v;

/** Provider APIs by URL path, most specific first. */
const ROUTES: readonly Route[] = [
  // Anthropic Messages (api.anthropic.com/v1/messages, gateways and proxies keep the suffix).
  { path: /\/messages$/, format: 'anthropic-messages', provider: 'anthropic' },
  // Claude on Bedrock InvokeModel and on Vertex rawPredict: an Anthropic body, the model in the URL.
  {
    path: /\/model\/([^/]+)\/invoke(?:-with-response-stream)?$/,
    format: 'anthropic-messages',
    provider: 'anthropic',
    body: isAnthropicBody,
  },
  {
    path: /\/models\/([^/:]+):(?:stream)?rawPredict$/,
    format: 'anthropic-messages',
    provider: 'anthropic',
    body: isAnthropicBody,
  },
  { path: /\/chat\/completions$/, format: 'openai-chat', provider: 'openai-chat' },
  { path: /\/responses$/, format: 'openai-responses', provider: 'openai-responses' },
  // Gemini API and Vertex AI: …/models/{model}:generateContent (or streamGenerateContent).
  { path: /\/models\/([^/:]+):(?:stream)?generateContent$/, format: 'gemini', provider: 'gemini' },
  // Bedrock Converse: /model/{modelId}/converse (or converse-stream); the id is URL-encoded.
  {
    path: /\/model\/([^/]+)\/converse(?:-stream)?$/,
    format: 'bedrock-converse',
    provider: 'bedrock',
  },
];

/** OpenAI-compatible Chat Completions hosts whose own rules differ from OpenAI's. */
const CHAT_HOSTS: readonly { host: RegExp; provider: ProviderId }[] = [
  { host: /(^|\.)deepseek\.com$/, provider: 'deepseek' },
  { host: /(^|\.)mistral\.ai$/, provider: 'mistral' },
  { host: /(^|\.)(dashscope[\w-]*\.aliyuncs\.com|dashscope\.aliyun\.com)$/, provider: 'qwen' },
];

/**
 * The request formats a body is recognised as when its URL is not a known API path: those of the
 * routes above.
 */
const REQUEST_FORMATS: readonly FormatId[] = [...new Set(ROUTES.map((r) => r.format))];

/** A body sniff this sure is taken as the format when the URL names no known API. */
const BODY_ONLY_SCORE = 0.9;

/**
 * Recognise a provider request from its URL and parsed JSON body.
 * @param url the request URL (absolute; a relative one is read against `http://localhost`)
 * @param body the parsed JSON body
 * @returns the endpoint, or null when this is not a request the library checks (another API,
 *   a body of another shape): such requests pass through unchecked
 */
export function recogniseEndpoint(url: string, body: unknown): Endpoint | null {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return null;
  const v = body as Record<string, unknown>;
  let u: URL;
  try {
    u = new URL(url, 'http://localhost');
  } catch {
    return null;
  }
  const path = u.pathname.replace(/\/+$/, '');
  for (const r of ROUTES) {
    const m = r.path.exec(path);
    if (!m || (r.body && !r.body(v))) continue;
    if (!sniffs(r.format, v)) return null;
    const model = m[1] !== undefined ? safeDecode(m[1]) : undefined;
    const provider =
      r.format === 'openai-chat'
        ? (CHAT_HOSTS.find((h) => h.host.test(u.hostname))?.provider ?? r.provider)
        : r.provider;
    return { format: r.format, provider, ...(model !== undefined ? { model } : {}) };
  }
  // No known path (a custom gateway route): a body that is surely one of the request formats.
  const top = detectFormats({ kind: 'json', value: v })[0];
  if (top && top.score >= BODY_ONLY_SCORE && REQUEST_FORMATS.includes(top.format)) {
    const p = parserFor(top.format);
    if (p) return { format: top.format, provider: p.provider };
  }
  return null;
}

/** True when the format's own sniffer accepts the body (a forced parse of another shape could invent violations). */
function sniffs(format: FormatId, v: Record<string, unknown>): boolean {
  const p = parserFor(format);
  if (!p) return false;
  try {
    return p.sniff(v) > 0;
  } catch {
    return false;
  }
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}
