/** Mistral (`api.mistral.ai/v1/chat/completions`): its own order and count rules (M1–M5). */
import { mistralValidator } from '../mistral.ts';
import type { Endpoint } from './types.ts';
import { MISTRAL_WINDOWS } from './windows.ts';

export const mistral: Endpoint = {
  id: 'mistral',
  label: 'Mistral',
  api: 'openai-chat',
  validator: mistralValidator,
  hosts: [/(^|\.)mistral\.ai$/],
  paths: [/\/chat\/completions$/],
  // Request URLs as documented (docs.mistral.ai/api).
  urls: ['https://api.mistral.ai/v1/chat/completions'],
  pathStyle: 'none (`param` null)',
  evidenced: 'own',
  evidence: 'the Mistral rules of the catalogue (M*)',
  asOf: '2026-09',
  tokenizer: 'other',
  windows: MISTRAL_WINDOWS,
};
