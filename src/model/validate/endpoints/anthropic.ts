/** Anthropic Messages, direct (`api.anthropic.com/v1/messages`): the API's own rules and texts. */
import { anthropicValidator } from '../anthropic.ts';
import type { Endpoint } from './types.ts';
import { CLAUDE_WINDOWS } from './windows.ts';

export const anthropic: Endpoint = {
  id: 'anthropic',
  label: 'Anthropic Messages',
  api: 'anthropic-messages',
  validator: anthropicValidator,
  hosts: [],
  paths: [/\/messages$/],
  pathStyle: 'messages.N.content.M (merged turns)',
  evidenced: 'all',
  evidence: 'the Anthropic rules of the catalogue (A*, T*)',
  asOf: '2026-12',
  tokenizer: 'claude',
  windows: CLAUDE_WINDOWS,
};
