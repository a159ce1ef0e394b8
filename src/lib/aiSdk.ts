/**
 * An AI SDK language-model middleware (`wrapLanguageModel`) that checks each call's prompt with
 * the rules of the provider the model belongs to, before the provider is called. Typed
 * structurally, so the library needs no AI SDK package at run time.
 */
import type { ProviderId } from '../model/types.ts';
import { checkParsed, type CheckResult } from './check.ts';
import { MalformedTranscriptError, type ViolationReport } from './fetch.ts';
import { knownProvider, tryRead } from './read.ts';

/** The part of an AI SDK language model the middleware reads. */
export interface LanguageModelLike {
  /** `anthropic.messages`, `openai.chat`, `openai.responses`, `google.generative-ai`, … */
  readonly provider: string;
  readonly modelId: string;
}

export interface CheckMiddlewareOptions {
  /** `throw`: reject before the provider is called; `warn`: report, then call it. */
  mode: 'throw' | 'warn';
  /** Whose rules, when the model's provider is not one the library maps (or to override it). */
  provider?: ProviderId;
  /** As for the checked fetch; default in warn mode: one `console.warn` line. */
  onViolation?: (report: ViolationReport) => void;
}

/** AI SDK provider names (`model.provider`) → whose rules. First match wins. */
const PROVIDER_NAMES: readonly { name: RegExp; provider: ProviderId }[] = [
  { name: /anthropic/, provider: 'anthropic' },
  { name: /^openai\.chat/, provider: 'openai-chat' },
  { name: /^openai/, provider: 'openai-responses' },
  { name: /^google|vertex/, provider: 'gemini' },
  { name: /bedrock/, provider: 'bedrock' },
  { name: /^deepseek/, provider: 'deepseek' },
  { name: /^mistral/, provider: 'mistral' },
  { name: /qwen|alibaba|dashscope/, provider: 'qwen' },
];

/** Whose rules an AI SDK model is sent under, from its provider name; undefined when unknown (unchecked). */
export function providerOfModel(model: LanguageModelLike): ProviderId | undefined {
  return PROVIDER_NAMES.find((p) => p.name.test(model.provider))?.provider;
}

/**
 * A language-model middleware that checks the prompt of every `generateText` / `streamText`
 * call (the AI SDK's own message list, read as the `vercel-ai` format) with the rules of the
 * model's provider. In throw mode the call rejects with `MalformedTranscriptError` before the
 * provider is called; the request is never changed. The provider's text and path are computed
 * on the prompt as that provider lays it out (for Anthropic: the system prompt outside
 * `messages`, a tool message merged into the user turn), while `messageIndex` counts the
 * prompt's own messages. The AI SDK itself refuses unanswered tool calls
 * (`MissingToolResultsError`) before any middleware runs. For the body exactly as the provider
 * package writes it, give that provider `createCheckedFetch` as its `fetch`.
 * @example
 * import { wrapLanguageModel, generateText } from 'ai';
 * import { anthropic } from '@ai-sdk/anthropic';
 * import { transcriptCheckMiddleware } from 'transcript-inspector';
 *
 * const model = wrapLanguageModel({
 *   model: anthropic('claude-sonnet-4-5'),
 *   middleware: transcriptCheckMiddleware({ mode: 'throw' }),
 * });
 * await generateText({ model, messages }); // rejects on an orphan tool result, nothing sent
 */
export function transcriptCheckMiddleware(opts: CheckMiddlewareOptions) {
  const override = knownProvider(opts.provider);
  const report =
    opts.onViolation ??
    (opts.mode === 'warn'
      ? (r: ViolationReport) =>
          console.warn(
            `transcript-inspector: ${r.result.provider} would reject this call: ${r.result.firstViolation?.message ?? ''} (sent anyway: warn mode)`,
          )
      : undefined);
  return {
    /**
     * The middleware interface it implements: v3 is what ai 6 requires and what ai 7 still
     * accepts (its `LanguageModelMiddleware` takes v3 and v4 middleware alike).
     */
    specificationVersion: 'v3' as const,
    transformParams: async <P extends { prompt: unknown }>(options: {
      params: P;
      model: LanguageModelLike;
    }): Promise<P> => {
      const { params, model } = options;
      const result = checkPrompt(params.prompt, model, override);
      if (result && !result.valid) {
        const where = `${model.provider}/${model.modelId}`;
        report?.({ url: where, result, mode: opts.mode });
        if (opts.mode === 'throw') throw new MalformedTranscriptError(where, result);
      }
      return params;
    },
  };
}

function checkPrompt(
  prompt: unknown,
  model: LanguageModelLike,
  override: ProviderId | undefined,
): CheckResult | null {
  const provider = override ?? providerOfModel(model);
  if (provider === undefined || !Array.isArray(prompt)) return null;
  const parsed = tryRead(prompt, { format: 'vercel-ai' });
  if (!parsed.ok) return null;
  return checkParsed(parsed.value, { provider, model: model.modelId });
}
