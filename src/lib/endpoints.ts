/**
 * Which provider endpoint a URL is: the table the checked fetch reads before it touches a body,
 * derived from the model's endpoint registry (src/model/validate/endpoints/: each endpoint's
 * hosts, relays, paths and body test). `endpointOf` is the one question the rest of the library
 * asks ("which endpoint id is this URL, or none").
 */
import { parserFor } from '../model/parse/registry.ts';
import { detectFormats } from '../model/parse/index.ts';
import type { FormatId, ProviderId } from '../model/types.ts';
import { APIS as REGISTRY_APIS, ENDPOINT_LIST } from '../model/validate/endpoints/index.ts';

/**
 * An endpoint id: an id of the endpoint registry (`anthropic`, `anthropic-bedrock`,
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

/** One path of a registry endpoint: what a URL ending in it is. */
interface Api {
  id: EndpointId;
  /** Matched against the URL's path (no query, no trailing slash). Group 1, when present, is the model. */
  path: RegExp;
  format: FormatId;
  provider: ProviderId;
  /** A body test, for paths several APIs share (Bedrock and Vertex invoke any vendor's model). */
  body?: (v: Record<string, unknown>) => boolean;
  /** The endpoint's own hosts and the relays that take its bodies. */
  hosts: readonly RegExp[];
  /** An API's own endpoint, whose paths a gateway keeps (`anyHost`). */
  anyHost: boolean;
}

/**
 * Every path of every endpoint of the registry (src/model/validate/endpoints/: hosts, relays,
 * paths and body tests, from the providers' documented base URLs), in the registry's order. An
 * endpoint is judged by its own rules: its id is the provider (`ProviderId`), as on the page.
 */
const PATHS: readonly Api[] = ENDPOINT_LIST.flatMap((e) =>
  e.paths.map((path) => ({
    id: e.id,
    path,
    format: REGISTRY_APIS[e.api].format,
    provider: e.id,
    ...(e.body ? { body: e.body } : {}),
    hosts: [...e.hosts, ...(e.relays ?? [])],
    anyHost: e.anyHost === true,
  })),
);

/**
 * The paths by path alone, for base URLs the caller names: an API's own endpoint first (a
 * gateway keeps its paths), then the others (Bedrock's `/invoke`, Vertex's `:rawPredict`).
 */
const APIS: readonly Api[] = [
  ...PATHS.filter((a) => a.anyHost),
  ...PATHS.filter((a) => !a.anyHost),
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
  const atHost = PATHS.filter((a) => a.hosts.some((h) => h.test(u.hostname)));
  if (atHost.length > 0) return matchApi(atHost, path);
  for (const b of named) {
    const base = parse(b);
    if (!base || !under(u, base)) continue;
    return { ...(matchApi(APIS, path) ?? { id: 'custom' }), named: true };
  }
  return null;
}

/** The API of the body's test (Bedrock's and Vertex's invoke paths serve every vendor). */
function bodyTest(m: EndpointMatch): Api['body'] {
  return PATHS.find((a) => a.id === m.id)?.body;
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
