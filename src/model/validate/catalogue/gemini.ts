/** Google Gemini rules (G*): turn order and part counts, no ids, no index in the text. */
import type { RuleSpec } from './types.ts';

const HISTORIC =
  'Captured on older models or Vertex; current enforcement unconfirmed, so a warning.';

export const GEMINI_RULES: readonly RuleSpec[] = [
  {
    code: 'G1',
    rules: ['orphan_tool_result'],
    providers: ['gemini'],
    severity: 'error',
    confidence: 'V',
    condition:
      'A turn with `functionResponse` parts not immediately after a `model` turn with `functionCall` parts.',
    text: () =>
      'Please ensure that function response turn comes immediately after a function call turn.',
    path: '',
    index: 'No index.',
    source: 'many projects quoting live 400s; the Vertex AI Node SDK\u2019s client-side check',
  },
  {
    code: 'G2',
    rules: ['role_order'],
    providers: ['gemini'],
    severity: 'error',
    confidence: 'V',
    condition:
      'A `model` turn with `functionCall` parts not after a user turn or a function-response turn.',
    text: () =>
      'Please ensure that function call turn comes immediately after a user turn or after a function response turn.',
    path: '',
    index: 'No index.',
    source: 'an ADK capture; earendil-works/pi#471',
  },
  {
    code: 'G3',
    rules: ['unanswered_tool_use', 'partial_answer', 'count_mismatch'],
    providers: ['gemini'],
    severity: 'error',
    confidence: 'V',
    condition:
      'The turn after a call turn holds a different number of `functionResponse` parts than the call turn has `functionCall` parts (zero included).',
    text: () =>
      'Please ensure that the number of function response parts is equal to the number of function call parts of the function call turn.',
    path: '',
    index: 'No index.',
    source: 'google-gemini/gemini-cli#4504, #2321, #15568; BerriAI/litellm#37463',
  },
  {
    code: 'G4',
    rules: ['thought_signature_missing'],
    providers: ['gemini'],
    severity: 'error',
    confidence: 'V',
    condition:
      'Gemini 3: the first `functionCall` part of a model step in the current turn replayed without its `thoughtSignature`.',
    text: (p) =>
      `Function call is missing a thought_signature in functionCall parts. This is required for tools to work correctly, and missing thought_signature may lead to degraded model performance. Additional data, function call \`default_api:${p.name ?? '<name>'}\` , position ${p.position ?? 'N'}. Please refer to https://ai.google.dev/gemini-api/docs/thought-signatures for more details.`,
    path: '',
    index: 'position = the 1-based content position (inferred).',
    source: 'manthanabc/paws#103; niki914/zafiro#100; csells/dartantic#86',
  },
  {
    code: 'G11',
    rules: ['system_role_in_list'],
    providers: ['gemini'],
    severity: 'error',
    confidence: 'V',
    condition:
      'A Gemini request body with a content of `role: "system"` in `contents` (roles are `user` and `model`; the system prompt goes in `systemInstruction`).',
    text: () => 'Please use a valid role: user, model.',
    path: '',
    index: 'No index.',
    source:
      'langgenius/dify-official-plugins#566 (full body, 2025-03); langbot-app/LangBot#1486 (2025-05); the-open-agent/openagent#1666 (2025-10); ai.google.dev/api/caching#Content (role: user or model)',
    asOf: '2025-10',
  },
  {
    code: 'G6',
    rules: ['same_role_neighbours'],
    providers: ['gemini'],
    severity: 'warning',
    confidence: 'V',
    condition: 'Two turns of the same role in a row.',
    text: () => 'Please ensure that multiturn requests alternate between user and model.',
    path: '',
    index: 'No index.',
    source: 'microsoft/autogen#2900 (Vertex, 2024)',
    note: HISTORIC,
  },
  {
    code: 'G7',
    rules: ['trailing_assistant', 'trailing_tool_use'],
    providers: ['gemini'],
    severity: 'warning',
    confidence: '?',
    condition: 'The history ends on a model turn.',
    text: () =>
      'Please ensure that multiturn requests ends with a user role or a function response.',
    path: '',
    index: 'No index.',
    source: 'songquanpeng/one-api#836 (Dec 2023)',
    note: HISTORIC,
  },
  {
    code: 'G8',
    rules: ['empty_request'],
    providers: ['gemini'],
    severity: 'error',
    confidence: 'V',
    condition: 'No contents at all (the system instruction goes beside them).',
    text: () => '* GenerateContentRequest.contents: contents is not specified\n',
    path: 'contents',
    index: 'No index.',
    source:
      'vercel/ai#3775 (an empty messages array); ikechan8370/chatgpt-plugin#733; langchain-ai/langchain-google#1393',
  },
  {
    code: 'G9',
    rules: ['empty_content'],
    providers: ['gemini'],
    severity: 'error',
    confidence: 'V',
    condition: 'A content whose `parts` are empty.',
    text: (p) =>
      `* GenerateContentRequest.contents[${p.n ?? 'N'}].parts: contents.parts must not be empty.\n`,
    path: 'contents[N].parts',
    index: 'N = the content as sent (0-based).',
    source: 'egoist/chatwise-releases#250; vercel/ai#3775; langchain-ai/langchain-google#691',
  },
  {
    code: 'G10',
    rules: ['tool_result_unnamed'],
    providers: ['gemini'],
    severity: 'error',
    confidence: 'V',
    condition:
      'A `functionResponse` part with an empty or missing `name`: as written in a Gemini body; from another format, a result with no name of its own whose id no call of the request has (converters name a result after its call).',
    text: (p) =>
      `* GenerateContentRequest.contents[${p.n ?? 'N'}].parts[${p.m ?? 'M'}].function_response.name: Name cannot be empty.\n`,
    path: 'contents[N].parts[M].function_response.name',
    index: 'N = the content as sent (0-based), M = the part in it.',
    source:
      'langflow-ai/langflow#9437; ollama/ollama#14214 (2026-02); brainlid/langchain#539 (2026-05)',
    asOf: '2026-05',
  },
  {
    code: 'GW1',
    rules: ['tool_result_wrong_id'],
    providers: ['gemini'],
    severity: 'warning',
    confidence: '?',
    condition: 'A `functionResponse` id that matches no `functionCall` id of the call turn.',
    text: null,
    path: '',
    index: 'The response part.',
    source: 'no capture',
    note: 'Gemini checks counts, not ids; the model may attribute the response to the wrong call.',
  },
  {
    code: 'GW2',
    rules: ['invalid_signature'],
    providers: ['gemini'],
    severity: 'warning',
    confidence: 'V',
    condition:
      'Interactions API: a `thought` step with an empty `signature` in the model turn of a `function_call` that the request continues.',
    text: null,
    path: '',
    index: 'The thought step.',
    source: 'googleapis/js-genai#1735',
    note: 'Captured as 400 INVALID_ARGUMENT in June 2026 (thought summaries on, the unsigned thought replayed before the call); Google could not reproduce it on 2026-06-30 and the reporter confirmed it works on 2026-07-04, so it is a warning: a deployment or proxy of that time may still refuse it.',
  },
  {
    code: 'VG4',
    rules: ['thought_signature_missing'],
    providers: ['vertex-gemini'],
    severity: 'error',
    confidence: 'V',
    condition: 'As G4, on Vertex AI (`aiplatform.googleapis.com`).',
    text: (p) =>
      `Unable to submit request because function call \`default_api:${p.name ?? '<name>'}\` in the ${p.position ?? 'N'}. content block is missing a \`thought_signature\`. Learn more: https://docs.cloud.google.com/vertex-ai/generative-ai/docs/thought-signatures`,
    path: '',
    index: 'N = the 1-based content position, as G4 (inferred: what N counts is not established).',
    source:
      'GewoonJaap/gemini-cli-openai#156 (full body, 2025-12); warpdotdev/warp#8099 (Vertex AI, `default_api:create_todo_list`, 2025-11); Wei-Shaw/claude-relay-service#967 (2026-02)',
    asOf: '2026-02',
  },
];
