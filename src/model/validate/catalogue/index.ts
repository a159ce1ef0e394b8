/**
 * The rule catalogue: every provider rule the validators report, as data. Validators take their
 * texts from here (`ruleSpec(code).text`), `docs/rules.md` is generated from it
 * (`npm run rules`), and each family's test (`anthropic.test.ts`, …) runs a fixture for every
 * entry.
 */
import { ANTHROPIC_RULES } from './anthropic.ts';
import { BEDROCK_RULES } from './bedrock.ts';
import { COMPACTION_RULES } from './compaction.ts';
import { CONTEXT_WINDOW_RULES } from './contextWindow.ts';
import { GEMINI_RULES } from './gemini.ts';
import { OPENAI_CHAT_RULES } from './openai.ts';
import { RESPONSES_RULES } from './responses.ts';
import { CATALOGUE_AS_OF, type RuleSpec } from './types.ts';

export { CATALOGUE_AS_OF } from './types.ts';
export type { RuleSpec, TextParams } from './types.ts';
export * from './envelopes.ts';

/** Every rule, grouped by provider family, in the order the catalogue page lists them. */
export const RULES: readonly RuleSpec[] = [
  ...ANTHROPIC_RULES,
  ...OPENAI_CHAT_RULES,
  ...RESPONSES_RULES,
  ...GEMINI_RULES,
  ...BEDROCK_RULES,
  ...COMPACTION_RULES,
  ...CONTEXT_WINDOW_RULES,
];

const BY_CODE = new Map(RULES.map((r) => [r.code, r]));

/**
 * The catalogue entry of a rule code.
 * @throws Error for a code the catalogue does not hold (a validator citing an unknown rule is a
 *   programming error, caught by the tests)
 */
export function ruleSpec(code: string): RuleSpec {
  const r = BY_CODE.get(code);
  if (!r) throw new Error(`Rule ${code} is not in the rule catalogue.`);
  return r;
}

/** The provider's exact text for a rule code (an error rule always has one). */
export function ruleText(code: string, p: Parameters<NonNullable<RuleSpec['text']>>[0]): string {
  const r = ruleSpec(code);
  if (!r.text) throw new Error(`Rule ${code} is a warning with no provider text.`);
  return r.text(p);
}

/**
 * The month (YYYY-MM) a rule's text is known current as of (the verdict's "as of"), or undefined
 * for a code the catalogue does not hold.
 */
export function ruleAsOf(code: string): string | undefined {
  const r = BY_CODE.get(code);
  return r ? (r.asOf ?? CATALOGUE_AS_OF) : undefined;
}
