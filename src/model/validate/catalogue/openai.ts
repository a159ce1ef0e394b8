/** OpenAI Chat Completions (O*) and the OpenAI-compatible providers (D*, Q*, M*). */
import { CHAT_PART_TYPES } from '../rules/partTypes.ts';
import { idList, type RuleSpec } from './types.ts';

/** `'a', 'b', and 'c'`: the list as OpenAI's invalid_value text quotes it. */
const PART_LIST = `${CHAT_PART_TYPES.slice(0, -1)
  .map((t) => `'${t}'`)
  .join(', ')}, and '${CHAT_PART_TYPES.at(-1) ?? ''}'`;

const COMPAT_DUP_NOTE =
  'No capture of this provider\u2019s answer: a warning until one is found (OpenAI itself rejects it, O6).';

export const OPENAI_CHAT_RULES: readonly RuleSpec[] = [
  {
    code: 'O1',
    rules: ['orphan_tool_result'],
    providers: ['openai-chat'],
    severity: 'error',
    confidence: 'V',
    condition:
      'A `tool` message with no assistant `tool_calls` message before its run: the first message after a trim, or a tool message after a user or plain assistant message.',
    text: () =>
      "Invalid parameter: messages with role 'tool' must be a response to a preceeding message with 'tool_calls'.",
    path: 'messages.[N].role',
    index: 'N = the orphan tool message.',
    source:
      'miurla/morphic#136; smarter-sh/smarter#264; KeyserDSoze/Rystem.OpenAi#85; sdcb/chats#132',
    note: 'The misspelling "preceeding" is OpenAI\u2019s; some Azure deployments spell it correctly.',
  },
  {
    code: 'O2',
    rules: ['unanswered_tool_use', 'partial_answer', 'trailing_tool_use'],
    providers: ['openai-chat'],
    severity: 'error',
    confidence: 'V',
    condition:
      'An assistant message with `tool_calls` not followed by a contiguous run of `tool` messages covering every id (another message comes first, or the array ends).',
    text: (p) =>
      `An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. The following tool_call_ids did not have response messages: ${idList(p.ids)}`,
    path: 'messages (the array ends) / messages.[N].role (N = the message that broke the run)',
    index:
      'The param\u2019s N is inferred: the first message after the run that is not a tool message.',
    source: 'camel-ai/camel#3359; sdcb/chats#132; aliasrobotics/cai#111',
  },
  {
    code: 'O3',
    rules: ['tool_result_wrong_id'],
    providers: ['openai-chat'],
    severity: 'error',
    confidence: 'V',
    condition:
      'A `tool` message right after an assistant `tool_calls` message (or in its run) whose `tool_call_id` is not one of its ids.',
    text: (p) =>
      `Invalid parameter: 'tool_call_id' of '${p.id ?? '<id>'}' not found in 'tool_calls' of previous message.`,
    path: 'messages.[N].role',
    index: 'N = the tool message (param inferred).',
    source: 'dapr/dapr-agents#145',
  },
  {
    code: 'O6',
    rules: ['duplicate_tool_result'],
    providers: ['openai-chat'],
    severity: 'error',
    confidence: 'V',
    condition:
      'Two `tool` messages with the same `tool_call_id` (an aborted placeholder and the real result, a timeout\u2019s error and the late result, a replayed turn).',
    text: (p) =>
      `Invalid parameter: Duplicate value for 'tool_call_id' of '${p.id ?? '<id>'}', in messages[${p.n ?? 'N'}] and messages[${p.m ?? 'M'}].`,
    path: 'messages.[M].tool_call_id',
    index:
      'N = the first tool message with the id, M = the second (as sent: one per result). Request-wide (the text names two positions); the second still answers its call.',
    source: 'agno-agi/agno#5116; fatwang2/search2ai#30 (Azure); anomalyco/opencode#1211',
  },
  {
    code: 'O8',
    rules: ['empty_request'],
    providers: ['openai-chat'],
    severity: 'error',
    confidence: 'V',
    condition: 'An empty `messages` array (a trim or converter left nothing).',
    text: () =>
      "Invalid 'messages': empty array. Expected an array with minimum length 1, but got an empty array instead.",
    path: 'messages (code empty_array)',
    index: 'No index.',
    source: 'CopilotKit/CopilotKit#529',
  },
  {
    code: 'O10',
    rules: ['malformed_tool_id'],
    providers: ['openai-chat'],
    severity: 'error',
    confidence: 'V',
    condition:
      'An assistant `tool_calls` id longer than 40 characters: the Responses API\u2019s `fc_\u2026` ids replayed to Chat Completions, ids a gateway or agent framework generates (a prefix and a UUID). A schema error, met before the message checks.',
    text: (p) =>
      `Invalid 'messages[${p.n ?? 'N'}].tool_calls[${p.m ?? 'K'}].id': string too long. Expected a string with maximum length 40, but got a string with length ${p.length ?? 'L'} instead.`,
    path: 'messages[N].tool_calls[K].id',
    index:
      'N = the assistant message as sent, K = the call in its tool_calls, L = the id\u2019s length.',
    source:
      'agno-agi/agno#5382 (code string_above_max_length); Portkey-AI/gateway#1062 (Azure); openclaw/openclaw#875; camel-ai/camel#2215; microsoft/autogen#6377',
    note: 'One live request with a 51-character id was accepted in July 2026 (vercel/ai#17233, gpt-4o-mini): enforcement may differ by model or deployment; the captured 400s make it an error.',
  },
  {
    code: 'O11',
    rules: ['null_content'],
    providers: ['openai-chat'],
    severity: 'error',
    confidence: 'V',
    condition:
      'An assistant message with neither content nor `tool_calls` (`content: null`): a trim or a hook that removed the calls of a tool-only turn and kept the message, a client that sends null for an empty reply. A type error, met before the message checks. An empty string is accepted.',
    text: () => "Invalid value for 'content': expected a string, got null.",
    path: 'messages.[N].content',
    index: 'N = the assistant message as sent.',
    source:
      'openai/openai-cookbook#503 (param messages.[1].content); vercel/ai#13744 (a maintainer-acknowledged regression: no tool calls and empty text sent as null); docker/docker-agent#63; microsoft/autogen#5699',
    note: 'Captured for `null`; a message with no `content` key, or with `content: []`, is taken the same (inferred: the page cannot tell them apart, and no capture says what OpenAI answers to those). A client library is judged as it sends: the AI SDK sends an empty assistant message as `content: ""`, accepted.',
  },
  {
    code: 'O12',
    rules: ['unknown_part_type'],
    providers: ['openai-chat'],
    severity: 'error',
    confidence: 'V',
    condition:
      'A Chat Completions body whose message `content` holds a part of a type Chat does not have: another API\u2019s blocks sent as they are (Anthropic `thinking`, `tool_use`, `tool_result`; Gemini `functionCall`; the Responses API\u2019s `input_file`; a LangChain `reasoning` block), typically after a switch of provider in the middle of a conversation. A type error, met before the message checks. Checked on bodies read as Chat Completions; a transcript of another format is rendered as a client would send it.',
    text: (p) => `Invalid value: '${p.type ?? '<type>'}'. Supported values are: ${PART_LIST}.`,
    path: 'messages[N].content[K].type',
    index: 'N = the message as sent, K = the part in its `content` array.',
    source:
      "aallam/openai-kotlin#320 (full body: param messages[0].content[1].type, code invalid_value; the list of 2024 named text and image_url only); langchain-ai/langchainjs, @langchain/openai changeset dropping reasoning blocks (Invalid value: 'reasoning')",
    note: 'The list of supported values has grown with the API (text and image_url in 2024); the text quotes the current one. A part with no `type` at all gets a missing-parameter error instead (O13).',
  },
  {
    code: 'O13',
    rules: ['untyped_part'],
    providers: ['openai-chat'],
    severity: 'error',
    confidence: 'V',
    condition:
      'A Chat Completions body whose message `content` array holds a part with no `type` key: Bedrock Converse blocks (`{"text": …}`) sent as they are, or a tool\u2019s list of objects sent as a tool message\u2019s content. A type error, met before the message checks. Checked on bodies read as Chat Completions, in every message (a tool message\u2019s content too).',
    text: (p) =>
      `Missing required parameter: 'messages[${p.n ?? 'N'}].content[${p.m ?? 'K'}].type'.`,
    path: 'messages[N].content[K].type',
    index: 'N = the message as sent, K = the part in its `content` array.',
    source:
      'langchain-ai/langgraph#1069 (full body: param messages[3].content[0].type, code missing_required_parameter; a tool message whose content was a list of objects); langchain-ai/langgraphjs#370, #506; neuron-core/neuron-ai#76, #292 (api.openai.com, 2025-09)',
    note: 'Captured for a tool message\u2019s parts; that a user or assistant message\u2019s untyped part gets the same text is inferred from the text naming the path only. A part whose `type` is present but not a string is not checked (no capture).',
    asOf: '2025-09',
  },
  {
    code: 'O15',
    rules: ['empty_tool_calls'],
    providers: ['openai-chat'],
    severity: 'error',
    confidence: 'V',
    condition:
      'An assistant message sent with an empty `tool_calls` list (`tool_calls: []`): a client that copies a parsed reply back into the history (openai-python\u2019s `parse` helper and openai-node\u2019s returned `[]` for a reply without calls), or a converter that always writes the key. Checked on bodies read as Chat Completions (the list as sent); with `content: null` beside it the message gets O11 too once the list is gone. A schema error, met before the message checks.',
    text: (p) =>
      `Invalid 'messages[${p.n ?? 'N'}].tool_calls': empty array. Expected an array with minimum length 1, but got an empty array instead.`,
    path: 'messages[N].tool_calls (code empty_array)',
    index: 'N = the assistant message as sent.',
    source:
      'openai/openai-python#2061 (full body: param messages[1].tool_calls, code empty_array); home-assistant/core#118577 (messages[2]); chatboxai/chatbox#2079 (messages[18], 2025-02); openai/openai-node#1341 (the SDK stopped defaulting to an empty list)',
    note: 'OpenAI\u2019s own schema (and Azure and Kimi, which take OpenAI\u2019s rules here). Other OpenAI-compatible servers differ: Qwen (DashScope) refuses it with its own text, `Empty tool_calls is not supported in message` (quoted in smallmain/vscode-unify-chat-provider#65, no full body), not checked here; DeepSeek\u2019s and Mistral\u2019s answers are not captured. Which of O15 and O11 OpenAI names first for `content: null` beside `tool_calls: []` is inferred (the schema error, whose param has no dot after `messages`, as O10 and O12).',
    asOf: '2025-02',
  },
  {
    code: 'O16',
    rules: ['null_content'],
    providers: ['openai-chat'],
    severity: 'error',
    confidence: 'V',
    condition:
      'A `tool` or `user` message sent with `content: null`: a tool that returned nothing (None, undefined) and a client that passed it on as it was, a history entry stored without text. Checked on bodies read as Chat Completions (the null as sent; a transcript of another format is rendered as a client writes it, an empty result as `""`). A type error, met before the message checks. An empty string is accepted.',
    text: () => "Invalid value for 'content': expected a string, got null.",
    path: 'messages.[N].content',
    index: 'N = the tool or user message as sent.',
    source:
      'run-llama/llama_index#17555, #17556 (a retriever tool that returned nothing, sent as a tool message with null content); vercel/ai#5526 (tool results); julep-ai/julep#1364 (full body through LiteLLM, param messages.[1].content: a user message without its text); langchain-ai/langchainjs#4153 (param messages.[0].content, a history entry whose content was not a string)',
    note: 'The same text and `param` as O11, the assistant\u2019s case; a code of its own because the dialects differ: DeepSeek\u2019s D3 names an assistant message, and no capture shows DeepSeek\u2019s or Qwen\u2019s answer to a null tool or user content, so they are not judged by it. A message with no `content` key is not checked (OpenAI\u2019s answer to it is not captured).',
    asOf: '2025-05',
  },
  {
    code: 'O9',
    rules: ['missing_tool_id'],
    providers: ['openai-chat', 'deepseek', 'qwen'],
    severity: 'error',
    confidence: 'I',
    condition: 'A `tool` message without `tool_call_id`.',
    text: (p) => `Missing required parameter: 'messages[${p.n ?? 'N'}].tool_call_id'.`,
    path: 'messages[N].tool_call_id',
    index: 'N = the tool message as sent.',
    source:
      'OpenAI\u2019s missing-parameter error shape; Groq\u2019s schema error (hackclub/ai#22)',
  },
  {
    code: 'OW1',
    rules: ['duplicate_tool_use_id'],
    providers: ['openai-chat', 'deepseek', 'qwen'],
    severity: 'warning',
    confidence: 'I',
    condition:
      'The same `tool_call` id in two assistant messages, answered once (answered twice, the second tool message gets O6 and this warning is not given).',
    text: null,
    path: '',
    index: 'The later call.',
    source: 'no capture of a rejection of the repeated call alone',
    note: 'A replayed turn is usually a retry bug; Anthropic (A6) and Responses (R6) reject it.',
  },
  {
    code: 'OW2',
    rules: ['duplicate_tool_result'],
    providers: ['deepseek', 'qwen'],
    severity: 'warning',
    confidence: '?',
    condition: 'Two tool messages answer one call.',
    text: null,
    path: '',
    index: 'The second tool message.',
    source: 'no capture for these providers',
    note: COMPAT_DUP_NOTE,
  },
  {
    code: 'O7',
    rules: ['orphan_tool_result'],
    providers: ['openai-chat'],
    severity: 'warning',
    confidence: 'I',
    condition:
      'Legacy function calling (2023): a `role: "function"` message (no id) that does not follow an assistant `function_call`. One that does is valid and pairs by position and name.',
    text: null,
    path: '',
    index: 'The function message.',
    source: 'OpenAI API reference (role `function`, deprecated); 2023-era transcripts',
    note: 'Deprecated but accepted; no capture of what the API says to a stray function message.',
  },
  {
    code: 'D1',
    rules: ['orphan_tool_result'],
    providers: ['deepseek'],
    severity: 'error',
    confidence: 'V',
    condition: 'As O1.',
    text: () =>
      "Messages with role 'tool' must be a response to a preceding message with 'tool_calls'",
    path: '',
    index: 'No index (`param` null).',
    source: 'FoundationAgents/OpenManus#23; qwersyk/Newelle#425',
  },
  {
    code: 'D2',
    rules: ['unanswered_tool_use', 'partial_answer', 'trailing_tool_use', 'tool_result_wrong_id'],
    providers: ['deepseek'],
    severity: 'error',
    confidence: 'V',
    condition:
      'As O2 (no id list). A wrong `tool_call_id` leaves its call unanswered (unconfirmed).',
    text: () =>
      "An assistant message with 'tool_calls' must be followed by tool messages responding to each 'tool_call_id'. (insufficient tool messages following tool_calls message)",
    path: '',
    index: 'No index.',
    source: 'TurixAI/TuriX-CUA#15; gptme/gptme#3421; langgenius/dify#32222',
  },
  {
    code: 'D3',
    rules: ['null_content'],
    providers: ['deepseek'],
    severity: 'error',
    confidence: 'V',
    condition:
      'As O11: an assistant message with neither content nor `tool_calls` (a content filter that took both, a trim that left an empty shell, a reply that was only reasoning). An empty string is accepted.',
    text: () => 'Invalid assistant message: content or tool_calls must be set',
    path: '',
    index: 'No index.',
    source:
      'carlrobertoh/ProxyAI#830, #834 (DeepSeek V3); client fixes that coerce such messages to an empty string for DeepSeek',
  },
  {
    code: 'D4',
    rules: ['reasoning_missing'],
    providers: ['deepseek'],
    severity: 'error',
    confidence: 'V',
    condition:
      'Thinking mode (`thinking: {type: "enabled"}`; without it, a model that only thinks, `deepseek-reasoner`, or a V4 model, where it is the default): an assistant message of a turn that called tools (between two user messages) sent back without `reasoning_content`. A client that drops the field, or a history stored without it. An empty string is taken.',
    text: (p) =>
      `Missing \`reasoning_content\` field in the assistant message at message index ${p.n ?? 'N'}. For more information, please refer to https://api-docs.deepseek.com/guides/thinking_mode#tool-calls`,
    path: '',
    index: 'N = the assistant message as sent (system messages count); `param` null.',
    source:
      'hotovo/aider-desk#529 (full body); continuedev/continue#9831, #10193, #11285 (index 46); abhigyanpatwari/GitNexus#43; anomalyco/opencode#9397; DeepSeek docs, thinking mode (tool calls; enabled by default)',
    note: 'That an empty string is taken is inferred from a client fix that sends one when no reasoning is known (continuedev/continue#11290). When neither the request nor the model says thinking is on (an older `deepseek-chat`, no model named), D4 is not checked. The index counts the messages as sent; for a format whose system prompt sits beside the list (Anthropic), it is not counted (as for the other Chat rules).',
  },
  {
    code: 'D5',
    rules: ['reasoning_missing'],
    providers: ['deepseek'],
    severity: 'error',
    confidence: 'V',
    condition:
      'As D4, for the V4 models (`deepseek-v4-…`, `deepseek-flash`, `deepseek-pro`): DeepSeek words the same refusal without an index since V4.',
    text: () => 'The `reasoning_content` in the thinking mode must be passed back to the API.',
    path: '',
    index: 'No index; `param` null.',
    source:
      'JohnnyZ93/oai-compatible-copilot#215 (full body, deepseek-v4-pro/flash, 2026-04); syt2/paper-chat-for-zotero#16; ultraworkers/claw-code#3005; anywhere-labs/dsh-desktop#635 (2026-08)',
    note: 'Wording by model generation: the V3.2 models answer D4’s text. Which text the legacy aliases (`deepseek-chat`, `deepseek-reasoner`) get since V4 is not captured; they keep D4’s.',
    asOf: '2026-08',
  },
  {
    code: 'Q1',
    rules: ['orphan_tool_result'],
    providers: ['qwen'],
    severity: 'error',
    confidence: 'V',
    condition: 'As O1.',
    text: () =>
      '<400> InternalError.Algo.InvalidParameter: messages with role "tool" must be a response to a preceeding message with "tool_calls".',
    path: '',
    index: 'No index.',
    source: 'philschmid/mcp-openai-gemini-llama-example#5',
  },
  {
    code: 'Q2',
    rules: ['unanswered_tool_use', 'partial_answer', 'trailing_tool_use', 'tool_result_wrong_id'],
    providers: ['qwen'],
    severity: 'error',
    confidence: 'V',
    condition: 'As O2; the "id list" is `message[N].role`.',
    text: (p) =>
      `<400> InternalError.Algo.InvalidParameter: An assistant message with "tool_calls" must be followed by tool messages responding to each "tool_call_id". The following tool_call_ids did not have response messages: message[${p.n ?? 'N'}].role`,
    path: '',
    index:
      'N = the message that broke the run, or the assistant message when the array ends (inferred).',
    source: 'QwenLM/qwen-code#315',
  },
  {
    code: 'M1',
    rules: ['trailing_assistant'],
    providers: ['mistral'],
    severity: 'error',
    confidence: 'V',
    condition:
      'The last message of a request of two or more is an assistant message without `prefix: true`. The text names user and tool, but mistral-common refuses only that case: a trailing system message passes (since its July 2024 version).',
    text: (p) =>
      `Expected last role User or Tool (or Assistant with prefix or continue_final_message set to True) for serving but got ${p.found ?? '<role>'}`,
    path: '',
    index: 'No index.',
    source:
      'mistralai/mistral-common protocol/instruct/validator.py (https://github.com/mistralai/mistral-common/blob/bc022b91aa1c3b1fb771ac70931ae0009dbf9bad/src/mistral_common/protocol/instruct/validator.py#L333-L355); rig PR 0xPlaygrounds/rig#1130 (earlier wording, `got assistant`)',
  },
  {
    code: 'M2',
    rules: ['role_order', 'orphan_tool_result'],
    providers: ['mistral'],
    severity: 'error',
    confidence: 'V',
    condition:
      'A role that may not follow the previous one (after tool only assistant or tool; a tool message only after assistant or tool). A system prompt kept beside the list (Anthropic `system`, Gemini `systemInstruction`, Bedrock `system`) is sent as the first message, so a tool message that opens the list follows a system message; a tool message out of place is named as an orphan.',
    text: (p) => `Unexpected role '${p.found ?? '<role>'}' after role '${p.prev ?? '<role>'}'`,
    path: '',
    index: 'No index.',
    source: 'BerriAI/litellm#17761; avante-corp/avante.nvim#2562; charmbracelet/crush#279',
    note: 'mistral-common allows user after tool since 1.11.1 (April 2026, mistralai/mistral-common#218, answering #169); a report after it still meets the 400 (NousResearch/hermes-agent#20154, May 2026, through NVIDIA NIM, not Mistral\u2019s own API), and no capture shows Mistral\u2019s API accepting it, so tool \u2192 user is still reported.',
  },
  {
    code: 'M3',
    rules: ['count_mismatch', 'orphan_tool_result', 'first_message_role'],
    providers: ['mistral'],
    severity: 'error',
    confidence: 'V',
    condition:
      'The tool messages between an assistant `tool_calls` message and the next assistant message (or the end) are not as many as its calls. Named at the assistant message when they are fewer, else at the first tool message past its calls: with no assistant `tool_calls` message before it (a trim cut the call), an orphan. The count leaves out the first message of the request as sent (the system prompt, when one is sent before the list): a tool message there is not counted, and the calls of an assistant message there are not either, so the tool messages answering them are too many (reported as the first message\u2019s role).',
    text: () => 'Not the same number of function calls and responses',
    path: '',
    index: 'No index.',
    source:
      'mistral-common validator; captures quoted in several projects; the first message left out: https://github.com/mistralai/mistral-common/blob/bc022b91aa1c3b1fb771ac70931ae0009dbf9bad/src/mistral_common/protocol/instruct/validator.py#L274-L304 (the skip, L283\u2013L285, is unchanged since the first commit dde00bc), described in mistralai/mistral-common#261 (closed unmerged)',
    note: 'The first-message exemption is read from mistral-common\u2019s source, whose texts the API returns; no capture of the API shows it. Models on tokenizer v11 and later are checked by ids instead (mistral-common\u2019s V13 validator, same first-message exemption) and answer an extra or uncounted tool message with `Unexpected tool call id <id> in tool results`, as devstral-2512 did in pydantic/pydantic-ai#3733; this catalogue keeps the count text.',
  },
  {
    code: 'M4',
    rules: ['malformed_tool_id'],
    providers: ['mistral'],
    severity: 'error',
    confidence: 'V',
    condition:
      'A tool call id (of an assistant `tool_calls` entry, or the `tool_call_id` a tool message names) that is not exactly nine letters and digits: OpenAI\u2019s `call_\u2026` ids, a framework\u2019s own ids. Met after the role-order and count checks (M1\u2013M3, M5). The 400 names the id, not a message, so an id a call and its tool message share is one violation, named at the call (at the tool message when no call carries it). LangChain\u2019s Mistral client rewrites ids to fit before it sends them, so transcripts in the LangChain format are not judged by it.',
    text: (p) =>
      `Tool call id was ${p.id ?? '<id>'} but must be a-z, A-Z, 0-9, with a length of 9.`,
    path: '',
    index: 'No index; the text names the first refused id.',
    source:
      'nearai/ironclaw#1241 (400, code 3280); editor-code-assistant/eca#233; karthink/gptel#1203; jackmpcollins/magentic#276; langchain-ai/langchain#24668 (LangChain\u2019s rewrite)',
  },
  {
    code: 'M5',
    rules: ['first_message_role'],
    providers: ['mistral'],
    severity: 'error',
    confidence: '?',
    condition:
      'A request of a single message (no system prompt sent before it) that is neither user nor system: a lone tool message or assistant message, `prefix` or not. With two or more messages any role may open the request; a lone message is not checked for M1.',
    text: () => 'Conversation must start with a user message or system message',
    path: '',
    index: 'No index.',
    source:
      'https://github.com/mistralai/mistral-common/blob/bc022b91aa1c3b1fb771ac70931ae0009dbf9bad/src/mistral_common/protocol/instruct/validator.py#L364-L374',
    note: 'Read from mistral-common\u2019s source; no capture of the API\u2019s answer.',
  },
  {
    code: 'AZ1',
    rules: ['orphan_tool_result'],
    providers: ['azure-openai'],
    severity: 'error',
    confidence: 'V',
    condition: 'As O1, on Azure OpenAI (Chat Completions on `*.openai.azure.com`).',
    text: () =>
      "Invalid parameter: messages with role 'tool' must be a response to a preceding message with 'tool_calls'.",
    path: 'messages.[N].role',
    index: 'N = the orphan tool message.',
    source:
      'Hk-Gosuto/ChatGPT-Next-Web-LangChain#193; langchain-ai/task_mAIstro#1 (Azure GPT-4o, `[5]`)',
    note: 'Azure spells "preceding" where OpenAI spells "preceeding"; some Azure captures show OpenAI’s spelling too (Nikunj2003/LLaMa-MCP-Streamlit#1, lobehub/lobehub#3613), so the spelling may depend on the deployment’s version.',
    asOf: '2026-12',
  },
  {
    code: 'K1',
    rules: ['reasoning_missing'],
    providers: ['kimi'],
    severity: 'error',
    confidence: 'V',
    condition:
      'Kimi (Moonshot) in thinking mode (`thinking: {type: "enabled"}`; without it, a thinking model: `kimi-k2-thinking…`, `kimi-k2.5`, `kimi-k2.6`): an assistant message with `tool_calls` sent back without `reasoning_content`.',
    text: (p) =>
      `thinking is enabled but reasoning_content is missing in assistant tool call message at index ${p.n ?? 'N'}`,
    path: '',
    index: 'N = the assistant message as sent (0-based, system messages count).',
    source:
      'cloudwego/eino-ext#700 (index 2: system, user, assistant); mastra-ai/mastra#12592 (kimi-k2.5); VicBilibily/GCMP#162 (full body, Kimi K2.6, 2026-05); agentscope-ai/QwenPaw#433',
    note: 'Which thinking models default to thinking is inferred from the reports (K2.5 and K2.6 without a `thinking` field). The body is the captured `{"error":{"type":"invalid_request_error","message":…},"type":"error"}`.',
    asOf: '2026-05',
  },
];
