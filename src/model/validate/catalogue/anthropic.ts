/** Anthropic Messages rules (A*, T*), also run by Bedrock for Claude models. */
import { idList, type RuleSpec, type TextParams } from './types.ts';

const CLAUDE = ['anthropic', 'anthropic-bedrock', 'anthropic-vertex', 'bedrock'] as const;

const A2_TEXT = (p: { n?: number | string; ids?: readonly string[] }) =>
  `messages.${p.n ?? 'N'}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after: ${idList(p.ids)}. Each \`tool_use\` block must have a corresponding \`tool_result\` block in the next message.`;

const THINKING_DOCS = 'https://docs.claude.com/en/docs/build-with-claude/extended-thinking';

/** T1's text (T2 differs only in the block type found). */
const T1_TEXT = (p: TextParams) =>
  `messages.${p.n ?? 'N'}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${p.found ?? 'tool_use'}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block (preceeding the lastmost set of \`tool_use\` and \`tool_result\` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable \`thinking\`. Please consult our documentation at ${THINKING_DOCS}`;

export const ANTHROPIC_RULES: readonly RuleSpec[] = [
  {
    code: 'A1',
    rules: ['orphan_tool_result'],
    providers: CLAUDE,
    severity: 'error',
    confidence: 'V',
    condition:
      'A `tool_result` whose `tool_use_id` is not a `tool_use` of the immediately previous (merged) assistant message: a result in the first message, after a text-only turn, or two turns after its call.',
    text: (p) =>
      `messages.${p.n ?? 'N'}.content.${p.m ?? 'M'}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${p.id ?? '<id>'}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
    path: 'messages.N.content.M',
    index: 'N = the user message holding the orphan result (after merging), M = its block.',
    source:
      'anthropics/claude-code#13460, #18947 (messages.0.content.0); router-for-me/CLIProxyAPI#497; github/copilot-cli#1159',
  },
  {
    code: 'A2',
    rules: ['unanswered_tool_use', 'partial_answer', 'trailing_tool_use'],
    providers: CLAUDE,
    severity: 'error',
    confidence: 'V',
    condition:
      'An assistant message whose `tool_use` ids are not all answered by `tool_result` blocks at the start of the next message (no next message, a text reply, or only some parallel calls answered).',
    text: A2_TEXT,
    path: 'messages.N',
    index:
      'N = the assistant message with the calls (inferred from reports where it can only be that one); the list holds only the missing ids.',
    source:
      'anthropics/claude-code#5060, #5989, #1237, #3632; OpenHands/OpenHands#7512; n8n-io/n8n#16987',
  },
  {
    code: 'A3',
    rules: ['tool_result_not_first'],
    providers: CLAUDE,
    severity: 'error',
    confidence: 'V',
    condition:
      'Text, an image or anything else placed before the `tool_result` blocks of the answering user message: the calls count as unanswered (A2 text).',
    text: A2_TEXT,
    path: 'messages.N',
    index: 'N = the assistant message with the calls.',
    source:
      'Anthropic docs, "Handle tool calls" (tool results first); capture shareAI-lab/learn-claude-code#55',
  },
  {
    code: 'A4',
    rules: ['server_tool_unanswered'],
    providers: CLAUDE,
    severity: 'error',
    confidence: 'V-doc',
    condition:
      'A server tool call deferred because client tools were called in the same turn, whose follow-up user message holds more than `tool_result` blocks.',
    text: (p) =>
      `messages.${p.n ?? 'N'}: \`${p.name ?? '<name>'}\` tool use with id \`${p.id ?? '<id>'}\` was found without a corresponding \`${p.name ?? '<name>'}_tool_result\` block`,
    path: 'messages.N',
    index: 'N = the assistant message with the server call.',
    source: 'Anthropic docs, stop reasons (tool_use with mixed server and client calls)',
  },
  {
    code: 'A5',
    rules: ['content_after_tool_use', 'unanswered_tool_use', 'partial_answer'],
    providers: CLAUDE,
    severity: 'error',
    confidence: 'I',
    condition:
      'In one (merged) assistant message, a client `tool_use` followed by other content (text, thinking, a server tool call or its result): the calls before that content are not "immediately" followed by their results, even when the next message answers them.',
    text: A2_TEXT,
    path: 'messages.N',
    index:
      'N = the assistant message; the list names the calls followed by other content (and any left unanswered).',
    source:
      'letta-ai/letta-code#2229 (captured 400 after an interrupted turn left text after a tool call); vercel/ai#13013 (server tool pair after a client tool_use, reproduction); anthropics/claude-code#15205 (log analysis); anthropics/anthropic-sdk-typescript#841',
    note: 'Decided as an error: two independent captured 400s with the A2 text and a reproduction. Which ids the text lists is inferred. Text *before* a tool_use, and parallel tool_use blocks, are fine.',
  },
  {
    code: 'A6',
    rules: ['duplicate_tool_use_id'],
    providers: CLAUDE,
    severity: 'error',
    confidence: 'V',
    condition: 'The same `tool_use` id twice anywhere in the request (a replayed or retried turn).',
    text: (p) => `messages.${p.n ?? 'N'}.content.${p.m ?? 'M'}: \`tool_use\` ids must be unique`,
    path: 'messages.N.content.M',
    index: 'The later duplicate (inferred).',
    source: 'trycua/cua#524; anthropics/claude-code#28515',
  },
  {
    code: 'A6b',
    rules: ['duplicate_tool_result'],
    providers: CLAUDE,
    severity: 'error',
    confidence: 'V',
    condition:
      'Two `tool_result` blocks for one `tool_use` id in the answering (merged) user message: a compaction or retry appended the same results twice.',
    text: (p) =>
      `messages.${p.n ?? 'N'}.content.${p.m ?? 'M'}: each tool_use must have a single result. Found multiple \`tool_result\` blocks with id: ${p.id ?? '<id>'}`,
    path: 'messages.N.content.M',
    index:
      'N = the user message, M = the block where the duplicate is found (the second result with that id: `messages.4.content.1` when the first is at `.0`); only the first duplicated id is named.',
    source: 'bastani-inc/atomic#2051 (live error), root cause in bastani-inc/atomic#2053',
    asOf: '2026-12',
  },
  {
    code: 'A7',
    rules: ['tools_not_defined'],
    providers: ['anthropic'],
    severity: 'error',
    confidence: 'V',
    condition:
      'The history holds `tool_use`/`tool_result` blocks but the request defines no tools: `"tools": []`, or no `tools` key in a complete request (its required fields present: `model` and `max_tokens`, or Bedrock/Vertex `anthropic_version`), as compaction, summariser and planner calls send. A bare message list does not say, so the rule is not judged there.',
    text: () => 'Requests which include `tool_use` or `tool_result` blocks must define tools.',
    path: '',
    index: 'No index.',
    source:
      'quoted from the live error in several projects (mock servers, error classifiers); a complete request without tools: anomalyco/opencode#10259 (compaction), browser-use/browser-use#1243 (planner)',
    note: 'Client blocks only: a server tool\u2019s blocks (`server_tool_use`, `mcp_tool_use` of the MCP connector, and their results) are not counted, as the text names `tool_use` and `tool_result` and the provider runs those from its own definitions (`mcp_servers`). No capture shows Anthropic\u2019s answer to such blocks without their definitions (an `mcp_tool_use` without `mcp_servers`, a `server_tool_use` without its server tool), so that is not checked.',
    asOf: '2026-12',
  },
  {
    code: 'A10',
    rules: ['empty_content'],
    providers: CLAUDE,
    severity: 'error',
    confidence: 'V',
    condition: 'A message with empty content, other than an optional final assistant message.',
    text: (p) =>
      `messages.${p.n ?? 'N'}: all messages must have non-empty content except for the optional final assistant message`,
    path: 'messages.N',
    index: 'N = the empty message (after merging).',
    source: 'tidyverse/ellmer#709; anthropics/claude-code#3196, #4416, #2196',
  },
  {
    code: 'A11',
    rules: ['empty_text'],
    providers: CLAUDE,
    severity: 'error',
    confidence: 'V',
    condition: 'An empty text block, or one holding only whitespace.',
    text: (p) =>
      p.variant === 'whitespace'
        ? 'messages: text content blocks must contain non-whitespace text'
        : `messages.${p.n ?? 'N'}.content.${p.m ?? 'M'}.text: text content blocks must be non-empty`,
    path: 'messages.N.content.M.text (empty) / messages (whitespace)',
    index: 'N, M = the text block.',
    source: 'home-assistant/core#140005; exact strings in several projects\u2019 error classifiers',
  },
  {
    code: 'A12',
    rules: ['trailing_assistant'],
    providers: CLAUDE,
    severity: 'error',
    confidence: 'V',
    condition:
      'The request ends with an assistant message (prefill): rejected by newer models, with forced tools or an output format, and on older models when it ends in whitespace.',
    text: (p) =>
      p.variant === 'whitespace'
        ? 'messages: final assistant content cannot end with trailing whitespace'
        : p.variant === 'model'
          ? 'Prefilling assistant messages is not supported for this model.'
          : `Your API request included an \`assistant\` message in the final position, which would pre-fill the \`assistant\` response. ${p.variant === 'output' ? 'When using output format' : 'When using tools'}, pre-filling the \`assistant\` response is not supported.`,
    path: 'messages',
    index: 'No index.',
    source:
      'Anthropic errors page (cited in ash-project/ash_ai#191, agentjido/req_llm#642); Doriandarko/claude-engineer#40; inngest/agent-kit#41',
  },
  {
    code: 'A14',
    rules: ['empty_request'],
    providers: CLAUDE,
    severity: 'error',
    confidence: 'I',
    condition:
      'No messages at all (the system prompt goes beside the list): a trim that kept only the system prompt, or returned `[]`.',
    text: () => 'messages: at least one message is required',
    path: 'messages',
    index: 'No index.',
    source:
      'langchain-ai/langchain#31657 ("at least one message is required"); Helicone/helicone#5257; arthur-ai/arthur-engine#1302',
    note: 'Reported as a 400 by several projects; the exact current wording is not captured.',
  },
  {
    code: 'A15',
    rules: ['server_tool_unanswered'],
    providers: CLAUDE,
    severity: 'error',
    confidence: 'V',
    condition: 'A `server_tool_use` with no result block after it in the same assistant turn.',
    text: (p) =>
      `messages.${p.n ?? 'N'}: \`${p.name ?? '<name>'}\` tool use with id \`${p.id ?? '<id>'}\` was found without a corresponding \`${p.name ?? '<name>'}_tool_result\` block`,
    path: 'messages.N',
    index: 'N = the assistant message.',
    source: 'Anthropic docs (stop reasons); anthropics/anthropic-sdk-typescript#841',
  },
  {
    code: 'A16',
    rules: ['server_tool_orphan'],
    providers: CLAUDE,
    severity: 'error',
    confidence: 'V',
    condition: 'A server tool result block with no `server_tool_use` before it in the turn.',
    text: (p) =>
      `messages.${p.n ?? 'N'}.content.${p.m ?? 'M'}: unexpected \`tool_use_id\` found in \`${p.type ?? '<type>'}\` blocks: ${p.id ?? '<id>'}. Each \`${p.type ?? '<type>'}\` block must have a corresponding \`server_tool_use\` block before it.`,
    path: 'messages.N.content.M',
    index: 'N, M = the result block.',
    source: 'anthropics/claude-code#64383 (advisor_tool_result); fixtures in other projects',
  },
  {
    code: 'A17',
    rules: ['missing_tool_id'],
    providers: CLAUDE,
    severity: 'error',
    confidence: 'I',
    condition: 'A `tool_use` without `id` or a `tool_result` without `tool_use_id` (schema error).',
    text: (p) => `${p.path ?? 'messages.N.content.M.id'}: Field required`,
    path: 'messages.N.content.M.id / .tool_use_id',
    index: 'The block missing its id.',
    source: 'the API\u2019s schema error shape, as in T6 (anomalyco/opencode#25005)',
  },
  {
    code: 'A18',
    rules: ['malformed_tool_id'],
    providers: CLAUDE,
    severity: 'error',
    confidence: 'V',
    condition:
      'A client `tool_use` id with a character other than letters, digits, `_` and `-` (or empty): an id made by another provider and replayed (Kimi\u2019s `functions.Bash:0`, MCP server names with dots or colons). The `tool_result` naming it fails the same check (`tool_result.tool_use_id` in the path; inferred, the call is met first).',
    text: (p) =>
      `messages.${p.n ?? 'N'}.content.${p.m ?? 'M'}.${p.variant ?? 'tool_use.id'}: String should match pattern '^[a-zA-Z0-9_-]+$'`,
    path: 'messages.N.content.M.tool_use.id',
    index: 'N, M = the block (after merging); the first refused id is the one reported.',
    source:
      'BlockRunAI/ClawRouter#17 (messages.92.content.0.tool_use.id); maximhq/bifrost#5097 (ids from Kimi/Moonshot); RooCodeInc/Roo-Code#10649 (MCP ids); CommandCodeAI/command-code#323',
  },
  {
    code: 'A19',
    rules: ['system_role_in_list'],
    providers: ['anthropic'],
    severity: 'error',
    confidence: 'V',
    condition:
      'An Anthropic request body with a `role: "system"` message inside `messages` (the OpenAI way of giving a system prompt; Anthropic takes it in the top-level `system` field). Not reported where a mid-conversation system message is documented to be accepted: Claude Opus 4.8 or any model of the 5 generation on the Claude API (not Bedrock or Vertex, told by their `anthropic_version`), the message right after a user message (or an assistant message ending in a server tool call) and followed by nothing or an assistant message.',
    text: () =>
      'messages: Unexpected role "system". The Messages API accepts a top-level `system` parameter, not "system" as an input message role.',
    path: 'messages',
    index: 'No index in the text.',
    source:
      'Maol-1997/cursor-claude-connector#3 (full 400 body and the request: a system message first, 2025-07); ianarawjo/ChainForge#271 (2024-04); mid-conversation system messages: platform.claude.com/docs/en/build-with-claude/mid-conversation-system-messages (Opus 4.8, Claude API only), langchain-ai/langchainjs#11472 (Opus 5); @langchain/anthropic 1.5.13 release notes (models.dev profiles: Opus 4.8, Opus 5 and 5.5, Sonnet 5 and 5.5, Haiku 5.5, Fable 5 and 5.1, Mythos 5 and 5.1 take mid-conversation system messages)',
    note: "Which models take a mid-conversation system message past Opus 4.8 is read from LangChain's model profiles (models.dev) and one report (Opus 5), not from Anthropic's docs; every 5.x model is judged as taking them. A third-party proxy\u2019s docs (gproxy-transform, docs.rs) say the models before Opus 4.8 now answer `role 'system' is not supported on this model`: the text here is the one captured with a full body. On a model that takes mid-conversation system messages, one out of its documented place is a 400 by the docs, its text not captured: this text is shown.",
    asOf: '2025-07',
  },
  {
    code: 'A20',
    rules: ['untyped_part'],
    providers: ['anthropic', 'anthropic-bedrock', 'anthropic-vertex'],
    severity: 'error',
    confidence: 'V',
    condition:
      'An Anthropic request body whose message `content` array holds a block with no `type` key: Bedrock Converse blocks (`{"text": …}`) or another client\u2019s parts sent as they are, a serialiser that drops the tag. A schema error, met before the message checks. Checked on bodies read as Anthropic Messages; a block inside a `tool_result`\u2019s content is not checked (its path differs: `….tool_result.content.K.type`, not captured).',
    text: (p) => `messages.${p.n ?? 'N'}.content.${p.m ?? 'M'}.type: Field required`,
    path: 'messages.N.content.M.type',
    index:
      'N = the message as sent, M = the block in its `content` (the schema is checked on the body as sent, before consecutive messages are merged: inferred, no capture shows merged messages).',
    source:
      'softwaremill/sttp-ai, docs/plans/claude-api-implementation-plan.md and CLAUDE.md (commit 86ec08c5, 2025-09-25: its Claude example run against the API answered `messages.0.content.0.type: Field required`; the cause, uPickle leaving out the blocks\u2019 `type` as a default value)',
    note: 'The capture records the message, not the whole 400 body: the body is the API\u2019s `invalid_request_error` envelope, as for the other schema errors (A17, T6). No issue thread with the full body was found.',
    asOf: '2025-09',
  },
  {
    code: 'T1',
    rules: ['thinking_missing'],
    providers: CLAUDE,
    severity: 'error',
    confidence: 'V',
    condition:
      'Thinking enabled, the request continues a tool loop, and the assistant message that opened it no longer starts with `thinking`/`redacted_thinking` (T1: it starts with `tool_use`; T2: with text).',
    text: (p) => T1_TEXT({ ...p, found: 'tool_use' }),
    path: 'messages.N.content.0.type',
    index: 'N = the assistant message that opened the open tool loop.',
    source:
      'openai/openai-agents-python#1704; OpenRouterTeam/ai-sdk-provider#162; n8n-io/n8n#22550 (T2)',
  },
  {
    code: 'T2',
    rules: ['thinking_missing'],
    providers: CLAUDE,
    severity: 'error',
    confidence: 'V',
    condition: 'As T1, when the message starts with text.',
    text: (p) => T1_TEXT({ ...p, found: 'text' }),
    path: 'messages.N.content.0.type',
    index: 'As T1.',
    source: 'n8n-io/n8n#22550',
  },
  {
    code: 'T3',
    rules: ['thinking_last'],
    providers: CLAUDE,
    severity: 'error',
    confidence: 'V',
    condition: 'The final assistant message ends with a thinking block.',
    text: (p) =>
      `messages.${p.n ?? 'N'}: The final block in an assistant message cannot be \`thinking\`.`,
    path: 'messages.N',
    index: 'N = the last message.',
    source: 'tailcallhq/forgecode#2107',
  },
  {
    code: 'T4',
    rules: ['thinking_when_disabled'],
    providers: CLAUDE,
    severity: 'error',
    confidence: 'V',
    condition: 'Thinking disabled, but the final assistant message holds a thinking block.',
    text: (p) =>
      `messages.${p.n ?? 'N'}.content.${p.m ?? 'M'}: When thinking is disabled, an \`assistant\` message in the final position cannot contain \`thinking\`. To use thinking blocks, enable \`thinking\` in your request.`,
    path: 'messages.N.content.M',
    index: 'The thinking block.',
    source: 'tailcallhq/forgecode#1853',
  },
  {
    code: 'T5',
    rules: ['invalid_signature'],
    providers: CLAUDE,
    severity: 'error',
    confidence: 'V',
    condition:
      'A thinking block whose signature is empty (one from another model or conversation cannot be told from the request).',
    text: (p) =>
      `messages.${p.n ?? 'N'}.content.${p.m ?? 'M'}: Invalid \`signature\` in \`thinking\` block`,
    path: 'messages.N.content.M',
    index: 'The thinking block.',
    source: 'NousResearch/hermes-agent#24401; vybestack/llxprt-code#2335',
  },
  {
    code: 'T6',
    rules: ['invalid_signature'],
    providers: CLAUDE,
    severity: 'error',
    confidence: 'V',
    condition: 'A thinking block without a signature.',
    text: (p) => `messages.${p.n ?? 'N'}.content.${p.m ?? 'M'}.thinking.signature: Field required`,
    path: 'messages.N.content.M.thinking.signature',
    index: 'The thinking block.',
    source: 'anomalyco/opencode#25005 (via Bedrock)',
  },
  {
    code: 'DA1',
    rules: ['thinking_missing'],
    providers: ['deepseek-anthropic'],
    severity: 'error',
    confidence: 'V',
    condition:
      'As T1, on DeepSeek’s Anthropic-compatible endpoint (`api.deepseek.com/anthropic`): thinking on, and the assistant message that opened the open tool loop sent back without its `thinking` block.',
    text: () => 'The `content[].thinking` in the thinking mode must be passed back to the API.',
    path: '',
    index: 'No index; the body is DeepSeek’s (`param` null).',
    source:
      'decolua/9router#2397 (full body, deepseek-v4-pro, 2026-07); omnimind-ai/OmniBot#307 (2026-05); esengine/DeepSeek-Reasonix#8902 (2026-08)',
    asOf: '2026-08',
  },
];
