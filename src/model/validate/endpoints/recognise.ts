/**
 * Which endpoint an input names: a request URL (a curl command, a HAR entry, the checked fetch),
 * a host (an OTel span's `server.address`), or a model id in the body (a Bedrock or Vertex model
 * id, `anthropic_version`). Read from the endpoint registry's hosts, paths and model ids.
 */
import type { FormatId, Transcript } from '../../types.ts';
import { APIS, ENDPOINT_LIST, ENDPOINTS, type EndpointId } from './index.ts';
import type { Endpoint } from './types.ts';

/** A recognised endpoint, and the model its URL names (Gemini, Bedrock, Vertex), when it does. */
export interface EndpointMatch {
  id: EndpointId;
  model?: string;
}

/**
 * Host (lower case, no port, no user info) and path (no query, no fragment, no trailing slash) of
 * a URL; a bare path has host ''. (The model has no `URL`: it runs without DOM or Node types.)
 */
export function urlParts(url: string): { host: string; path: string } {
  const m = /^[a-z][a-z0-9+.-]*:\/\/(?:[^/?#@]*@)?(\[[^\]]*\]|[^/?#:]*)(?::\d*)?([^?#]*)/i.exec(
    url.trim(),
  );
  const host = m ? (m[1] ?? '') : '';
  const path = m ? (m[2] ?? '') : (url.trim().split(/[?#]/)[0] ?? '');
  return { host: host.toLowerCase(), path: path.replace(/\/+$/, '') };
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

const hostMatches = (e: Endpoint, host: string) =>
  e.hosts.some((h) => h.test(host)) || (e.relays ?? []).some((h) => h.test(host));

/**
 * The endpoint a request URL goes to: an endpoint whose host and path both match; else the API's
 * own endpoint for the path (any host: gateways and proxies keep the path); else an endpoint
 * whose path alone matches (Bedrock's `/invoke` through a gateway).
 * @param url absolute, or a path (read against `http://localhost`)
 * @param body the parsed JSON body, for the paths several endpoints share (the body test)
 * @returns null for a URL no endpoint's path matches
 */
export function endpointOfUrl(url: string, body?: unknown): EndpointMatch | null {
  const parts = urlParts(url);
  const v =
    body !== null && typeof body === 'object' && !Array.isArray(body)
      ? (body as Record<string, unknown>)
      : undefined;
  const matching: { e: Endpoint; m: RegExpExecArray }[] = [];
  for (const e of ENDPOINT_LIST) {
    if (e.body && (v === undefined || !e.body(v))) continue;
    for (const p of e.paths) {
      const m = p.exec(parts.path);
      if (m) {
        matching.push({ e, m });
        break;
      }
    }
  }
  const pick =
    matching.find((x) => hostMatches(x.e, parts.host)) ??
    matching.find((x) => x.e.anyHost === true) ??
    matching[0];
  if (!pick) return null;
  const model = pick.m[1] !== undefined ? safeDecode(pick.m[1]) : undefined;
  return { id: pick.e.id, ...(model !== undefined ? { model } : {}) };
}

/**
 * The endpoint a host names for a body of this format (an OTel span's `server.address`).
 * @returns the endpoint of that API whose own hosts match, or undefined (the format's own then:
 *   an API's own host, a relay's or an unknown one)
 */
export function endpointOfHost(host: string, format: FormatId): EndpointId | undefined {
  const h = host.trim().toLowerCase().replace(/:\d+$/, '');
  // An API's own endpoint is the format's own anyway; a relay is not the endpoint that answered.
  return ENDPOINT_LIST.find(
    (e) => e.anyHost !== true && APIS[e.api].format === format && e.hosts.some((r) => r.test(h)),
  )?.id;
}

/**
 * OTel `gen_ai.provider.name` values (semantic conventions) that name an endpoint, per format.
 */
const OTEL_PROVIDERS: Readonly<Record<string, Partial<Record<FormatId, EndpointId>>>> =
  Object.assign(Object.create(null) as Record<string, Partial<Record<FormatId, EndpointId>>>, {
    'aws.bedrock': { 'anthropic-messages': 'anthropic-bedrock', 'bedrock-converse': 'bedrock' },
    'gcp.vertex_ai': { 'anthropic-messages': 'anthropic-vertex', gemini: 'vertex-gemini' },
    'azure.ai.openai': { 'openai-chat': 'azure-openai' },
    deepseek: { 'openai-chat': 'deepseek', 'openai-responses': 'deepseek-responses' },
    mistral_ai: { 'openai-chat': 'mistral' },
    moonshot: { 'openai-chat': 'kimi' },
  });

/** The endpoint an OTel span's `gen_ai.provider.name` names for a body of this format. */
export function endpointOfOtelProvider(name: string, format: FormatId): EndpointId | undefined {
  return OTEL_PROVIDERS[name.trim().toLowerCase()]?.[format];
}

/**
 * The endpoint a body names by itself: Bedrock's or Vertex's `anthropic_version`, a Bedrock or
 * Vertex model id, a DeepSeek model on the Responses API.
 * `t.raw` is read only for an Anthropic Messages body (the one format whose top level names its
 * endpoint): on the page a streamed log's `raw` is computed when read, by parsing the whole file
 * again (engine/pack.ts), so a log of any other format must not read it here (issue 38: a
 * 1.7 s task and 300 MiB on the page for the 115 MB Claude Code log).
 * @returns undefined when the body names none (the format's own endpoint, or a model's provider)
 */
export function endpointOfBody(
  t: Pick<Transcript, 'format' | 'settings'> & Partial<Pick<Transcript, 'raw'>>,
): EndpointId | undefined {
  const model = t.settings.model ?? '';
  if (t.format === 'anthropic-messages') {
    const value = t.raw;
    const raw =
      value !== null && typeof value === 'object' && !Array.isArray(value)
        ? (value as Record<string, unknown>)
        : {};
    const version = typeof raw.anthropic_version === 'string' ? raw.anthropic_version : '';
    if (version.startsWith('bedrock-')) return 'anthropic-bedrock';
    if (version.startsWith('vertex-')) return 'anthropic-vertex';
    if (ENDPOINTS['anthropic-bedrock'].modelIds?.test(model) === true) return 'anthropic-bedrock';
    if (ENDPOINTS['anthropic-vertex'].modelIds?.test(model) === true) return 'anthropic-vertex';
  }
  if (t.format === 'gemini' && ENDPOINTS['vertex-gemini'].modelIds?.test(model) === true)
    return 'vertex-gemini';
  if (t.format === 'openai-responses' && /^deepseek-/i.test(model)) return 'deepseek-responses';
  return undefined;
}

/** True when an endpoint takes bodies of this format (a URL's endpoint applies to its body). */
export function endpointFits(id: EndpointId, format: FormatId): boolean {
  return APIS[ENDPOINTS[id].api].format === format;
}
