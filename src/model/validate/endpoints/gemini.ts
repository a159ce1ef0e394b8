/** The Gemini API (`generativelanguage.googleapis.com/v1beta/models/{m}:generateContent`). */
import { geminiValidator } from '../gemini.ts';
import type { Endpoint } from './types.ts';
import { GEMINI_WINDOWS } from './windows.ts';

export const gemini: Endpoint = {
  id: 'gemini',
  label: 'Google Gemini',
  api: 'gemini',
  validator: geminiValidator,
  hosts: [],
  paths: [/\/models\/([^/:]+):(?:stream)?generateContent$/],
  pathStyle: 'none; G4 gives a position',
  evidenced: 'all',
  evidence: 'the Gemini rules of the catalogue (G*)',
  asOf: '2026-09',
  tokenizer: 'gemini',
  windows: GEMINI_WINDOWS,
};
