/**
 * Corpus suite: no false 400. Every request body in `real/` was recorded from a real exchange the
 * provider answered with 200 (pydantic-ai's cassettes), so each must be valid for its provider —
 * the Bedrock body also with Claude's own checks, since its model (in the URL, not the body) is
 * Claude 3.7 Sonnet.
 */
import { describe, expect, it } from 'vitest';
import { readReal, realFiles } from '../../testing/corpus.ts';
import { parseTranscript } from '../parse/index.ts';
import type { Transcript } from '../types.ts';
import { DEFAULT_PROVIDER, validateTranscript } from './index.ts';

const REQUEST_DIRS = [
  'anthropic-messages',
  'openai-chat',
  'openai-responses',
  'gemini-api',
  'bedrock-converse',
];

function errorsOf(t: Transcript): string[] {
  return validateTranscript(t, DEFAULT_PROVIDER[t.format])
    .violations.filter((v) => v.severity === 'error')
    .map((v) => `${v.code} at ${v.messageIndex}: ${v.message}`);
}

describe('requests a provider accepted get no 400', () => {
  const files = REQUEST_DIRS.flatMap((d) => realFiles(d));
  it('there are recorded requests for every API', () =>
    expect(new Set(files.map((f) => f.split('/')[0]))).toEqual(new Set(REQUEST_DIRS)));
  for (const f of files)
    it(f, () => {
      const r = parseTranscript(readReal(f), { name: f });
      expect(r.ok, f).toBe(true);
      if (!r.ok) return;
      const t = r.value.transcript;
      expect(errorsOf(t)).toEqual([]);
      if (t.format === 'bedrock-converse') {
        const claude = {
          ...t,
          settings: { ...t.settings, model: 'us.anthropic.claude-3-7-sonnet-20250219-v1:0' },
        };
        expect(errorsOf(claude)).toEqual([]);
      }
    });
});
