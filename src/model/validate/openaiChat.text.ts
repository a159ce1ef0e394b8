/** The title and explanation of each Chat Completions rule class, as the page shows them. */
import type { RuleId } from './types.ts';

export const CHAT_TEXT: Readonly<Partial<Record<RuleId, [string, string]>>> = {
  orphan_tool_result: [
    'Tool message with no tool_calls before it',
    "A role 'tool' message must directly follow the assistant message whose tool_calls it answers (or another tool message of that run); a trim that dropped the assistant message leaves it orphaned.",
  ],
  tool_result_wrong_id: [
    'Tool message answers an id the previous message did not call',
    "The tool message follows an assistant tool_calls message, but its tool_call_id is not one of that message's calls.",
  ],
  unanswered_tool_use: [
    'Tool calls not answered',
    'An assistant message with tool_calls must be followed, contiguously, by one tool message per call; another message came first.',
  ],
  partial_answer: [
    'Only some parallel calls were answered',
    'Every id in tool_calls needs its own tool message in the run that follows; the error lists the ids left without one.',
  ],
  trailing_tool_use: [
    'The request ends on tool calls with no results',
    'The array ends right after an assistant message with tool_calls, so its calls have no tool messages.',
  ],
  duplicate_tool_result: [
    'Two results for one call',
    'Each tool_call_id may be answered by one tool message only; an aborted placeholder result and the real one, or a late result after a timeout error, send two.',
  ],
  duplicate_tool_use_id: [
    'The same tool_call id used twice',
    'A replayed turn is usually a retry bug. Chat Completions rejects it once the id is answered twice (O6, a second tool message); the repeated call answered once has no captured 400 here, while Anthropic and the Responses API reject the repeated call itself.',
  ],
  missing_tool_id: [
    'Tool message without a tool_call_id',
    'Every tool message must name the call it answers.',
  ],
  unknown_part_type: [
    'A content part of a type Chat Completions does not have',
    'Each part of a message\u2019s content must be one of the types Chat Completions takes (text, image_url, input_audio, file; refusal for an assistant). Blocks of another API sent as they are (thinking, tool_use, tool_result, functionCall) are refused before anything else; a client must translate them (tool_use into tool_calls, tool_result into a tool message) or drop them.',
  ],
  empty_tool_calls: [
    'Assistant message with an empty tool_calls list',
    'OpenAI\u2019s schema takes `tool_calls` with at least one call; a reply without calls must leave the key out, not send `[]`. A client that copies a parsed reply back into the history as it came (openai-python\u2019s parse helper once returned `[]`) sends it. The list is refused before anything else.',
  ],
  untyped_part: [
    'A content part without a type',
    'Each part of a message\u2019s content must say its `type` (`{"type": "text", "text": …}`). A part with no type, such as a Bedrock Converse block (`{"text": …}`) or a tool\u2019s list of objects sent as a tool message\u2019s content, is refused before anything else; the client must send typed parts, or the tool\u2019s output as a string.',
  ],
  null_content: [
    'Assistant message with neither content nor tool_calls',
    'An assistant message must carry text or tool calls; null content with no calls (a turn whose calls were removed, an empty reply sent as null) is refused before anything else. An empty string is accepted.',
  ],
};

/** O16's title and why: `null_content` of a tool or user message (O11's text is the assistant's). */
export const NULL_CONTENT_AS_SENT: readonly [string, string] = [
  'Message sent with content: null',
  'A tool or user message\u2019s content must be a string (or parts); null is refused before anything else. A tool that returned nothing, passed on as it was, sends it: send an empty string or a short note instead.',
];
