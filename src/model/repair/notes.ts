/**
 * Why each rule the repair leaves alone is not repaired automatically, and what would fix it.
 */
import type { RuleId } from '../validate/index.ts';

/** Why a rule is not repaired automatically, and what would fix it. */
export const UNREPAIRABLE_NOTES: Partial<Record<RuleId, string>> = {
  thinking_missing:
    'The thinking block that opened this tool loop was stripped. Its signature is opaque and cannot be recreated, so the repair does not fake one: keep the original thinking blocks, disable thinking for this request, or close the tool loop with a new user turn.',
  thinking_last:
    'The assistant message ends with a thinking block; the text or calls it led to are lost and cannot be invented. Restore the original response or drop the thinking block by hand.',
  thinking_when_disabled:
    'The final assistant message carries thinking while thinking is disabled. Enable thinking (the signed block is needed) or remove the block by hand; the repair does not decide which.',
  invalid_signature:
    "A thinking signature belongs to another model or conversation; it cannot be re-signed. Drop that turn's thinking blocks or send it to the model that produced them.",
  reasoning_missing:
    'The encrypted reasoning item this item depended on is lost and cannot be rebuilt. Replay the items without their ids (content only) or include the original reasoning item.',
  reasoning_without_following:
    'A reasoning item lost the item that followed it; the output it led to cannot be invented. Drop the reasoning item or restore its output item.',
  duplicate_item:
    'The same item id is sent twice (or an item already held by previous_response_id is re-sent); send each item once.',
  thought_signature_missing:
    'The thought signature of this function call was dropped; it is opaque and cannot be recreated. Keep the signatures from the original response, or start a new turn.',
  mixed_result_and_text:
    'Some Bedrock model families refuse text next to tool results in one user turn; splitting it would put two user messages in a row (B4), so it is left to you.',
  tools_not_defined:
    'The request holds tool blocks but defines no tools; the repair cannot invent tool schemas. Add the original `tools` definitions.',
  missing_tool_id: 'The block has no id, so the repair cannot tell which call it belongs to.',
  duplicate_tool_use_id:
    'Two calls in the same assistant turn share one id, so a result cannot say which of them it answers; the repair does not guess. Give each call its own id (as the model did) or drop the copy by hand.',
  system_role_in_list:
    'A system message sits inside the message list, which this API refuses. Move its text to the top-level `system` field (Anthropic) or `systemInstruction` (Gemini); the repair does not move it.',
  trailing_assistant:
    'The request ends on an assistant message, which this model refuses as a prefill. The next message must come from the user; the repair does not invent what the user said.',
  server_tool_unanswered:
    'Server tool results are produced by the provider; the repair cannot create one. Drop the server_tool_use or keep its result in the same turn.',
  server_tool_orphan:
    'This server tool result lost its server_tool_use; the repair does not invent provider-side calls.',
  first_message_role:
    'The first message is not from the user and no later exchange starts with one; the repair does not invent a user message.',
  role_order:
    'The roles are out of the order this provider accepts (Mistral, for one, wants an assistant message between tool results and the next user message); the repair does not invent messages to fix the order.',
  same_role_neighbours:
    'Two messages with the same role are neighbours; merging them changes what the model saw, so it is left to you.',
  count_mismatch:
    'The number of results differs from the number of calls and the calls carry no ids to match them by.',
  empty_request:
    'The request holds no message (a trim or converter left nothing); the repair does not invent one. Keep at least the last exchange.',
};

/** The note of a rule with no entry in `UNREPAIRABLE_NOTES`. */
export const DEFAULT_NOTE = 'No automatic repair for this rule.';
