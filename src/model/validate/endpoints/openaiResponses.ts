/** OpenAI Responses (`api.openai.com/v1/responses`, and any host keeping the path). */
import { openaiResponsesValidator } from '../openaiResponses.ts';
import type { Endpoint } from './types.ts';
import { OPENAI_WINDOWS } from './windows.ts';

export const openaiResponses: Endpoint = {
  id: 'openai-responses',
  label: 'OpenAI Responses',
  api: 'openai-responses',
  validator: openaiResponsesValidator,
  hosts: [],
  paths: [/\/responses$/],
  pathStyle: '`param` input',
  evidenced: 'all',
  evidence: 'the Responses rules of the catalogue (R*)',
  asOf: '2026-12',
  tokenizer: 'openai',
  windows: OPENAI_WINDOWS,
};
