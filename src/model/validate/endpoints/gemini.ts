/** The Gemini API (`generativelanguage.googleapis.com/v1beta/models/{m}:generateContent`). */
import { geminiValidator } from '../gemini.ts';
import type { Endpoint } from './types.ts';
import { GEMINI_WINDOWS } from './windows.ts';

export const gemini: Endpoint = {
  id: 'gemini',
  label: 'Google Gemini',
  api: 'gemini',
  validator: geminiValidator,
  hosts: [/^generativelanguage\.googleapis\.com$/],
  paths: [/\/models\/([^/:]+):(?:generateContent|streamGenerateContent)$/],
  // The API's paths at any other host too: gateways and proxies keep them.
  anyHost: true,
  // Request URLs as documented (ai.google.dev/api/generate-content).
  urls: [
    'https://generativelanguage.googleapis.com/v1beta/models/gemini-3-pro-preview:generateContent?key=k',
    'https://generativelanguage.googleapis.com/v1beta/models/gemini-2.5-flash:streamGenerateContent?alt=sse',
  ],
  pathStyle: 'none; G4 gives a position',
  evidenced: 'all',
  evidence: 'the Gemini rules of the catalogue (G*)',
  asOf: '2026-09',
  tokenizer: 'gemini',
  windows: GEMINI_WINDOWS,
};
