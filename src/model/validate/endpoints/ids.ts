/**
 * The endpoint ids: the keys of the endpoint registry (`endpoints/index.ts`, one file per
 * endpoint), in the order the provider picker lists them. `ProviderId` (model/types.ts) is derived
 * from this list, and the registry is typed so that every id has exactly one entry.
 */

/** The APIs an endpoint speaks: the rule families of the catalogue. */
export const API_IDS = [
  'anthropic-messages',
  'openai-chat',
  'openai-responses',
  'gemini',
  'bedrock-converse',
] as const;
export type ApiId = (typeof API_IDS)[number];

export const ENDPOINT_IDS = [
  'anthropic',
  'anthropic-bedrock',
  'anthropic-vertex',
  'deepseek-anthropic',
  'openai-chat',
  'azure-openai',
  'deepseek',
  'kimi',
  'mistral',
  'qwen',
  'openai-responses',
  'deepseek-responses',
  'gemini',
  'vertex-gemini',
  'bedrock',
] as const;
export type EndpointId = (typeof ENDPOINT_IDS)[number];

/** True for a string that is an endpoint id. */
export function isEndpointId(s: string): s is EndpointId {
  return (ENDPOINT_IDS as readonly string[]).includes(s);
}
