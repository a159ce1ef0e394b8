/**
 * The provider → tokenizer → context-window table, as data the endpoints carry (`Endpoint.tokenizer`,
 * `Endpoint.windows`): the tokenizer family decides how `countTokens` counts (exact BPE or a
 * labelled estimate), the windows are what the simulator's "compact at N % of the window" offers
 * for the chosen endpoint. Each window names the provider's page it is read from and when. A
 * window whose `match` fits the request's model is also a rule: an input longer than it is a 400
 * (O14, A21, G12; validate/contextWindow.ts), judged only when the count is certain. The user can
 * always type another budget.
 */

/**
 * The model families whose tokenizers the counts follow: `openai`, exact o200k/cl100k BPE;
 * `claude`, an o200k count times a content factor; `gemini`, an o200k count × 1.08; `other`, an
 * o200k count labelled as an estimate (DeepSeek, Kimi, Mistral, Qwen: their own tokenizers are
 * not bundled, so a BPE count of OpenAI's is not exact for them).
 */
export type TokenizerFamily = 'openai' | 'claude' | 'gemini' | 'other';

/** One context window the simulator offers for an endpoint. */
export interface ContextWindow {
  /** Unique within an endpoint's list (the picker's value). */
  id: string;
  /** For people: the model and the size, `Claude (200K)`. */
  label: string;
  /** Window size in tokens (input + output, as the provider states it). */
  tokens: number;
  /**
   * Matches `settings.model` of a transcript, to preselect this row and to judge the request's
   * input against it (a window without one is offered, never judged).
   */
  match?: RegExp;
  /** The provider's page that states the size. */
  source: string;
  /** When the page was read (YYYY-MM). */
  asOf: string;
}

const ANTHROPIC_DOCS = 'https://docs.claude.com/en/docs/about-claude/models/overview';
const ANTHROPIC_1M = 'https://docs.claude.com/en/docs/build-with-claude/context-windows';

/** Claude's windows (Anthropic's models page: 200K; 1M for Sonnet 4 and 4.5 in beta). */
export const CLAUDE_WINDOWS: readonly ContextWindow[] = [
  {
    id: 'claude',
    label: 'Claude (200K)',
    tokens: 200_000,
    match: /claude/i,
    source: ANTHROPIC_DOCS,
    asOf: '2025-11',
  },
  {
    id: 'claude-1m',
    label: 'Claude Sonnet 4 / 4.5, 1M beta',
    tokens: 1_000_000,
    source: ANTHROPIC_1M,
    asOf: '2025-11',
  },
];

/** OpenAI's windows, each from its model page. */
export const OPENAI_WINDOWS: readonly ContextWindow[] = [
  {
    id: 'gpt-4o',
    label: 'GPT-4o (128K)',
    tokens: 128_000,
    match: /gpt-4o/i,
    source: 'https://platform.openai.com/docs/models/gpt-4o',
    asOf: '2025-11',
  },
  {
    id: 'gpt-4.1',
    label: 'GPT-4.1 (1M)',
    tokens: 1_047_576,
    match: /gpt-4\.1/i,
    source: 'https://platform.openai.com/docs/models/gpt-4.1',
    asOf: '2025-11',
  },
  {
    id: 'gpt-5',
    label: 'GPT-5 (400K)',
    tokens: 400_000,
    match: /gpt-5/i,
    source: 'https://platform.openai.com/docs/models/gpt-5',
    asOf: '2025-11',
  },
  {
    id: 'o-series',
    label: 'o3 / o4-mini (200K)',
    tokens: 200_000,
    match: /^o[34]/i,
    source: 'https://platform.openai.com/docs/models/o3',
    asOf: '2025-11',
  },
];

/** Azure OpenAI serves OpenAI's models with the same windows, as its models page lists them. */
export const AZURE_OPENAI_WINDOWS: readonly ContextWindow[] = OPENAI_WINDOWS.map((w) => ({
  ...w,
  source: 'https://learn.microsoft.com/en-us/azure/ai-foundry/openai/concepts/models',
}));

/** Gemini API's windows. */
export const GEMINI_WINDOWS: readonly ContextWindow[] = [
  {
    id: 'gemini',
    label: 'Gemini 2.5 (1M)',
    tokens: 1_048_576,
    match: /gemini/i,
    source: 'https://ai.google.dev/gemini-api/docs/models',
    asOf: '2025-11',
  },
];

/** Gemini on Vertex AI: the same models, as Vertex's model pages list them. */
export const VERTEX_GEMINI_WINDOWS: readonly ContextWindow[] = GEMINI_WINDOWS.map((w) => ({
  ...w,
  source: 'https://cloud.google.com/vertex-ai/generative-ai/docs/models/gemini/2-5-pro',
}));

