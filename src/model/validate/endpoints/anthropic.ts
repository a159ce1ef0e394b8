/** Anthropic Messages, direct (`api.anthropic.com/v1/messages`): the API's own rules and texts. */
import { anthropicValidator } from '../anthropic.ts';
import type { Endpoint } from './types.ts';
import { CLAUDE_WINDOWS } from './windows.ts';

export const anthropic: Endpoint = {
  id: 'anthropic',
  label: 'Anthropic Messages',
  api: 'anthropic-messages',
  validator: anthropicValidator,
  hosts: [/^api\.anthropic\.com$/],
  paths: [/\/messages$/],
  // The API's paths at any other host too: gateways and proxies keep them.
  anyHost: true,
  // Kimi's Anthropic-compatible endpoint (base URL `https://api.moonshot.ai/anthropic`).
  relays: [/(^|\.)moonshot\.(ai|cn)$/],
  // Request URLs as documented (docs.anthropic.com/en/api/messages; platform.moonshot.ai/docs (Anthropic-compatible API)).
  urls: ['https://api.anthropic.com/v1/messages', 'https://api.moonshot.ai/anthropic/v1/messages'],
  pathStyle: 'messages.N.content.M (merged turns)',
  evidenced: 'all',
  evidence: 'the Anthropic rules of the catalogue (A*, T*)',
  asOf: '2026-12',
  tokenizer: 'claude',
  windows: CLAUDE_WINDOWS,
};
