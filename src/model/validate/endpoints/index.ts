/**
 * The endpoint registry: one file per endpoint (an API's rules plus the endpoint's dialect), keyed
 * by its id. `EndpointId` (and so `ProviderId`), `ENDPOINT_IDS`, `VALIDATORS`, the picker's groups,
 * the CLI's `--provider` and the package's URL map are derived from it; the APIs the endpoints
 * speak are the registry `APIS`, from which `ApiId` is derived.
 */
import type { FormatId } from '../../types.ts';
import { anthropic } from './anthropic.ts';
import { anthropicBedrock } from './anthropicBedrock.ts';
import { anthropicVertex } from './anthropicVertex.ts';
import { azureOpenai } from './azureOpenai.ts';
import { bedrock } from './bedrock.ts';
import { deepseek } from './deepseek.ts';
import { deepseekAnthropic } from './deepseekAnthropic.ts';
import { deepseekResponses } from './deepseekResponses.ts';
import { gemini } from './gemini.ts';
import { kimi } from './kimi.ts';
import { mistral } from './mistral.ts';
import { openaiChat } from './openaiChat.ts';
import { openaiResponses } from './openaiResponses.ts';
import { qwen } from './qwen.ts';
import type { Endpoint } from './types.ts';
import { vertexGemini } from './vertexGemini.ts';

export type { Dialect, Endpoint, Wording } from './types.ts';

/**
 * Every endpoint, keyed by its id, in the order the provider picker lists them. `EndpointId` is
 * derived from these keys (each endpoint's `id` equals its key: endpoints.test.ts holds it).
 */
export const ENDPOINTS = {
  anthropic,
  'anthropic-bedrock': anthropicBedrock,
  'anthropic-vertex': anthropicVertex,
  'deepseek-anthropic': deepseekAnthropic,
  'openai-chat': openaiChat,
  'azure-openai': azureOpenai,
  deepseek,
  kimi,
  mistral,
  qwen,
  'openai-responses': openaiResponses,
  'deepseek-responses': deepseekResponses,
  gemini,
  'vertex-gemini': vertexGemini,
  bedrock,
} as const satisfies Readonly<Record<string, Endpoint>>;

/** An endpoint's id: a key of the registry. */
export type EndpointId = keyof typeof ENDPOINTS;

/** Every endpoint id, in the picker's order (the registry's). */
export const ENDPOINT_IDS = Object.keys(ENDPOINTS) as readonly EndpointId[];

/** True for a string that is an endpoint id. */
export function isEndpointId(s: string): s is EndpointId {
  return Object.hasOwn(ENDPOINTS, s);
}

/** The endpoints in the picker's order. */
export const ENDPOINT_LIST: readonly Endpoint[] = Object.values(ENDPOINTS);

/** What the registry of APIs says of one: its name, and the request format its bodies are in. */
export interface ApiDef {
  label: string;
  format: FormatId;
}

/**
 * The APIs an endpoint speaks (the rule families of the catalogue), in the picker's order of its
 * groups. `ApiId` is derived from these keys.
 */
export const APIS = {
  'anthropic-messages': { label: 'Anthropic Messages', format: 'anthropic-messages' },
  'openai-chat': { label: 'OpenAI Chat Completions', format: 'openai-chat' },
  'openai-responses': { label: 'OpenAI Responses', format: 'openai-responses' },
  gemini: { label: 'Gemini generateContent', format: 'gemini' },
  'bedrock-converse': { label: 'Bedrock Converse', format: 'bedrock-converse' },
} as const satisfies Readonly<Record<string, ApiDef>>;

/** An API's id: a key of `APIS`. */
export type ApiId = keyof typeof APIS;

/** Every API id, in the picker's order of its groups. */
export const API_IDS = Object.keys(APIS) as readonly ApiId[];

/** The endpoints grouped by API, in the picker's order (the page's provider picker). */
export const ENDPOINT_GROUPS: readonly { api: ApiId; label: string; endpoints: Endpoint[] }[] =
  API_IDS.map((api) => ({
    api,
    label: APIS[api].label,
    endpoints: ENDPOINT_LIST.filter((e) => e.api === api),
  }));

/**
 * Other names for endpoints, so that what users have keeps working and the usual names are
 * understood: `--provider`, a link's `pr`, the package's `provider` option.
 */
const ALIASES: Readonly<Record<string, EndpointId>> = Object.assign(
  Object.create(null) as Record<string, EndpointId>,
  {
    'bedrock-converse': 'bedrock',
    'bedrock-invoke': 'anthropic-bedrock',
    'claude-bedrock': 'anthropic-bedrock',
    'claude-vertex': 'anthropic-vertex',
    vertex: 'vertex-gemini',
    'vertex-ai': 'vertex-gemini',
    azure: 'azure-openai',
    moonshot: 'kimi',
    dashscope: 'qwen',
    openai: 'openai-chat',
  },
);

/** The names `resolveEndpoint` takes besides the ids. */
export const ENDPOINT_ALIASES: readonly string[] = Object.keys(ALIASES);

/**
 * The endpoint an id or alias names.
 * @returns the endpoint id, or undefined for a name the registry does not know
 */
export function resolveEndpoint(name: string): EndpointId | undefined {
  const s = name.trim().toLowerCase();
  if (isEndpointId(s)) return s;
  return ALIASES[s];
}

/** The API an endpoint speaks. */
export function apiOf(id: EndpointId): ApiId {
  return ENDPOINTS[id].api;
}
