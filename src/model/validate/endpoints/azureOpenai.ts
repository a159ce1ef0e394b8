/**
 * Azure OpenAI, Chat Completions (`*.openai.azure.com/openai/deployments/{name}/chat/completions`):
 * OpenAI's rules and texts, passed through (V, section 6 of the research note), except O1, which
 * Azure spells "preceding" (AZ1).
 */
import { OPENAI_DIALECT, validateChat, type ChatDialect } from '../openaiChat.ts';
import type { ProviderValidator } from '../types.ts';
import type { Endpoint } from './types.ts';
import { AZURE_OPENAI_WINDOWS } from './windows.ts';

export const AZURE_DIALECT: ChatDialect = {
  ...OPENAI_DIALECT,
  provider: 'azure-openai',
  label: 'Azure OpenAI (Chat)',
  codes: { ...OPENAI_DIALECT.codes, orphan: 'AZ1' },
};

const validator: ProviderValidator = {
  id: 'azure-openai',
  label: 'Azure OpenAI (Chat)',
  chatCompletions: true,
  validate: (t, opts) => validateChat(t, AZURE_DIALECT, opts),
};

export const azureOpenai: Endpoint = {
  id: 'azure-openai',
  label: 'Azure OpenAI (Chat)',
  api: 'openai-chat',
  base: 'openai-chat',
  validator,
  dialect: { adds: [], rewords: ['AZ1'] },
  hosts: [
    /\.openai\.azure\.com$/,
    /\.cognitiveservices\.azure\.com$/,
    /\.services\.ai\.azure\.com$/,
  ],
  paths: [/\/chat\/completions$/],
  // Request URLs as documented (learn.microsoft.com/azure/ai-foundry/openai/reference).
  urls: [
    'https://acme.openai.azure.com/openai/deployments/gpt-4o/chat/completions?api-version=2024-10-21',
    'https://acme.openai.azure.com/openai/v1/chat/completions',
  ],
  pathStyle: 'messages.[N].role (as OpenAI)',
  evidenced: 'all',
  evidence:
    'OpenAI\u2019s texts from Azure deployments: fatwang2/search2ai#30 (O6), langchain-ai/task_mAIstro#1, Hk-Gosuto/ChatGPT-Next-Web-LangChain#193 (AZ1)',
  asOf: '2026-12',
  tokenizer: 'openai',
  windows: AZURE_OPENAI_WINDOWS,
};
