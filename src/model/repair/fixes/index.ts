/**
 * The fixes, in one table: which rules each answers, and its priority. A repair round takes the
 * violations of the lowest priority present (a replayed turn first, then a doubled result, then
 * everything else, in the validator's order) and gives each to the fix of its rule. Adding a fix
 * is one file in this folder and one entry here.
 */
import type { RuleId, Violation } from '../../validate/index.ts';
import type { Work } from '../work.ts';
import { fixContentAfterCall } from './contentAfterCall.ts';
import { fixCountMismatch } from './countMismatch.ts';
import { fixDuplicateCall } from './duplicateCall.ts';
import { fixDuplicateItem } from './duplicateItem.ts';
import { fixDuplicateResult } from './duplicateResult.ts';
import { fixEmpty, fixEmptyToolCalls, fixNullContent } from './empty.ts';
import { fixEmptyText } from './emptyText.ts';
import { fixErrorResultEmpty } from './errorResultEmpty.ts';
import { fixLeadingExchange } from './leadingExchange.ts';
import { fixMissing } from './missing.ts';
import { fixOrphan } from './orphan.ts';
import { fixReasoningAlone } from './reasoningAlone.ts';
import { fixReasoningMissing } from './reasoningMissing.ts';
import { fixStrayToolContent } from './strayToolContent.ts';
import { fixToolId } from './toolIds.ts';
import { fixTrailingWhitespace } from './trailingWhitespace.ts';

/** A fix: changes the working messages for one violation; true when anything changed. */
export type Fix = (w: Work, v: Violation) => boolean;

interface FixEntry {
  rules: readonly RuleId[];
  fix: Fix;
  /** Lower goes first (default 2). */
  priority?: number;
  /** Fixed even where the provider only warns: a replayed turn and a doubled result are bugs. */
  evenAsWarning?: boolean;
}

export const FIXES: readonly FixEntry[] = [
  { rules: ['duplicate_tool_use_id'], fix: fixDuplicateCall, priority: 0, evenAsWarning: true },
  { rules: ['duplicate_tool_result'], fix: fixDuplicateResult, priority: 1, evenAsWarning: true },
  {
    rules: ['unanswered_tool_use', 'partial_answer', 'trailing_tool_use', 'tool_result_not_first'],
    fix: fixMissing,
  },
  { rules: ['orphan_tool_result', 'tool_result_wrong_id'], fix: fixOrphan },
  { rules: ['count_mismatch'], fix: fixCountMismatch },
  { rules: ['content_after_tool_use'], fix: fixContentAfterCall },
  { rules: ['missing_tool_id'], fix: (w) => fixStrayToolContent(w) },
  { rules: ['empty_content'], fix: (w) => fixEmpty(w) },
  { rules: ['null_content'], fix: fixNullContent },
  { rules: ['empty_tool_calls'], fix: fixEmptyToolCalls },
  { rules: ['empty_text'], fix: (w) => fixEmptyText(w) },
  { rules: ['trailing_assistant'], fix: fixTrailingWhitespace },
  { rules: ['error_result_empty'], fix: fixErrorResultEmpty },
  { rules: ['reasoning_missing'], fix: fixReasoningMissing },
  { rules: ['reasoning_without_following'], fix: fixReasoningAlone },
  { rules: ['duplicate_item'], fix: fixDuplicateItem },
  { rules: ['role_order', 'first_message_role'], fix: fixLeadingExchange },
  { rules: ['malformed_tool_id'], fix: fixToolId },
];

const BY_RULE = new Map<RuleId, FixEntry>(FIXES.flatMap((e) => e.rules.map((r) => [r, e])));

/**
 * Apply the fix of a violation's rule.
 * @returns true when it changed anything; false for a rule no fix answers
 */
export function fix(w: Work, v: Violation): boolean {
  return BY_RULE.get(v.rule)?.fix(w, v) ?? false;
}

/** The order a violation is fixed in (lower first). */
export function priority(v: Violation): number {
  return BY_RULE.get(v.rule)?.priority ?? 2;
}

/** True when the repair fixes this violation: every error, and the warnings marked so. */
export function isFixTarget(v: Violation): boolean {
  return v.severity === 'error' || BY_RULE.get(v.rule)?.evenAsWarning === true;
}

export { fixDuplicateCall, fixDuplicateResult };
