/** OpenAI Chat Completions (`api.openai.com/v1/chat/completions`, and any host keeping the path). */
import { openaiChatValidator } from '../openaiChat.ts';
import type { Endpoint } from './types.ts';
import { OPENAI_WINDOWS } from './windows.ts';

export const openaiChat: Endpoint = {
  id: 'openai-chat',
  label: 'OpenAI Chat Completions',
  api: 'openai-chat',
  validator: openaiChatValidator,
  hosts: [/^api\.openai\.com$/],
  paths: [/\/chat\/completions$/],
  // The API's paths at any other host too: gateways and proxies keep them.
  anyHost: true,
  // Services that take Chat Completions bodies, judged by OpenAI's rules (no dialect of their own
  // here): OpenRouter, Groq, Together, xAI, and Vertex AI's OpenAI-compatible endpoint.
  relays: [
    /^openrouter\.ai$/,
    /^api\.groq\.com$/,
    /^api\.together\.(xyz|ai)$/,
    /^api\.x\.ai$/,
    /^([a-z0-9-]+-)?aiplatform\.googleapis\.com$/,
  ],
  // Request URLs as documented (platform.openai.com/docs/api-reference/chat; openrouter.ai/docs/api-reference; console.groq.com/docs/openai; docs.together.ai; docs.x.ai/docs/api-reference; cloud.google.com/vertex-ai/generative-ai/docs/migrate/openai/overview).
  urls: [
    'https://api.openai.com/v1/chat/completions',
    'https://openrouter.ai/api/v1/chat/completions',
    'https://api.groq.com/openai/v1/chat/completions',
    'https://api.together.xyz/v1/chat/completions',
    'https://api.x.ai/v1/chat/completions',
    'https://us-central1-aiplatform.googleapis.com/v1/projects/p/locations/us-central1/endpoints/openapi/chat/completions',
  ],
  pathStyle: 'messages.[N].role (`param`), messages when the array ends',
  evidenced: 'all',
  evidence: 'the OpenAI rules of the catalogue (O*)',
  asOf: '2026-09',
  tokenizer: 'openai',
  windows: OPENAI_WINDOWS,
};
