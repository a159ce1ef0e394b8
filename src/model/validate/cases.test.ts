import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../analyze.ts';
import { CASE_FIXTURES } from '../fixtures/cases.ts';
import { parseDocument } from '../parse/index.ts';
import { parserFor } from '../parse/registry.ts';
import type { FormatId, ProviderId } from '../types.ts';
import { validatorFor } from './index.ts';

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

const SHARED_CASES = path.resolve(import.meta.dirname, '../../../../shared/cases');
const PROVIDER: Record<string, ProviderId> = {
  'anthropic-messages': 'anthropic',
  'openai-chat': 'openai-chat',
  'openai-responses': 'openai-responses',
  gemini: 'gemini',
  'bedrock-converse': 'bedrock',
};

describe.skipIf(!existsSync(SHARED_CASES))(`shared cases in ${SHARED_CASES}`, () => {
  const files = existsSync(SHARED_CASES)
    ? readdirSync(SHARED_CASES).filter((f) => f.endsWith('.json'))
    : [];
  for (const f of files) {
    const c = JSON.parse(readFileSync(path.join(SHARED_CASES, f), 'utf8'));
    const provider = PROVIDER[c.provider_api as string];
    const supported =
      parserFor(c.format as FormatId) !== undefined &&
      provider !== undefined &&
      validatorFor(provider) !== undefined;
    it.skipIf(!supported)(`${f}: ${c.format} → ${c.provider_api}`, () => {
      const parsed = parseDocument({ kind: 'json', value: c.transcript });
      expect(parsed.ok).toBe(true);
      if (!parsed.ok) return;
      expect(parsed.value.transcript.format).toBe(c.format);
      const a = analyze(parsed.value.transcript, provider);
      expect(a.validation.valid).toBe(c.expected.valid);
      const got = a.validation.violations
        .filter((v) => v.severity === 'error')
        .map((v) => ({ kind: v.rule, message_index: v.messageIndex, ids: v.ids }));
      const want = (
        c.expected.violations as { kind: string; message_index: number; ids: string[] }[]
      ).map((v) => ({ kind: v.kind, message_index: v.message_index, ids: v.ids }));
      expect(got).toEqual(want);
      // Where the report quotes the provider itself (not a wrapper), the text must match exactly.
      if (c.provider_api === 'anthropic-messages' && typeof c.error_seen === 'string') {
        expect(a.validation.violations[0]?.message.startsWith(c.error_seen.replace(/…$/, ''))).toBe(
          true,
        );
      }
      for (const v of c.expected.violations as { api_path?: string }[]) {
        if (v.api_path) expect(a.validation.violations[0]?.providerPath).toBe(v.api_path);
      }
    });
  }
});
