/**
 * The rule classes: one entry per `Violation.rule`, shared by every provider (a provider's own code
 * for it is the catalogue's `code`). `RuleId` is derived from this registry, so a new rule class is
 * one entry here (its words, what the page and CLI print in place of the id) and then its
 * catalogue entries and checks.
 */

/** What the registry says of a rule class. */
export interface RuleDef {
  /** The rule class in a few plain words, shown where the id would be. */
  words: string;
}

export const RULE_REGISTRY = {
  orphan_tool_result: { words: 'tool result with no call before it' },
  unanswered_tool_use: { words: 'tool call not answered' },
  partial_answer: { words: 'only some parallel calls answered' },
  trailing_tool_use: { words: 'request ends on tool calls' },
  tool_result_not_first: { words: 'tool result not first in its message' },
  duplicate_tool_use_id: { words: 'tool call id used twice' },
  duplicate_tool_result: { words: 'two results for one call' },
  tool_result_wrong_id: { words: 'result answers an id not called' },
  tool_result_unnamed: { words: 'tool result without its function name' },
  missing_tool_id: { words: 'tool block without an id' },
  server_tool_unanswered: { words: 'server tool call not answered' },
  server_tool_orphan: { words: 'server tool result with no call' },
  thinking_missing: { words: 'thinking block missing' },
  thinking_last: { words: 'thinking block last' },
  thinking_when_disabled: { words: 'thinking while thinking is off' },
  invalid_signature: { words: 'invalid thinking signature' },
  reasoning_missing: { words: 'reasoning item missing' },
  reasoning_without_following: { words: 'reasoning item with nothing after it' },
  duplicate_item: { words: 'item sent twice' },
  empty_content: { words: 'empty message' },
  empty_text: { words: 'empty text block' },
  role_order: { words: 'roles out of order' },
  system_role_in_list: { words: 'system message inside the message list' },
  first_message_role: { words: 'first message not from the user' },
  same_role_neighbours: { words: 'two messages of one role in a row' },
  trailing_assistant: { words: 'request ends on an assistant message' },
  tools_not_defined: { words: 'tool blocks without tool definitions' },
  mixed_result_and_text: { words: 'text beside tool results' },
  count_mismatch: { words: 'results do not match the calls' },
  error_result_empty: { words: 'empty error result' },
  thought_signature_missing: { words: 'thought signature missing' },
  empty_request: { words: 'no message in the request' },
  content_after_tool_use: { words: 'content after the tool calls' },
  malformed_tool_id: { words: 'tool id the provider refuses' },
  null_content: { words: 'message with null content' },
  empty_tool_calls: { words: 'empty tool_calls list' },
  unknown_part_type: { words: 'content part of an unknown type' },
  untyped_part: { words: 'content part without a type' },
  compaction_moved: { words: 'compaction block moved' },
  compaction_edited: { words: 'compaction block or item emptied' },
  compaction_dropped: { words: 'compaction block dropped, or items kept before it' },
  context_window_exceeded: { words: 'input longer than the context window' },
} as const satisfies Readonly<Record<string, RuleDef>>;

/** Stable rule ids: the keys of `RULE_REGISTRY`. */
export type RuleId = keyof typeof RULE_REGISTRY;

/** Every rule id, in the registry's order. */
export const RULE_IDS = Object.keys(RULE_REGISTRY) as readonly RuleId[];

/** True for a string that is a rule id (an own key of the registry, never `constructor`). */
export function isRuleId(s: string): s is RuleId {
  return Object.prototype.hasOwnProperty.call(RULE_REGISTRY, s);
}
