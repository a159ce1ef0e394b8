/**
 * Test support for the catalogue's fixture files (one per provider family, beside the family's
 * rules): every rule has a fixture, and the validator reports it with the catalogue's exact text
 * (filled with the fixture's indices and ids), provider path, severity and confidence.
 */
import { describe, expect, it } from 'vitest';
import { parsed } from './index.ts';
import type { ProviderId, Transcript } from '../types.ts';
import { validateTranscript, type ValidateOptions } from '../validate/index.ts';
import { rawAsRulesRead } from '../validate/rawFields.ts';
import { ruleSpec, type RuleSpec, type TextParams } from '../validate/catalogue/index.ts';

export interface Fixture {
  provider: ProviderId;
  t: () => Transcript;
  /** What the catalogue text is filled with (errors only). */
  params?: TextParams;
  path?: string | null;
  /** Options of the validation (a token count, for the context window's rules). */
  opts?: ValidateOptions;
}

/** A provider request body, parsed in the format it is detected as. */
export const body = (value: unknown) => parsed(value).transcript;

/** One test per fixture, and one that the fixtures are exactly the family's rules. */
export function expectFixtures(
  family: string,
  rules: readonly RuleSpec[],
  fixtures: Record<string, Fixture>,
): void {
  describe(`rule catalogue, ${family}: every rule has a fixture with its exact text, path and param`, () => {
    it('covers every catalogue entry of the family, and nothing else', () => {
      expect(Object.keys(fixtures).sort()).toEqual(rules.map((r) => r.code).sort());
    });
    for (const [code, f] of Object.entries(fixtures))
      it(`${code} (${f.provider})`, () => expectFixture(code, f));
  });
}

function expectFixture(code: string, f: Fixture): void {
  const spec = ruleSpec(code);
  const all = validateTranscript(f.t(), f.provider, f.opts).violations;
  // The rules read no more of a message's raw than rawAsRulesRead keeps (issue 20: the worker
  // holds only that much of a long log's records).
  const t = f.t();
  const held = { ...t, messages: t.messages.map((m) => ({ ...m, raw: rawAsRulesRead(m.raw) })) };
  expect(validateTranscript(held, f.provider, f.opts).violations).toEqual(all);
  const v = all.find((x) => x.code === code);
  expect(v, `${code} reported`).toBeDefined();
  if (!v) return;
  expect(spec.rules).toContain(v.rule);
  expect(spec.providers).toContain(f.provider);
  expect(v.confidence).toBe(spec.confidence);
  expect(v.providerPath).toBe(f.path ?? null);
  if (spec.severity === 'warning' && code !== 'B5') {
    expect(v.severity).toBe('warning');
    expect(v.error).toBeNull();
    return;
  }
  expect(v.severity).toBe('error');
  expect(v.status).toBe(400);
  expect(spec.text).not.toBeNull();
  expect(v.message).toBe(spec.text?.(f.params ?? {}));
  // The provider's body carries the same text (and, for OpenAI, the path as `param`).
  expect(JSON.stringify(v.error)).toContain(JSON.stringify(v.message).slice(1, -1));
  const param = (v.error as { error?: { param?: unknown } }).error?.param;
  if (f.provider === 'openai-chat') expect(param).toBe(v.providerPath);
}
