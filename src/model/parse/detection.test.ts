/**
 * Detection without hints over every registered format's samples (public/samples/index.json) and
 * the shared cases, plus: the real logs of the Responses, Gemini and Bedrock formats parse
 * without error (skipped, with a message, when ../shared is absent).
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { validateTranscript } from '../validate/index.ts';
import type { FormatId } from '../types.ts';
import { parseDocument, parseTranscript } from './index.ts';
import { parserFor } from './registry.ts';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const SAMPLES = path.join(repoRoot, 'public/samples');
const SHARED = path.resolve(repoRoot, '../shared');

interface SampleEntry {
  id: string;
  file: string;
  format: FormatId;
  broken: boolean;
}
const index: SampleEntry[] = existsSync(path.join(SAMPLES, 'index.json'))
  ? JSON.parse(readFileSync(path.join(SAMPLES, 'index.json'), 'utf8'))
  : [];

describe('every sample is detected without hints and gets its verdict', () => {
  it('the sample index lists the Responses, Gemini and Bedrock samples (one valid, one broken each)', () => {
    for (const format of ['openai-responses', 'gemini', 'bedrock-converse'] as const) {
      const mine = index.filter((e) => e.format === format);
      expect(mine.some((e) => e.broken)).toBe(true);
      expect(mine.some((e) => !e.broken)).toBe(true);
    }
  });
  for (const e of index) {
    const supported = parserFor(e.format) !== undefined;
    it.skipIf(!supported)(
      `${e.file} → ${e.format}${supported ? '' : ' (no parser registered yet)'}`,
      () => {
        const text = readFileSync(path.join(SAMPLES, e.file), 'utf8');
        const r = parseTranscript(text);
        expect(r.ok).toBe(true);
        if (!r.ok) return;
        expect(r.value.transcript.format).toBe(e.format);
        expect(r.value.ambiguous).toBe(false);
        expect(validateTranscript(r.value.transcript).valid).toBe(!e.broken);
      },
    );
  }
});

const CASES = path.join(SHARED, 'cases');
const caseFiles = existsSync(CASES) ? readdirSync(CASES).filter((f) => f.endsWith('.json')) : [];
if (caseFiles.length === 0) console.warn(`skipped: ${CASES} not found (shared cases detection)`);

describe.skipIf(caseFiles.length === 0)(
  `shared cases are detected as their own format (${CASES})`,
  () => {
    for (const f of caseFiles) {
      const c = JSON.parse(readFileSync(path.join(CASES, f), 'utf8'));
      const variants: [string, unknown, FormatId][] = [['transcript', c.transcript, c.format]];
      if (c.before_trim) variants.push(['before_trim', c.before_trim, c.format]);
      if (c.source_transcript)
        variants.push(['source_transcript', c.source_transcript, c.source_format ?? c.format]);
      for (const [key, value, format] of variants) {
        it.skipIf(parserFor(format) === undefined)(`${f} ${key} → ${format}`, () => {
          const r = parseDocument({ kind: 'json', value });
          expect(r.ok && r.value.transcript.format).toBe(format);
        });
      }
    }
  },
);

const REAL: [string, FormatId][] = [
  ['openai-responses', 'openai-responses'],
  ['gemini-api', 'gemini'],
  ['bedrock-converse', 'bedrock-converse'],
  ['inspect-log', 'inspect-log'],
];
for (const [dir, format] of REAL) {
  const folder = path.join(SHARED, 'real', dir);
  const files = existsSync(folder) ? readdirSync(folder).filter((f) => f.endsWith('.json')) : [];
  if (files.length === 0) console.warn(`skipped: ${folder} not found (real ${format} logs)`);
  describe.skipIf(files.length === 0)(
    `real ${format} logs in ${folder} parse without error`,
    () => {
      for (const f of files) {
        it(f, () => {
          const r = parseTranscript(readFileSync(path.join(folder, f), 'utf8'), { name: f });
          expect(r.ok).toBe(true);
          if (!r.ok) return;
          expect(r.value.transcript.format).toBe(format);
          expect(r.value.transcript.messages.length).toBeGreaterThan(0);
          // Nothing fell through to `other`, and every call and result is paired.
          expect(
            r.value.transcript.messages.flatMap((m) => m.blocks.filter((b) => b.type === 'other')),
          ).toEqual([]);
          const v = validateTranscript(r.value.transcript);
          expect(v.violations.filter((x) => x.severity === 'error')).toEqual([]);
        });
      }
    },
  );
}

describe('a body both Anthropic and OpenAI Chat could read', () => {
  // Plain string contents and `max_tokens` fit both shapes; the model name decides.
  const body = (model: string) =>
    JSON.stringify({ model, max_tokens: 64, messages: [{ role: 'user', content: 'hello' }] });
  it('an OpenAI model name reads as OpenAI Chat, a Claude model name as Anthropic', () => {
    for (const [model, format] of [
      ['gpt-4o', 'openai-chat'],
      ['o3-mini', 'openai-chat'],
      ['claude-sonnet-4-5', 'anthropic-messages'],
    ] as const) {
      const r = parseTranscript(body(model));
      expect(r.ok && r.value.transcript.format).toBe(format);
    }
  });
});
