/**
 * Validator registry: one file per provider. Adding a provider is a new file and one line here.
 */
import type { FormatId, ProviderId, Transcript } from '../types.ts';
import { anthropicValidator } from './anthropic.ts';
import { openaiChatValidator } from './openaiChat.ts';
import { openaiResponsesValidator } from './openaiResponses.ts';
import { geminiValidator } from './gemini.ts';
import { bedrockValidator } from './bedrock.ts';
import { deepseekValidator } from './deepseek.ts';
import { mistralValidator } from './mistral.ts';
import { qwenValidator } from './qwen.ts';
import type { ProviderValidator, ValidateOptions, Validation } from './types.ts';

export type { ProviderValidator, ValidateOptions, Validation, Violation, RuleId } from './types.ts';

export const VALIDATORS: ProviderValidator[] = [
  anthropicValidator,
  openaiChatValidator,
  openaiResponsesValidator,
  geminiValidator,
  bedrockValidator,
  deepseekValidator,
  mistralValidator,
  qwenValidator,
];

/** The validator of a provider id, or undefined for an id no validator registers. */
export function validatorFor(id: ProviderId): ProviderValidator | undefined {
  return VALIDATORS.find((v) => v.id === id);
}

/** The provider a format is sent to by default (framework formats: the most common target). */
export const DEFAULT_PROVIDER: Record<FormatId, ProviderId> = {
  'anthropic-messages': 'anthropic',
  'openai-chat': 'openai-chat',
  'openai-responses': 'openai-responses',
  gemini: 'gemini',
  'bedrock-converse': 'bedrock',
  'claude-code-jsonl': 'anthropic',
  'codex-jsonl': 'openai-responses',
  langchain: 'openai-chat',
  'vercel-ai': 'anthropic',
  'gemini-cli': 'gemini',
  'inspect-log': 'openai-chat',
  'swe-agent': 'openai-chat',
  'chatgpt-export': 'openai-chat',
  'claude-ai-export': 'anthropic',
  'gemini-interactions': 'gemini',
};

/**
 * Validate a transcript for a provider.
 * @param t the transcript
 * @param provider which provider's rules; defaults to the format's own provider
 * @param opts a message subset (for eviction) and per-model settings
 * @returns the validation; for an unknown provider id, a validation with a note and no violations
 */
export function validateTranscript(
  t: Transcript,
  provider?: ProviderId,
  opts?: ValidateOptions,
): Validation {
  const id = provider ?? DEFAULT_PROVIDER[t.format];
  const v = validatorFor(id);
  if (!v)
    return {
      provider: id,
      valid: true,
      violations: [],
      notes: [`No validator for provider ${id} yet.`],
    };
  return v.validate(t, opts);
}
