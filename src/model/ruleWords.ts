/**
 * Words for the internal ids a page or CLI line would otherwise show (`orphan_tool_result`,
 * `partial_answer`, `orphan_removed`): each rule class and each repair change in a few plain
 * words. The ids stay in data attributes and JSON for tools.
 */
import type { RepairKind } from './repair/types.ts';
import type { RuleId } from './validate/types.ts';

const RULE_WORDS: Readonly<Record<RuleId, string>> = {
  orphan_tool_result: 'tool result with no call before it',
  unanswered_tool_use: 'tool call not answered',
  partial_answer: 'only some parallel calls answered',
  trailing_tool_use: 'request ends on tool calls',
  tool_result_not_first: 'tool result not first in its message',
  duplicate_tool_use_id: 'tool call id used twice',
  duplicate_tool_result: 'two results for one call',
  tool_result_wrong_id: 'result answers an id not called',
  missing_tool_id: 'tool block without an id',
  server_tool_unanswered: 'server tool call not answered',
  server_tool_orphan: 'server tool result with no call',
  thinking_missing: 'thinking block missing',
  thinking_last: 'thinking block last',
  thinking_when_disabled: 'thinking while thinking is off',
  invalid_signature: 'invalid thinking signature',
  reasoning_missing: 'reasoning item missing',
  reasoning_without_following: 'reasoning item with nothing after it',
  duplicate_item: 'item sent twice',
  empty_content: 'empty message',
  empty_text: 'empty text block',
  role_order: 'roles out of order',
  first_message_role: 'first message not from the user',
  same_role_neighbours: 'two messages of one role in a row',
  trailing_assistant: 'request ends on an assistant message',
  tools_not_defined: 'tool blocks without tool definitions',
  mixed_result_and_text: 'text beside tool results',
  count_mismatch: 'results do not match the calls',
  error_result_empty: 'empty error result',
  thought_signature_missing: 'thought signature missing',
  empty_request: 'no message in the request',
  content_after_tool_use: 'content after the tool calls',
  malformed_tool_id: 'tool id the provider refuses',
  null_content: 'assistant message with no content',
  unknown_part_type: 'content part of an unknown type',
};

const REPAIR_WORDS: Readonly<Record<RepairKind, string>> = {
  error_result_added: 'error result added',
  result_reattached: 'result moved to its call',
  results_merged: 'results merged',
  text_moved: 'text moved',
  orphan_removed: 'orphaned result removed',
  exchange_removed: 'exchange removed',
  duplicate_result_removed: 'second result removed',
  replayed_turn_removed: 'replayed turn removed',
  duplicate_call_removed: 'repeated call removed',
  empty_removed: 'empty message removed',
  whitespace_trimmed: 'whitespace trimmed',
  error_result_filled: 'empty error result filled',
  item_id_dropped: 'item id dropped',
  reasoning_removed: 'reasoning removed',
  tool_id_renamed: 'tool id renamed',
  reasoning_emptied: 'reasoning emptied',
};

/** A rule class in plain words ("tool result with no call before it"). */
export function ruleWords(rule: RuleId): string {
  return RULE_WORDS[rule];
}

/** A repair change's kind in plain words ("orphaned result removed"). */
export function repairWords(kind: RepairKind): string {
  return REPAIR_WORDS[kind];
}
