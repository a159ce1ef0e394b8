/**
 * Claude on Vertex AI (`…aiplatform.googleapis.com/…/publishers/anthropic/models/{m}:rawPredict`):
 * the Anthropic body and texts, passed through unchanged (ids `toolu_vrtx_…`).
 */
import { anthropicValidator } from '../anthropic.ts';
import { dialectValidator } from './dialect.ts';
import type { Endpoint } from './types.ts';
import { VERTEX_CLAUDE_WINDOWS } from './windows.ts';

export const anthropicVertex: Endpoint = {
  id: 'anthropic-vertex',
  label: 'Claude on Vertex AI',
  api: 'anthropic-messages',
  base: 'anthropic',
  validator: dialectValidator('anthropic-vertex', 'Claude on Vertex AI', anthropicValidator, {
    adds: [],
    rewords: [],
  }),
  dialect: { adds: [], rewords: [] },
  hosts: [/^([a-z0-9-]+-)?aiplatform\.googleapis\.com$/],
  // `:rawPredict` and `:streamRawPredict`.
  paths: [
    /\/publishers\/anthropic\/models\/([^/:]+):(?:rawPredict|streamRawPredict)$/,
    /\/models\/([^/:]+):(?:rawPredict|streamRawPredict)$/,
  ],
  body: (v) => 'anthropic_version' in v,
  // Vertex model ids carry a version after `@` (`claude-sonnet-4-5@20250929`).
  modelIds: /^claude-[\w.-]+@\d{8}$/,
  // Request URLs as documented (cloud.google.com/vertex-ai/generative-ai/docs/partner-models/claude).
  urls: [
    'https://us-east5-aiplatform.googleapis.com/v1/projects/p/locations/us-east5/publishers/anthropic/models/claude-sonnet-4-5@20250929:streamRawPredict',
    'https://aiplatform.googleapis.com/v1/projects/p/locations/global/publishers/anthropic/models/claude-opus-4-6:rawPredict',
  ],
  pathStyle: 'messages.N.content.M (as Anthropic)',
  evidenced: 'all',
  evidence:
    'Kilo-Org/kilocode#5163, github/copilot-cli#1159 (A1 with `toolu_vrtx_…` ids), anomalyco/opencode#3077 (T1 via Vertex): Anthropic\u2019s texts and body',
  asOf: '2026-01',
  tokenizer: 'claude',
  windows: VERTEX_CLAUDE_WINDOWS,
};
