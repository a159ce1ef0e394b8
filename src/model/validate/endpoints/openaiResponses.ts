/** OpenAI Responses (`api.openai.com/v1/responses`, and any host keeping the path). */
import { openaiResponsesValidator } from '../openaiResponses.ts';
import type { Endpoint } from './types.ts';
import { OPENAI_WINDOWS } from './windows.ts';

export const openaiResponses: Endpoint = {
  id: 'openai-responses',
  label: 'OpenAI Responses',
  api: 'openai-responses',
  validator: openaiResponsesValidator,
  hosts: [/^api\.openai\.com$/],
  paths: [/\/responses$/],
  // The API's paths at any other host too: gateways and proxies keep them.
  anyHost: true,
  // Services that take Responses bodies, judged by OpenAI's rules: OpenRouter, Groq, xAI, Azure OpenAI.
  relays: [
    /^openrouter\.ai$/,
    /^api\.groq\.com$/,
    /^api\.x\.ai$/,
    /\.openai\.azure\.com$/,
    /\.cognitiveservices\.azure\.com$/,
  ],
  // Request URLs as documented (platform.openai.com/docs/api-reference/responses; learn.microsoft.com/azure/ai-foundry/openai/how-to/responses).
  urls: [
    'https://api.openai.com/v1/responses',
    'https://openrouter.ai/api/v1/responses',
    'https://api.groq.com/openai/v1/responses',
    'https://api.x.ai/v1/responses',
    'https://acme.openai.azure.com/openai/v1/responses',
  ],
  pathStyle: '`param` input',
  evidenced: 'all',
  evidence: 'the Responses rules of the catalogue (R*)',
  asOf: '2026-12',
  tokenizer: 'openai',
  windows: OPENAI_WINDOWS,
};
