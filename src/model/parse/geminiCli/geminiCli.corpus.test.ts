/**
 * Corpus suite: the real Gemini CLI sessions parse, every call answered and the request valid.
 * Our own session of the same shape is in geminiCli.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { readReal, realFiles } from '../../../testing/corpus.ts';
import { analyze } from '../../analyze.ts';
import { parseTranscript } from '../index.ts';

describe('real Gemini CLI sessions', () => {
  const files = realFiles('gemini-cli');
  it('there are sessions', () => expect(files.length).toBeGreaterThan(0));
  for (const f of files)
    it(`${f} parses, every call answered`, () => {
      const r = parseTranscript(readReal(f));
      if (!r.ok) throw new Error(r.error.message);
      const a = analyze(r.value.transcript);
      expect(a.transcript.format).toBe('gemini-cli');
      expect(a.pairs.every((p) => p.status === 'answered')).toBe(true);
      expect(a.validation.valid).toBe(true);
    });
});
