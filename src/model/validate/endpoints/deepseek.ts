/** DeepSeek Chat Completions (`api.deepseek.com/chat/completions`): its own texts (D1–D5). */
import { deepseekValidator } from '../deepseek.ts';
import type { Endpoint } from './types.ts';

export const deepseek: Endpoint = {
  id: 'deepseek',
  label: 'DeepSeek',
  api: 'openai-chat',
  base: 'openai-chat',
  validator: deepseekValidator,
  dialect: {
    // Own texts for O1/O2/O3 (D1, D2), D3 and the thinking rules; O6 is a warning (no capture).
    differs: ['D1', 'D2', 'D3', 'D4', 'D5', 'OW2', 'O6', 'O8', 'O10', 'O12'],
  },
  hosts: [/(^|\.)deepseek\.com$/],
  paths: [/\/chat\/completions$/],
  pathStyle: 'none (`param` null); D4 names the message in its text',
  evidenced: 'own',
  evidence: 'the DeepSeek rules of the catalogue (D*)',
  asOf: '2026-08',
};
