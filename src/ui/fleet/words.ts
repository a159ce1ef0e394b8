/**
 * The fleet view's words for the ids a scan's rows carry (issue 41: no internal code on screen):
 * a rule id (`orphan_tool_result`) as the page names it elsewhere; an id this version does not
 * know (a Parquet from a newer CLI) as it is.
 */
import { ruleWordsOf } from '../../model/ruleWords.ts';

/** A scan row's rule id in words ("tool result with no call before it"). */
export function ruleInWords(rule: string): string {
  return ruleWordsOf(rule) ?? rule;
}
