/**
 * Words for the internal ids a page or CLI line would otherwise show (`orphan_tool_result`,
 * `partial_answer`, `orphan_removed`): each rule class and each repair change in a few plain
 * words, as their registries give them. The ids stay in data attributes and JSON for tools.
 */
import { REPAIR_KIND_REGISTRY, REPAIR_KINDS, type RepairKind } from './repair/kinds.ts';
import { isRuleId, RULE_REGISTRY, type RuleId } from './validate/ruleRegistry.ts';

/** A rule class in plain words ("tool result with no call before it"). */
export function ruleWords(rule: RuleId): string {
  return RULE_REGISTRY[rule].words;
}

/** A repair change's kind in plain words ("orphaned result removed"). */
export function repairWords(kind: RepairKind): string {
  return REPAIR_KIND_REGISTRY[kind].words;
}

/**
 * A rule class read from input (a record file, a JSON answer) in plain words; undefined for a
 * name that is no rule class (`constructor` included).
 */
export function ruleWordsOf(name: string): string | undefined {
  return isRuleId(name) ? ruleWords(name) : undefined;
}

/** A repair change's kind read from input in plain words; undefined for an unknown name. */
export function repairWordsOf(name: string): string | undefined {
  return (REPAIR_KINDS as readonly string[]).includes(name)
    ? repairWords(name as RepairKind)
    : undefined;
}
