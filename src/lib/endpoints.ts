/**
 * Which provider endpoint a URL is: the table the checked fetch reads before it touches a body.
 * One entry per endpoint (host and path); `endpointOf` is the one question the rest of the
 * library asks ("which endpoint id is this URL, or none"), so the table can later be derived from
 * the model's endpoint registry without changing its callers.
 */
import { parserFor } from '../model/parse/registry.ts';
import { detectFormats } from '../model/parse/index.ts';
import type { FormatId, ProviderId } from '../model/types.ts';

/**
 * An endpoint id: the provider's API as one endpoint serves it (`anthropic`, `anthropic-bedrock`,
 * `anthropic-vertex`, `deepseek-anthropic`, `openai-chat`, `azure-openai`, `openai-responses`,
 * `deepseek`, `kimi`, `gemini`, `vertex-gemini`, `bedrock`, `mistral`, `qwen`, …), or `custom`
 * for a base URL the caller named whose path says no API.
 */
export type EndpointId = string;

/** What the URL alone says: the endpoint, the body's format and whose rules, the model. */
export interface EndpointMatch {
  id: EndpointId;
  /** The request format the endpoint takes; absent for a named base whose path says none. */
  format?: FormatId;
  /** Whose rules judge it (a validator id); absent with `format`. */
  provider?: ProviderId;
  /** The model named by the URL (Gemini, Bedrock, Vertex), when it is there. */
  model?: string;
  /** True when the match came from a base URL the caller named (`endpoints: [...]`). */
  named?: true;
}

/** A recognised provider request: the body's format, whose rules, and the model when in the URL. */
export interface Endpoint {
  format: FormatId;
  provider: ProviderId;
  /** The model named by the URL (Gemini, Bedrock, Vertex), when it is there. */
  model?: string;
  /** The endpoint id (see `EndpointId`). */
  id: EndpointId;
}

/** An API by the end of its path: what a gateway or proxy in front of it keeps. */
interface Api {
  id: EndpointId;
  /** Matched against the URL's path (no query, no trailing slash). Group 1, when present, is the model. */
  path: RegExp;
  format: FormatId;
  provider: ProviderId;
  /** A body test, for paths several APIs share (Bedrock and Vertex invoke any vendor's model). */
  body?: (v: Record<string, unknown>) => boolean;
}

const isAnthropicBody = (v: Record<string, unknown>) => 'anthropic_version' in v;

const MESSAGES: Api = {
  id: 'anthropic',
  path: /\/messages$/,
  format: 'anthropic-messages',
  provider: 'anthropic',
};
const CHAT: Api = {
  id: 'openai-chat',
  path: /\/chat\/completions$/,
  format: 'openai-chat',
  provider: 'openai-chat',
};
const RESPONSES: Api = {
  id: 'openai-responses',
  path: /\/responses$/,
  format: 'openai-responses',
  provider: 'openai-responses',
};
const GENERATE: Api = {
  id: 'gemini',
  path: /\/models\/([^/:]+):(?:stream)?generateContent$/,
  format: 'gemini',
  provider: 'gemini',
};
const CONVERSE: Api = {
  id: 'bedrock',
  path: /\/model\/([^/]+)\/converse(?:-stream)?$/,
  format: 'bedrock-converse',
  provider: 'bedrock',
};
const INVOKE_CLAUDE: Api = {
  id: 'anthropic-bedrock',
  path: /\/model\/([^/]+)\/invoke(?:-with-response-stream)?$/,
  format: 'anthropic-messages',
  provider: 'anthropic',
  body: isAnthropicBody,
};
const RAW_PREDICT_CLAUDE: Api = {
  id: 'anthropic-vertex',
  path: /\/models\/([^/:]+):(?:stream)?rawPredict$/,
  format: 'anthropic-messages',
  provider: 'anthropic',
  body: isAnthropicBody,
};

/** The APIs by path alone, most specific first: for base URLs the caller names. */
const APIS: readonly Api[] = [
  INVOKE_CLAUDE,
  RAW_PREDICT_CLAUDE,
  MESSAGES,
  CHAT,
  RESPONSES,
  GENERATE,
  CONVERSE,
];

/** A provider's host and the APIs it serves there, each with its endpoint id. */
interface Host {
  host: RegExp;
  apis: readonly Api[];
}

const as = (api: Api, id: EndpointId, provider = api.provider): Api => ({ ...api, id, provider });

/**
 * The provider endpoints, by host. Sources: each provider's API reference (base URLs and paths);
 * the dialect ids are those of issue 35 (docs/rules.md).
 */
