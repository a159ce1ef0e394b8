/** DeepSeek Chat Completions (`api.deepseek.com/chat/completions`): its own texts (D1–D5). */
import { deepseekValidator } from '../deepseek.ts';
import type { Endpoint } from './types.ts';
import { DEEPSEEK_WINDOWS } from './windows.ts';

export const deepseek: Endpoint = {
  id: 'deepseek',
  label: 'DeepSeek',
  api: 'openai-chat',
  base: 'openai-chat',
  validator: deepseekValidator,
  dialect: {
    // Its own texts for O1, O2/O3 and O11 (D1, D2, D3); the thinking rules (D4, V4's D5); no
    // capture of its answer to a duplicate result (a warning, OW2), an empty list, long ids,
    // foreign part types, an empty `tool_calls` or a tool or user message's null content
    // (D3's text names the assistant message only). With O6 not enforced, a replayed call answered twice keeps OW1 (no
    // rejection known) where OpenAI errs with O6 and drops OW1 (as for Qwen).
    adds: ['D4', 'D5', 'OW2', 'OW1'],
    rewords: ['D1', 'D2', 'D3'],
    relaxes: ['O6', 'O8', 'O10', 'O12', 'O13', 'O15', 'O16'],
  },
  hosts: [/(^|\.)deepseek\.com$/],
  paths: [/\/chat\/completions$/],
  // Request URLs as documented (api-docs.deepseek.com).
  urls: [
    'https://api.deepseek.com/chat/completions',
    'https://api.deepseek.com/v1/chat/completions',
  ],
  pathStyle: 'none (`param` null); D4 names the message in its text',
  evidenced: 'own',
  evidence: 'the DeepSeek rules of the catalogue (D*)',
  asOf: '2026-08',
  tokenizer: 'other',
  windows: DEEPSEEK_WINDOWS,
};
