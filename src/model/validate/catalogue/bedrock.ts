/**
 * AWS Bedrock Converse rules (B*): Converse checks the model-neutral structure itself and does not
 * merge same-role neighbours; for Claude models the Anthropic A and T rules follow, their texts prefixed with
 * `The model returned the following errors: ` (n8n-io/n8n#16987).
 */
import { idList, type RuleSpec } from './types.ts';

export const BEDROCK_RULES: readonly RuleSpec[] = [
  {
    code: 'B1',
    rules: ['orphan_tool_result', 'count_mismatch'],
    providers: ['bedrock'],
    severity: 'error',
    confidence: 'V',
    condition:
      'A user turn holds more `toolResult` blocks than the assistant turn before it had `toolUse` blocks (orphans after a trim, results after a text-only turn).',
    text: (p) =>
      `The number of toolResult blocks at messages.${p.n ?? 'N'}.content exceeds the number of toolUse blocks of previous turn.`,
    path: 'messages.N.content',
    index: 'N = the user message with the results.',
    source: 'Just-Curieous/Curie#16; strands-agents/harness-sdk#1435; pydantic/pydantic-ai#2327',
  },
  {
    code: 'B2',
    rules: ['unanswered_tool_use', 'partial_answer'],
    providers: ['bedrock'],
    severity: 'error',
    confidence: 'V',
    condition:
      'Some `toolUse` ids of an assistant turn are missing from the very next message (parallel results split over two user messages count).',
    text: (p) =>
      `Expected toolResult blocks at messages.${p.n ?? 'N'}.content for the following Ids: ${idList(p.ids)}`,
    path: 'messages.N.content',
    index: 'N = the message right after the assistant turn.',
    source: 'genkit-ai/aws-bedrock-js-plugin#664; amaiya/patchpal#9',
  },
  {
    code: 'B3',
    rules: ['first_message_role'],
    providers: ['bedrock'],
    severity: 'error',
    confidence: 'V',
    condition: 'The first message is not from the user.',
    text: () =>
      'A conversation must start with a user message. Try again with a conversation that starts with a user message.',
    path: 'messages.0',
    index: 'No index in the text.',
    source:
      'seafoodfry/kamekai docs/001-backend-init.md (Converse through the AWS SDK for Rust: this ValidationException verbatim). Not anthropics/anthropic-sdk-typescript#622, cited here before: that is InvokeModel with Claude, whose own text differs',
  },
  {
    code: 'B4',
    rules: ['same_role_neighbours'],
    providers: ['bedrock'],
    severity: 'error',
    confidence: 'V',
    condition: 'Two consecutive messages of the same role (Converse does not merge them).',
    text: () =>
      'A conversation must alternate between user and assistant roles. Make sure the conversation alternates between user and assistant roles and try again.',
    path: 'messages.N',
    index: 'No index in the text.',
    source: 'live errors quoted in several projects; LiteLLM',
  },
  {
    code: 'B5',
    rules: ['mixed_result_and_text'],
    providers: ['bedrock'],
    severity: 'error',
    confidence: 'V',
    condition:
      'Text next to `toolResult` blocks in one user message, for model families that raise it (a warning for Claude and unknown models).',
    text: (p) =>
      `messages.${p.n ?? 'N'}.content: Conversation blocks and tool result blocks cannot be provided in the same turn.`,
    path: 'messages.N.content',
    index: 'N = the user message.',
    source: 'langchain-ai/langchain-aws#141; strands-agents/harness-sdk#1223',
    note: 'Which model families raise it is not known; Claude is not reported to.',
  },
  {
    code: 'B6',
    rules: ['error_result_empty'],
    providers: ['bedrock'],
    severity: 'error',
    confidence: 'V',
    condition: 'A `toolResult` with `status: "error"` and empty content.',
    text: (p) =>
      `The content field at messages.${p.n ?? 'N'}.content.${p.m ?? 'M'}.toolResult cannot be empty when status value is error.`,
    path: 'messages.N.content.M.toolResult',
    index: 'N, M = the result block.',
    source: 'aws-samples/sample-multi-agent-orchestration-chat-on-agentcore#15',
  },
  {
    code: 'B7',
    rules: ['tools_not_defined'],
    providers: ['bedrock'],
    severity: 'error',
    confidence: 'V',
    condition:
      'toolUse/toolResult blocks in the history but no tools: `toolConfig` without tools, or no `toolConfig` in a complete request (its `modelId` given). A bare message list does not say, so the rule is not judged there.',
    text: () =>
      'The toolConfig field must be defined when using toolUse and toolResult content blocks.',
    path: 'toolConfig',
    index: 'No index.',
    source:
      'vxcontrol/pentagi#160; a complete request without tools: anomalyco/opencode#10259, browser-use/browser-use#1243',
    asOf: '2026-12',
  },
  {
    code: 'B8',
    rules: ['duplicate_tool_use_id'],
    providers: ['bedrock'],
    severity: 'error',
    confidence: 'V',
    condition:
      'Two `toolUse` blocks with one `toolUseId` in one assistant message (a model that names its calls by the tool, a retry that reuses the id).',
    text: (p) =>
      `The toolUse blocks at messages.${p.n ?? 'N'}.content contain duplicate Ids: ${idList(p.ids)}`,
    path: 'messages.N.content',
    index: 'N = the assistant message.',
    source:
      'double16/Cyber-AutoAgent-ng#27 (ConverseStream, `messages.2.content`); BerriAI/litellm#20049',
    note: 'How several repeated ids are listed is inferred from B2 (comma-separated).',
  },
  {
    code: 'B9',
    rules: ['duplicate_tool_result'],
    providers: ['bedrock'],
    severity: 'error',
    confidence: 'V',
    condition:
      'Two `toolResult` blocks naming one `toolUseId` in one user message (a converter merged two tool messages for one call, a hook that blocked one call twice).',
    text: (p) =>
      `The toolResult blocks at messages.${p.n ?? 'N'}.content contain duplicate Ids: ${idList(p.ids)}`,
    path: 'messages.N.content',
    index: 'N = the user message with the results.',
    source: 'BerriAI/litellm#20047; kirodotdev/Kiro#9355',
    note: 'How several repeated ids are listed is inferred from B2 (comma-separated).',
  },
  {
    code: 'B10',
    rules: ['malformed_tool_id'],
    providers: ['bedrock'],
    severity: 'error',
    confidence: 'V-doc',
    condition:
      'A `toolUseId` (of a `toolUse` or a `toolResult`) that is empty, holds a character other than letters, digits, `_` and `-`, or is longer than 64 characters: an id made by another provider and replayed, or a long generated one.',
    text: (p) => {
      const at = `Value '${p.id ?? '<id>'}' at 'messages.${p.n ?? 'N'}.member.content.${p.m ?? 'M'}.member.${p.type ?? 'toolUse'}.toolUseId' failed to satisfy constraint: Member must`;
      const pattern = `${at} satisfy regular expression pattern: [a-zA-Z0-9_-]+`;
      const length = `${at} have length less than or equal to 64`;
      return p.variant === 'both'
        ? `2 validation errors detected: ${pattern}; ${length}`
        : `1 validation error detected: ${p.variant === 'length' ? length : pattern}`;
    },
    path: 'messages.N.member.content.M.member.toolUse.toolUseId',
    index: 'N = the message, M = the block.',
    source:
      'AWS Bedrock API reference, ToolUseBlock and ToolResultBlock (toolUseId: length 1\u201364, pattern [a-zA-Z0-9_-]+); converters fixed for it: BerriAI/litellm#28825, maximhq/bifrost#6300, awsl-project/maxx#557',
    note: 'The constraint is documented; the wording is AWS\u2019s constraint message as captured for a tool name (aws-samples/remote-swe-agents#457), not captured for toolUseId, and whether its indices count from 0 or 1 is not known.',
  },
  {
    code: 'B11',
    rules: ['empty_content'],
    providers: ['bedrock'],
    severity: 'error',
    confidence: 'V',
    condition:
      'A message with no content blocks: a reply that was only dropped blocks (reasoning without a signature, empty text a converter removed), a persisted blank reply, a compaction that emptied a message. A final assistant message is not judged (allowed empty by Anthropic; not captured for Converse).',
    text: (p) =>
      `The content field in the Message object at messages.${p.n ?? 'N'} is empty. Add a ContentBlock object to the content field and try again.`,
    path: 'messages.N.content',
    index: 'N = the empty message.',
    source:
      'langchain-ai/langchain#26968 (Claude via ConverseStream, messages.3); earendil-works/pi#3443; archestra-ai/archestra#4220',
    note: 'Listed before the role and pairing findings of the same message (B3, B4, B1, B2); which of them Converse names first when a request has several is not captured.',
  },
  {
    code: 'B12',
    rules: ['empty_text'],
    providers: ['bedrock'],
    severity: 'error',
    confidence: 'V',
    condition:
      'A text block that is empty or holds only whitespace (a reply of two newlines, an image sent with an empty caption), in any message: Converse checks it for every model, Claude included.',
    text: (p) =>
      `The text field in the ContentBlock object at messages.${p.n ?? 'N'}.content.${p.m ?? 'M'} is blank. Add text to the text field, and try again.`,
    path: 'messages.N.content.M.text',
    index: 'N = the message, M = the text block.',
    source:
      'langchain-ai/langchain-aws#403 (AWS CLI reproduction: an assistant text of two newlines, messages.1.content.0); pydantic/pydantic-ai#1678 (Claude, messages.21.content.0); BerriAI/litellm#7169; aws/bedrock-agentcore-sdk-python#185; langchain-ai/langchainjs#8618',
  },
  {
    code: 'BW1',
    rules: ['trailing_tool_use'],
    providers: ['bedrock'],
    severity: 'warning',
    confidence: '?',
    condition: 'The conversation ends on toolUse blocks (non-Claude models).',
    text: null,
    path: '',
    index: 'The last assistant message.',
    source: 'no capture',
    note: 'What Converse answers is not captured; for Claude models A2 applies.',
  },
];