const HOSTS: readonly Host[] = [
  { host: /^api\.anthropic\.com$/, apis: [MESSAGES] },
  { host: /^api\.openai\.com$/, apis: [CHAT, RESPONSES] },
  { host: /\.openai\.azure\.com$/, apis: [as(CHAT, 'azure-openai'), RESPONSES] },
  { host: /^generativelanguage\.googleapis\.com$/, apis: [GENERATE] },
  {
    host: /^([a-z0-9-]+-)?aiplatform\.googleapis\.com$/,
    apis: [as(GENERATE, 'vertex-gemini'), RAW_PREDICT_CLAUDE, as(CHAT, 'vertex-openai-chat')],
  },
  {
    host: /^bedrock-runtime(-fips)?\.[a-z0-9-]+\.amazonaws\.com$/,
    apis: [CONVERSE, INVOKE_CLAUDE],
  },
  {
    host: /^api\.deepseek\.com$/,
    apis: [as(MESSAGES, 'deepseek-anthropic'), as(CHAT, 'deepseek', 'deepseek')],
  },
  { host: /^api\.mistral\.ai$/, apis: [as(CHAT, 'mistral', 'mistral')] },
  {
    host: /^(dashscope[\w-]*\.aliyuncs\.com|dashscope\.aliyun\.com)$/,
    apis: [as(CHAT, 'qwen', 'qwen')],
  },
  { host: /^api\.moonshot\.(ai|cn)$/, apis: [as(CHAT, 'kimi'), as(MESSAGES, 'kimi-anthropic')] },
  {
    host: /^openrouter\.ai$/,
    apis: [as(CHAT, 'openrouter'), as(RESPONSES, 'openrouter-responses')],
  },
  { host: /^api\.groq\.com$/, apis: [as(CHAT, 'groq'), as(RESPONSES, 'groq-responses')] },
  { host: /^api\.together\.(xyz|ai)$/, apis: [as(CHAT, 'together')] },
  { host: /^api\.x\.ai$/, apis: [as(CHAT, 'xai'), as(RESPONSES, 'xai-responses')] },
];

/** A base URL the caller names as a provider endpoint (a gateway, a proxy, a local server). */
export type NamedEndpoint = string | URL;

function parse(url: string | URL): URL | null {
  try {
    return new URL(url, 'http://localhost');
  } catch {
    return null;
  }
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

function matchApi(apis: readonly Api[], path: string): EndpointMatch | null {
  for (const a of apis) {
    const m = a.path.exec(path);
    if (!m) continue;
    const model = m[1] !== undefined ? safeDecode(m[1]) : undefined;
    return {
      id: a.id,
      format: a.format,
      provider: a.provider,
      ...(model !== undefined ? { model } : {}),
    };
  }
  return null;
}

/** True when `u` is at or under the base URL `base` (same origin, path prefix at a `/`). */
function under(u: URL, base: URL): boolean {
  if (u.origin !== base.origin) return false;
  const prefix = base.pathname.replace(/\/+$/, '');
  return prefix === '' || u.pathname === prefix || u.pathname.startsWith(`${prefix}/`);
}

/**
 * Which provider endpoint a URL is, from the URL alone (no body is read).
 * @param url the request URL (absolute; a relative one is read against `http://localhost`)
 * @param named base URLs the caller names as provider endpoints (`endpoints: [...]`): a URL at
 *   or under one is an endpoint; its API is the end of its path (`…/v1/messages`,
 *   `…/chat/completions`, …), or `custom` when the path says none (the body then decides)
 * @returns the endpoint, or null when the URL is no provider endpoint the library knows:
 *   such a request passes through unread
 */
export function endpointOf(
  url: string | URL,
  named: readonly NamedEndpoint[] = [],
): EndpointMatch | null {
  const u = parse(url);
  if (!u) return null;
  const path = u.pathname.replace(/\/+$/, '');
  for (const h of HOSTS) if (h.host.test(u.hostname)) return matchApi(h.apis, path);
  for (const b of named) {
    const base = parse(b);
    if (!base || !under(u, base)) continue;
    return { ...(matchApi(APIS, path) ?? { id: 'custom' }), named: true };
  }
  return null;
}

/** The API of the body's test (Bedrock's and Vertex's invoke paths serve every vendor). */
function bodyTest(m: EndpointMatch): Api['body'] {
  return [...APIS, ...HOSTS.flatMap((h) => h.apis)].find((a) => a.id === m.id)?.body;
}

/** A body sniff this sure is taken as the format at a named base whose path says no API. */
const BODY_ONLY_SCORE = 0.9;

/** The request formats a body at a named base is recognised as: those of the APIs above. */
const REQUEST_FORMATS: readonly FormatId[] = [...new Set(APIS.map((r) => r.format))];

/**
 * Recognise a provider request from its URL and parsed JSON body: `endpointOf`, then the body
 * must be of the endpoint's format (its sniffer accepts it).
 * @param url the request URL
 * @param body the parsed JSON body
 * @param named base URLs the caller names as provider endpoints (see `endpointOf`)
 * @returns the endpoint, or null when this is not a request the library checks (another URL,
 *   another API of the provider, a body of another shape): such requests pass through unchecked
 */
export function recogniseEndpoint(
  url: string,
  body: unknown,
  named: readonly NamedEndpoint[] = [],
): Endpoint | null {
  const m = endpointOf(url, named);
  return m ? bodyEndpoint(m, body) : null;
}

/** The endpoint a URL match and a parsed body make, or null when the body is not of its API. */
export function bodyEndpoint(m: EndpointMatch, body: unknown): Endpoint | null {
  if (body === null || typeof body !== 'object' || Array.isArray(body)) return null;
  const v = body as Record<string, unknown>;
  const model = m.model !== undefined ? { model: m.model } : {};
  if (m.format !== undefined && m.provider !== undefined) {
    const test = bodyTest(m);
    if ((test && !test(v)) || !sniffs(m.format, v)) return null;
    return { id: m.id, format: m.format, provider: m.provider, ...model };
  }
  // A named base whose path says no API: a body that is surely one of the request formats.
  const top = detectFormats({ kind: 'json', value: v })[0];
  if (top && top.score >= BODY_ONLY_SCORE && REQUEST_FORMATS.includes(top.format)) {
    const p = parserFor(top.format);
    if (p) return { id: m.id, format: top.format, provider: p.provider, ...model };
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
