/**
 * Words for a pair's state on the arcs and the row chips: pairing's status, and — when pairing
 * says `answered` but an error violation of the chosen provider names the pair — that provider's
 * rule (`selectBrokenPairs`). Pure strings; the callers render them as text.
 */
import type { PairStatus } from '../../model/pairing.ts';
import type { Violation } from '../../model/validate/index.ts';

/** Pairing's status in words (arc titles and accessible names). */
export const STATUS_TEXT: Record<PairStatus, string> = {
  answered: 'answered',
  answered_late: 'answered, but not in the next message',
  unanswered: 'no tool_result',
  orphan: 'tool_result without its tool_use',
  duplicate_id: 'duplicate tool_use id',
  duplicate_result: 'second tool_result for one call',
};

/**
 * The note for an `answered` pair the provider still refuses: "answered, but not as
 * <provider> requires: <rule title> (<code>)".
 * @param providerLabel the validator's label (`AWS Bedrock Converse`)
 * @param v the first error violation naming the pair
 */
export function answeredButRefused(providerLabel: string, v: Violation): string {
  return `answered, but not as ${providerLabel} requires: ${v.title} (${v.code})`;
}

/**
 * A pair's state in words: pairing's status, or for an `answered` pair an error violation names,
 * `answeredButRefused`.
 * @param v the first error violation naming the pair (`BrokenPairs.violation`), or undefined
 */
export function pairStateText(
  status: PairStatus,
  v: Violation | undefined,
  providerLabel: string,
): string {
  return status === 'answered' && v ? answeredButRefused(providerLabel, v) : STATUS_TEXT[status];
}
