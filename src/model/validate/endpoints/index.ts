/**
 * The endpoint registry: one file per endpoint (an API's rules plus the endpoint's dialect), keyed
 * by the ids of `ids.ts`. `VALIDATORS`, `ProviderId`, the picker's groups, the CLI's `--provider`
 * and the package's URL map are derived from it.
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
import { API_IDS, ENDPOINT_IDS, isEndpointId, type ApiId, type EndpointId } from './ids.ts';
import { kimi } from './kimi.ts';
import { mistral } from './mistral.ts';
import { openaiChat } from './openaiChat.ts';
import { openaiResponses } from './openaiResponses.ts';
import { qwen } from './qwen.ts';
import type { Endpoint } from './types.ts';
import { vertexGemini } from './vertexGemini.ts';

export type { Dialect, Endpoint, Wording } from './types.ts';
export { API_IDS, ENDPOINT_IDS, isEndpointId, type ApiId, type EndpointId };

/** Every endpoint by id (the type holds one entry per id of `ENDPOINT_IDS`). */
export const ENDPOINTS: Readonly<Record<EndpointId, Endpoint>> = {
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
};

/** The endpoints in the picker's order. */
export const ENDPOINT_LIST: readonly Endpoint[] = ENDPOINT_IDS.map((id) => ENDPOINTS[id]);

/** Each API's name, and the request format its bodies are written in. */
export const APIS: Readonly<Record<ApiId, { label: string; format: FormatId }>> = {
  'anthropic-messages': { label: 'Anthropic Messages', format: 'anthropic-messages' },
  'openai-chat': { label: 'OpenAI Chat Completions', format: 'openai-chat' },
  'openai-responses': { label: 'OpenAI Responses', format: 'openai-responses' },
  gemini: { label: 'Gemini generateContent', format: 'gemini' },
  'bedrock-converse': { label: 'Bedrock Converse', format: 'bedrock-converse' },
};

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
