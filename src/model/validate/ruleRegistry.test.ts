/**
 * `RuleId` is derived from `RULE_REGISTRY` (no hand-written union): the type is exactly the
 * registry's keys, a name outside it does not type-check, and every rule class is reported by
 * some entry of the catalogue (no entry the validators never use).
 */
import { describe, expect, expectTypeOf, it } from 'vitest';
import { RULES } from './catalogue/index.ts';
import { isRuleId, RULE_IDS, RULE_REGISTRY, type RuleId } from './ruleRegistry.ts';
import type { RuleId as ExportedRuleId, Violation } from './types.ts';

describe('the rule registry', () => {
  it('RuleId is the registry\u2019s keys, everywhere it is exported', () => {
    expectTypeOf<RuleId>().toEqualTypeOf<keyof typeof RULE_REGISTRY>();
    expectTypeOf<ExportedRuleId>().toEqualTypeOf<keyof typeof RULE_REGISTRY>();
    expectTypeOf<Violation['rule']>().toEqualTypeOf<RuleId>();
    expectTypeOf<'orphan_tool_result'>().toExtend<RuleId>();
    // @ts-expect-error a rule class not in the registry is not a RuleId
    const unknown: RuleId = 'no_such_rule';
    expect(isRuleId(unknown)).toBe(false);
  });

  it('lists every id once, with its words; a prototype name is no id', () => {
    expect(new Set(RULE_IDS).size).toBe(RULE_IDS.length);
    for (const id of RULE_IDS) expect(RULE_REGISTRY[id].words.length).toBeGreaterThan(0);
    expect(isRuleId('constructor')).toBe(false);
    expect(isRuleId('__proto__')).toBe(false);
  });

  it('every rule class is reported by an entry of the catalogue', () => {
    const reported = new Set(RULES.flatMap((r) => r.rules));
    expect(RULE_IDS.filter((id) => !reported.has(id))).toEqual([]);
  });
});
