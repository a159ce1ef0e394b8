import { describe, expect, it } from 'vitest';
import { analyze } from '../analyze.ts';
import { CASE_FIXTURES } from '../testing/cases.ts';
import { parseDocument } from '../parse/index.ts';

describe('fixtures rebuilt from public bug reports get their verdict and exact text', () => {
  for (const c of CASE_FIXTURES) {
    it(`${c.name} (${c.source})`, () => {
      const parsed = parseDocument({ kind: 'json', value: c.transcript });
      expect(parsed.ok).toBe(true);
      if (!parsed.ok) return;
      const a = analyze(parsed.value.transcript);
      expect(a.validation.valid).toBe(false);
      const errors = a.validation.violations.filter((v) => v.severity === 'error');
      expect(
        errors.map((v) => ({
          rule: v.rule,
          messageIndex: v.messageIndex,
          ids: v.ids,
          message: v.message,
          providerPath: v.providerPath,
        })),
      ).toEqual(c.expected);
    });
  }
});
