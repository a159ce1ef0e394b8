/**
 * Corpus suite: every reported case gets its expected verdict from its provider — the errors
 * (rule, message index, ids), the provider's own text where the report quotes it, the API path —
 * and the valid history it came from (before the trim, or the source before a conversion) passes.
 * Our own fixtures of the same shapes: testing/cases.ts (checked by validate/cases.test.ts), and
 * the Gemini (case 12) and Responses (cases 04, 09, 14) fixtures in validate/gemini.test.ts and
 * validate/openaiResponses.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { corpusCases, PROVIDER_OF_API } from '../testing/corpus.ts';
import { analyze } from './analyze.ts';
import { parseDocument } from './parse/index.ts';
import { parserFor } from './parse/registry.ts';
import type { Transcript } from './types.ts';
import { validateTranscript, validatorFor } from './validate/index.ts';

function parsed(value: unknown): Transcript {
  const r = parseDocument({ kind: 'json', value });
  if (!r.ok) throw new Error(r.error.message);
  return r.value.transcript;
}

describe('reported cases get their verdict', () => {
  const cases = corpusCases();
  it('there are cases', () => expect(cases.length).toBeGreaterThan(0));
  for (const { file, c } of cases) {
    it(`${file}: ${c.format} → ${c.provider_api}`, () => {
      const provider = PROVIDER_OF_API.get(c.provider_api);
      expect(provider, `a provider id for ${c.provider_api}`).toBeDefined();
      if (!provider) return;
      expect(parserFor(c.format), `a parser for ${c.format}`).toBeDefined();
      expect(validatorFor(provider), `a validator for ${provider}`).toBeDefined();
      const t = parsed(c.transcript);
      expect(t.format).toBe(c.format);
      const a = analyze(t, provider);
      expect(a.validation.valid).toBe(c.expected.valid);
      const got = a.validation.violations
        .filter((v) => v.severity === 'error')
        .map((v) => ({ kind: v.rule, message_index: v.messageIndex, ids: v.ids }));
      const want = c.expected.violations.map((v) => ({
        kind: v.kind,
        message_index: v.message_index,
        ids: v.ids,
      }));
      expect(got).toEqual(want);
      // Where the report quotes the provider itself (not a wrapper), the text must match.
      const first = a.validation.violations[0]?.message;
      if (c.provider_api === 'anthropic-messages' && typeof c.error_seen === 'string')
        expect(first?.startsWith(c.error_seen.replace(/…$/, ''))).toBe(true);
      if (c.provider_api === 'gemini') expect(first).toBe(c.error_seen);
      for (const v of c.expected.violations)
        if (v.api_path) expect(a.validation.violations[0]?.providerPath).toBe(v.api_path);
    });
  }
});

describe('the valid history a reported case came from passes', () => {
  const cases = corpusCases().filter(
    ({ c }) => (c.before_trim ?? c.source_transcript) !== undefined,
  );
  it('finds the cases with a history (among them 04, 12 and 14)', () =>
    expect(cases.map(({ file }) => file.slice(0, 2))).toEqual(
      expect.arrayContaining(['04', '12', '14']),
    ));
  for (const { file, c } of cases)
    it(`${file}: the history before the trim or conversion is valid`, () => {
      const provider = PROVIDER_OF_API.get(c.provider_api);
      const before = parsed(c.before_trim ?? c.source_transcript);
      expect(validateTranscript(before, provider).valid).toBe(true);
    });
});
