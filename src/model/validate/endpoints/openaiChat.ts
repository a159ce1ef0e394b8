/** OpenAI Chat Completions (`api.openai.com/v1/chat/completions`, and any host keeping the path). */
import { openaiChatValidator } from '../openaiChat.ts';
import type { Endpoint } from './types.ts';
import { OPENAI_WINDOWS } from './windows.ts';

export const openaiChat: Endpoint = {
  id: 'openai-chat',
  label: 'OpenAI Chat Completions',
  api: 'openai-chat',
  validator: openaiChatValidator,
  hosts: [],
  paths: [/\/chat\/completions$/],
  pathStyle: 'messages.[N].role (`param`), messages when the array ends',
  evidenced: 'all',
  evidence: 'the OpenAI rules of the catalogue (O*)',
  asOf: '2026-09',
  tokenizer: 'openai',
  windows: OPENAI_WINDOWS,
};
