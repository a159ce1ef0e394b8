/**
 * Corpus suite: every reported case (its transcript, history before the trim and source
 * transcript) is detected as its own format without a hint, and the real logs of the Responses,
 * Gemini, Bedrock and Inspect formats parse without error, leave nothing unread and pair every
 * call. Our samples and case fixtures are checked the same way by detection.test.ts.
 */
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { corpusCases, readReal, realFiles } from '../../testing/corpus.ts';
import type { FormatId } from '../types.ts';
import { validateTranscript } from '../validate/index.ts';
import { parseDocument, parseTranscript } from './index.ts';
import { parserFor } from './registry.ts';

describe('reported cases are detected as their own format', () => {
  const cases = corpusCases();
  it('there are cases', () => expect(cases.length).toBeGreaterThan(0));
  for (const { file, c } of cases) {
    const variants: [string, unknown, FormatId][] = [['transcript', c.transcript, c.format]];
    if (c.before_trim) variants.push(['before_trim', c.before_trim, c.format]);
    if (c.source_transcript)
      variants.push(['source_transcript', c.source_transcript, c.source_format ?? c.format]);
    for (const [key, value, format] of variants) {
      it(`${file} ${key} → ${format}`, () => {
        expect(parserFor(format), `a parser registered for ${format}`).toBeDefined();
        const r = parseDocument({ kind: 'json', value });
        expect(r.ok && r.value.transcript.format).toBe(format);
      });
    }
  }
});

const REAL: [string, FormatId][] = [
  ['openai-responses', 'openai-responses'],
  ['gemini-api', 'gemini'],
  ['bedrock-converse', 'bedrock-converse'],
  ['inspect-log', 'inspect-log'],
];
for (const [dir, format] of REAL) {
  describe(`real ${format} logs parse without error`, () => {
    const files = realFiles(dir).filter((f) => f.endsWith('.json'));
    it('there are logs', () => expect(files.length).toBeGreaterThan(0));
    for (const f of files) {
      it(f, () => {
        const r = parseTranscript(readReal(f), { name: path.basename(f) });
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
  });
}
