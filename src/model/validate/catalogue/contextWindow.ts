/**
 * Over the context window: a request whose input tokens exceed its model's window is refused
 * with a 400, whatever its structure (checks in ../contextWindow.ts). The window is the one of
 * `endpoints/windows.ts` whose `match` fits the request's model (an unknown model is not judged);
 * the count is exact for OpenAI models (o200k BPE) and an estimate for the others, judged only
 * beyond the estimate's margin (`ESTIMATE_MARGIN`, tokens.ts).
 */
import type { RuleSpec } from './types.ts';

const JUDGED =
  'Judged when the count is certain: an exact o200k count (OpenAI models), or an estimate more than its margin over the window (`ESTIMATE_MARGIN` in src/model/tokens.ts), or, before any count, a lower bound from the text alone (letters and digits ÷ 26, the most an o200k token holds). The count is of the messages and system prompt; tool definitions are not counted, so it is at most what the provider counts. A session log (Claude Code, Codex, …) is not judged: its whole view joins calls that no request sent together, and each call it records was counted by the provider and answered.';

export const CONTEXT_WINDOW_RULES: readonly RuleSpec[] = [
  {
    code: 'O14',
    rules: ['context_window_exceeded'],
    providers: ['openai-chat', 'azure-openai'],
    severity: 'error',
    confidence: 'V',
    condition:
      'The input (messages and system prompt) holds more tokens than the model’s context window (gpt-4o: 128,000).',
    text: (p) =>
      `This model's maximum context length is ${p.limit ?? '<window>'} tokens. However, your messages resulted in ${p.tokens ?? '<tokens>'} tokens. Please reduce the length of the messages.`,
    path: 'messages',
    index: 'The whole request (`param` "messages", `code` "context_length_exceeded").',
    source:
      'chathub-dev/chathub#126 (full body: type invalid_request_error, param messages, code context_length_exceeded); rahul2002m/ChatPDF#6 (same body); webtimemachine/wtm2#579 and jefferson-calmon/codocx#6 (128000, gpt-4o’s window); bytedance/deer-flow#310 (with tools: `(202767 in the messages, 101 in the functions). Please reduce the length of the messages or functions.`)',
    note: `${JUDGED} With tool definitions OpenAI’s text splits the count, \`(M in the messages, F in the functions)\`, and ends \`…of the messages or functions.\`; the page gives the form without tools, its N the messages’ count.`,
    asOf: '2025-06',
  },
  {
    code: 'A21',
    rules: ['context_window_exceeded'],
    providers: ['anthropic', 'anthropic-vertex', 'anthropic-bedrock'],
    severity: 'error',
    confidence: 'V',
    condition:
      'The input holds more tokens than the model’s context window (Claude: 200,000; the 1M window needs the long-context beta header and is not assumed).',
    text: (p) =>
      `prompt is too long: ${p.tokens ?? '<tokens>'} tokens > ${p.limit ?? '<window>'} maximum`,
    path: '',
    index: 'The whole request (no path).',
    source:
      'earendil-works/pi#102 (full body with request_id, claude-opus-4-5, 2025-12); boldsoftware/exe.dev#62 (full body, claude-opus-4-5, 2025-12); stackblitz/bolt.new#1748, #1306; daisuke-awaji/moca#254 (Bedrock: `The model returned the following errors: prompt is too long: 200049 tokens > 200000 maximum`, 2026-03)',
    note: `${JUDGED} The count is an estimate (Claude’s tokenizer is not bundled): the text’s N is the estimate. Captures of late 2024 also show \`> 199999 maximum\` (stackblitz/bolt.new#1036).`,
    asOf: '2026-03',
  },
  {
    code: 'G12',
    rules: ['context_window_exceeded'],
    providers: ['gemini', 'vertex-gemini'],
    severity: 'error',
    confidence: 'V',
    condition:
      'The input holds more tokens than the model’s context window (Gemini 2.5: 1,048,576).',
    text: (p) =>
      `The input token count (${p.tokens ?? '<tokens>'}) exceeds the maximum number of tokens allowed (${p.limit ?? '<window>'}).`,
    path: '',
    index: 'The whole request (no path).',
    source:
      'google-gemini/gemini-cli#4231 (full body, API key, code 400, status INVALID_ARGUMENT); #6678, #11248 (gemini-2.5-pro, 1048576); arkavo-org/arkavo-edge#371 (a variant without the count: `The input token count exceeds the maximum number of tokens allowed (1048576).`)',
    note: `${JUDGED} The count is an estimate (o200k × 1.08): the text’s N is the estimate. Some accounts get a smaller maximum (131072, 65536: google-gemini/gemini-cli#12098, #27197); the page judges against the model’s documented window only.`,
    asOf: '2025-10',
  },
  {
    code: 'CW1',
    rules: ['context_window_exceeded'],
    providers: [
      'openai-chat',
      'azure-openai',
      'openai-responses',
      'anthropic',
      'anthropic-vertex',
      'anthropic-bedrock',
      'bedrock',
      'gemini',
      'vertex-gemini',
      'deepseek',
      'deepseek-anthropic',
      'deepseek-responses',
      'kimi',
      'mistral',
      'qwen',
    ],
    severity: 'warning',
    confidence: 'I',
    condition:
      'The input may exceed the model’s context window: an estimated count within its margin of the window, a count that includes guessed image or document sizes, or (before a count) bounds from the text that lie on both sides of it. Also an input over the window on an endpoint whose answer to it is not captured (Responses, Bedrock Converse, DeepSeek, Kimi, Mistral, Qwen).',
    text: null,
    path: '',
    index: 'The whole request.',
    source:
      'the windows of src/model/validate/endpoints/windows.ts; the margins of src/model/tokens.ts (`ESTIMATE_MARGIN`)',
    note: 'Not a verdict: the exact count (the page’s worker, the CLI’s `check`) or the provider’s own count decides.',
  },
];