/** Claude on Bedrock (invoke), as AWS's model list gives it. */
export const BEDROCK_CLAUDE_WINDOWS: readonly ContextWindow[] = [
  {
    id: 'claude',
    label: 'Claude (200K)',
    tokens: 200_000,
    match: /claude/i,
    source: 'https://docs.aws.amazon.com/bedrock/latest/userguide/model-parameters-claude.html',
    asOf: '2025-11',
  },
];

/** Claude on Vertex AI, as Vertex's Claude page gives it. */
export const VERTEX_CLAUDE_WINDOWS: readonly ContextWindow[] = [
  {
    id: 'claude',
    label: 'Claude (200K)',
    tokens: 200_000,
    match: /claude/i,
    source: 'https://cloud.google.com/vertex-ai/generative-ai/docs/partner-models/claude',
    asOf: '2025-11',
  },
];

/** Bedrock Converse: Claude and Amazon Nova, the models its logs here mostly name. */
export const BEDROCK_CONVERSE_WINDOWS: readonly ContextWindow[] = [
  ...BEDROCK_CLAUDE_WINDOWS,
  {
    id: 'nova-pro',
    label: 'Amazon Nova Pro (300K)',
    tokens: 300_000,
    match: /nova/i,
    source: 'https://docs.aws.amazon.com/nova/latest/userguide/what-is-nova.html',
    asOf: '2025-11',
  },
];

/** DeepSeek's chat and reasoner models (its pricing page lists the context length: 128K). */
export const DEEPSEEK_WINDOWS: readonly ContextWindow[] = [
  {
    id: 'deepseek',
    label: 'DeepSeek V3.x chat / reasoner (128K)',
    tokens: 128_000,
    match: /deepseek/i,
    source: 'https://api-docs.deepseek.com/quick_start/pricing',
    asOf: '2025-11',
  },
];

/** Moonshot's Kimi models (its pricing page lists each model's context). */
export const KIMI_WINDOWS: readonly ContextWindow[] = [
  {
    id: 'kimi-k2',
    label: 'Kimi K2 (256K)',
    tokens: 262_144,
    match: /kimi/i,
    source: 'https://platform.moonshot.ai/docs/pricing/chat',
    asOf: '2025-11',
  },
  {
    id: 'moonshot-128k',
    label: 'moonshot-v1-128k (128K)',
    tokens: 131_072,
    match: /moonshot-v1-128k/i,
    source: 'https://platform.moonshot.ai/docs/pricing/chat',
    asOf: '2025-11',
  },
];

const MISTRAL_DOCS = 'https://docs.mistral.ai/getting-started/models/models_overview/';

/** Mistral's API models (its models overview lists each one's context). */
export const MISTRAL_WINDOWS: readonly ContextWindow[] = [
  {
    id: 'mistral',
    label: 'Mistral Large / Medium (128K)',
    tokens: 128_000,
    match: /mistral/i,
    source: MISTRAL_DOCS,
    asOf: '2025-11',
  },
  {
    id: 'codestral',
    label: 'Codestral (256K)',
    tokens: 256_000,
    match: /codestral/i,
    source: MISTRAL_DOCS,
    asOf: '2025-11',
  },
];

const QWEN_DOCS = 'https://www.alibabacloud.com/help/en/model-studio/models';

/** Qwen on Alibaba Cloud Model Studio (its models page lists each one's context). */
export const QWEN_WINDOWS: readonly ContextWindow[] = [
  {
    id: 'qwen3-max',
    label: 'Qwen3 Max (256K)',
    tokens: 262_144,
    match: /qwen3?-max/i,
    source: QWEN_DOCS,
    asOf: '2025-11',
  },
  {
    id: 'qwen3-coder-plus',
    label: 'Qwen3 Coder Plus (1M)',
    tokens: 1_048_576,
    match: /qwen3-coder/i,
    source: QWEN_DOCS,
    asOf: '2025-11',
  },
  {
    id: 'qwen-plus',
    label: 'Qwen Plus (128K)',
    tokens: 131_072,
    match: /qwen/i,
    source: QWEN_DOCS,
    asOf: '2025-11',
  },
];

/**
 * The window to preselect among an endpoint's windows: the first whose `match` fits the model
 * name (the list's order puts the specific before the general), else the first of the list.
 * @param windows an endpoint's windows (never empty: the registry's test holds it)
 * @param model `settings.model`, if the transcript names one
 */
export function windowForModel(
  windows: readonly ContextWindow[],
  model: string | undefined,
): ContextWindow | undefined {
  const byModel = model ? windows.find((w) => w.match?.test(model) === true) : undefined;
  return byModel ?? windows[0];
}
