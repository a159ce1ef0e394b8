/**
 * Gemini on Vertex AI (`…aiplatform.googleapis.com/…/publishers/google/models/{m}:generateContent`):
 * the Gemini rules, with Vertex's words for G4 (VG4). Its answer to the other rules is not
 * captured: they are the Gemini API's rule and wording.
 */
import { ruleText } from '../catalogue/index.ts';
import { geminiValidator } from '../gemini.ts';
import type { Violation } from '../types.ts';
import { dialectValidator } from './dialect.ts';
import type { Dialect, Endpoint } from './types.ts';
import { VERTEX_GEMINI_WINDOWS } from './windows.ts';

/** The function name and position G4's text carries (`default_api:NAME` , position N). */
function g4Params(v: Violation): { name: string; position: string } {
  const m = /`default_api:(.*)` , position (\d+)\./.exec(v.message);
  return { name: m?.[1] ?? '<name>', position: m?.[2] ?? 'N' };
}

const DIALECT: Dialect = {
  wording: { G4: { code: 'VG4', text: (v) => ruleText('VG4', g4Params(v)) } },
  adds: [],
  rewords: ['VG4'],
};

export const vertexGemini: Endpoint = {
  id: 'vertex-gemini',
  label: 'Gemini on Vertex AI',
  api: 'gemini',
  base: 'gemini',
  validator: dialectValidator('vertex-gemini', 'Gemini on Vertex AI', geminiValidator, DIALECT),
  dialect: DIALECT,
  hosts: [/^([a-z0-9-]+-)?aiplatform\.googleapis\.com$/],
  paths: [/\/models\/([^/:]+):(?:generateContent|streamGenerateContent)$/],
  // A Vertex model resource name (`projects/…/locations/…/publishers/google/models/gemini-…`).
  modelIds: /^projects\/[^/]+\/locations\/[^/]+\/publishers\/google\/models\//,
  // Request URLs as documented (cloud.google.com/vertex-ai/generative-ai/docs/reference/rest/v1/projects.locations.publishers.models/generateContent).
  urls: [
    'https://aiplatform.googleapis.com/v1/projects/p/locations/global/publishers/google/models/gemini-3-pro-preview:generateContent',
    'https://us-central1-aiplatform.googleapis.com/v1/projects/p/locations/us-central1/publishers/google/models/gemini-2.5-pro:streamGenerateContent',
  ],
  pathStyle: 'none (as Gemini); VG4 names the content block in its text',
  evidenced: 'own',
  evidence:
    'GewoonJaap/gemini-cli-openai#156; warpdotdev/warp#8099; Wei-Shaw/claude-relay-service#967',
  asOf: '2026-02',
  tokenizer: 'gemini',
  windows: VERTEX_GEMINI_WINDOWS,
};
