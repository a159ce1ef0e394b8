/**
 * Words for the internal ids a page or CLI line would otherwise show (`orphan_tool_result`,
 * `partial_answer`, `orphan_removed`): each rule class and each repair change in a few plain
 * words, as their registries give them. The ids stay in data attributes and JSON for tools.
 */
import { REPAIR_KIND_REGISTRY, type RepairKind } from './repair/kinds.ts';
import { RULE_REGISTRY, type RuleId } from './validate/ruleRegistry.ts';

/** A rule class in plain words ("tool result with no call before it"). */
export function ruleWords(rule: RuleId): string {
  return RULE_REGISTRY[rule].words;
}

/** A repair change's kind in plain words ("orphaned result removed"). */
export function repairWords(kind: RepairKind): string {
  return REPAIR_KIND_REGISTRY[kind].words;
}
