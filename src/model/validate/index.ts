/**
 * Validator registry: one file per provider. Adding a provider is a new file and one line here.
 */
import type { FormatId, Message, ProviderId, Transcript } from '../types.ts';
import { PARSERS } from '../parse/registry.ts';
import { anthropicValidator } from './anthropic.ts';
import { openaiChatValidator } from './openaiChat.ts';
import { openaiResponsesValidator } from './openaiResponses.ts';
import { geminiValidator } from './gemini.ts';
import { bedrockValidator } from './bedrock.ts';
import { deepseekValidator } from './deepseek.ts';
import { mistralValidator } from './mistral.ts';
import { qwenValidator } from './qwen.ts';
import type { ProviderValidator, ValidateOptions, Validation } from './types.ts';

export { isSchemaError, positionOrder, schemaFirst } from './common.ts';

export type {
  CutModel,
  ProviderValidator,
  ValidateOptions,
  Validation,
  Violation,
  RuleId,
} from './types.ts';

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

const BY_ID = new Map(VALIDATORS.map((v) => [v.id, v]));

/** The validator of a provider id, or undefined for an id no validator registers. */
export function validatorFor(id: ProviderId): ProviderValidator | undefined {
  return BY_ID.get(id);
}

/** The provider a format is sent to by default: each parser's `provider` (parse/registry.ts). */
export const DEFAULT_PROVIDER = Object.fromEntries(
  PARSERS.map((p) => [p.id, p.provider]),
) as Record<FormatId, ProviderId>;

export function defaultProviderOf(t: Pick<Transcript, 'format' | 'settings'>): ProviderId {
  const p = DEFAULT_PROVIDER[t.format];
  const model = t.settings.model;
  if (p !== 'openai-chat' || model === undefined) return p;
  return VALIDATORS.find((v) => v.models?.test(model) === true)?.id ?? p;
}

const AS_SENT = new Map(PARSERS.flatMap((p) => (p.asSent ? [[p.id, p.asSent] as const] : [])));
const REFUSALS = new Map(PARSERS.flatMap((p) => (p.refusals ? [[p.id, p.refusals] as const] : [])));

/**
 * The messages a request of this format really carries: a client library's input (the AI SDK's
 * messages) is judged as that client sends it (`FormatParser.asSent`).
 */
export function sentMessages(
  t: Transcript,
  messages: readonly Message[],
  provider: ProviderId,
): readonly Message[] {
  const f = AS_SENT.get(t.format);
  return f ? f(messages, BY_ID.get(provider)?.chatCompletions === true) : messages;
}

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
  const id = provider ?? defaultProviderOf(t);
  const v = validatorFor(id);
  if (!v)
    return {
      provider: id,
      valid: true,
      violations: [],
      notes: [`No validator for provider ${id} yet.`],
    };
  const source = opts?.messages ?? t.messages;
  const sent = sentMessages(t, source, id);
  const validation = v.validate(t, sent === source ? opts : { ...opts, messages: sent });
  const refused = REFUSALS.get(t.format)?.(source);
  return refused?.length ? { ...validation, notes: [...refused, ...validation.notes] } : validation;
}
