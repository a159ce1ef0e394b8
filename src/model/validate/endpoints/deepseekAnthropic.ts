/**
 * DeepSeek's Anthropic-compatible endpoint (`api.deepseek.com/anthropic/v1/messages`): the
 * Anthropic rules, with its own words for T1 (DA1) in DeepSeek's body. Its answer to the other
 * rules is not captured: they are Anthropic's rule and wording.
 */
import { anthropicValidator } from '../anthropic.ts';
import { deepseekEnvelope, ruleText } from '../catalogue/index.ts';
import { dialectValidator } from './dialect.ts';
import type { Dialect, Endpoint } from './types.ts';
import { DEEPSEEK_WINDOWS } from './windows.ts';

const DIALECT: Dialect = {
  wording: {
    T1: {
      code: 'DA1',
      text: () => ruleText('DA1', {}),
      envelope: deepseekEnvelope,
      providerPath: () => null,
    },
  },
  adds: [],
  rewords: ['DA1'],
};

export const deepseekAnthropic: Endpoint = {
  id: 'deepseek-anthropic',
  label: 'DeepSeek (Anthropic API)',
  api: 'anthropic-messages',
  base: 'anthropic',
  validator: dialectValidator(
    'deepseek-anthropic',
    'DeepSeek (Anthropic API)',
    anthropicValidator,
    DIALECT,
  ),
  dialect: DIALECT,
  hosts: [/(^|\.)deepseek\.com$/],
  paths: [/\/anthropic(?:\/v1)?\/messages$/],
  // Request URLs as documented (api-docs.deepseek.com/guides/anthropic_api).
  urls: ['https://api.deepseek.com/anthropic/v1/messages'],
  pathStyle: 'none in DA1 (`param` null); Anthropic\u2019s paths for the rest',
  evidenced: 'own',
  evidence: 'decolua/9router#2397; omnimind-ai/OmniBot#307; esengine/DeepSeek-Reasonix#8902',
  asOf: '2026-08',
  tokenizer: 'other',
  windows: DEEPSEEK_WINDOWS,
};
