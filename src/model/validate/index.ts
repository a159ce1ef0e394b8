/**
 * The validators, derived from the endpoint registry (`endpoints/`: one file per endpoint, an
 * API's rules plus the endpoint's dialect). Adding an endpoint is a file there and one line in
 * its registry.
 */
import type { FormatId, Message, ProviderId, Transcript } from '../types.ts';
import { PARSERS } from '../parse/registry.ts';
import { ruleSpec } from './catalogue/index.ts';
import { textSizeChain } from '../tokenBounds.ts';
import { withWindow } from './contextWindow.ts';
import { APIS, ENDPOINT_LIST, ENDPOINTS } from './endpoints/index.ts';
import { endpointOfBody } from './endpoints/recognise.ts';
import type {
  ChainValidate,
  ProviderValidator,
  ValidateOptions,
  Validation,
  Violation,
} from './types.ts';

export { isSchemaError, positionOrder, schemaFirst } from './rules/common.ts';

export type {
  ChainValidate,
  CutModel,
  ProviderValidator,
  ValidateOptions,
  Validation,
  Violation,
  RuleId,
} from './types.ts';
export type { InputCount } from './contextWindow.ts';

export {
  API_IDS,
  APIS,
  ENDPOINT_ALIASES,
  ENDPOINT_GROUPS,
  ENDPOINT_IDS,
  ENDPOINT_LIST,
  ENDPOINTS,
  apiOf,
  resolveEndpoint,
} from './endpoints/index.ts';
export type { ApiId, Endpoint, EndpointId } from './endpoints/index.ts';

/** One validator per endpoint, in the registry's order. */
export const VALIDATORS: readonly ProviderValidator[] = ENDPOINT_LIST.map((e) => {
  if (!e.validator) throw new Error(`Endpoint ${e.id} has no validator.`);
  return e.validator;
});

const BY_ID = new Map(VALIDATORS.map((v) => [v.id, v]));

/** The validator of a provider id, or undefined for an id no validator registers. */
export function validatorFor(id: ProviderId): ProviderValidator | undefined {
  return BY_ID.get(id);
}

/** The provider a format is sent to by default: each parser's `provider` (parse/registry.ts). */
export const DEFAULT_PROVIDER = Object.fromEntries(
  PARSERS.map((p) => [p.id, p.provider]),
) as Record<FormatId, ProviderId>;

/**
 * The endpoint a transcript is judged for when the user chose none: the one its input names (a
 * URL, a host: `Transcript.endpoint`), else the one its body names (Bedrock's or Vertex's
 * `anthropic_version` or model id), else a Chat Completions provider its model names, else the
 * format's own.
 */
export function defaultProviderOf(
  t: Pick<Transcript, 'format' | 'settings'> & Partial<Pick<Transcript, 'raw' | 'endpoint'>>,
): ProviderId {
  if (t.endpoint !== undefined) return t.endpoint;
  const p = DEFAULT_PROVIDER[t.format];
  // The transcript itself, not a copy: its `raw` is read only for a format that names its
  // endpoint at the top level (a streamed log's `raw` is parsed again when read).
  const byBody = endpointOfBody(t);
  if (byBody !== undefined) return byBody;
  const model = t.settings.model;
  if (p !== 'openai-chat' || model === undefined) return p;
  return VALIDATORS.find((v) => v.models?.test(model) === true)?.id ?? p;
}

/**
 * Whether a provider takes a transcript's requests as they are: it speaks the API of the provider
 * the transcript is sent to by default (`defaultProviderOf`). Mistral fits an OpenAI Chat body,
 * not an Anthropic Messages one. A provider chosen for one transcript is kept for the next only
 * when it fits it (ui/useCarriedProvider.ts).
 */
export function providerFits(
  provider: ProviderId,
  t: Pick<Transcript, 'format' | 'settings'> & Partial<Pick<Transcript, 'raw' | 'endpoint'>>,
): boolean {
  return ENDPOINTS[provider].api === ENDPOINTS[defaultProviderOf(t)].api;
}

/**
 * Notes for the violations an endpoint reports with its API's rule and wording because its own
 * answer is not captured (`Endpoint.evidenced` 'own' and the code not listed for it).
 */
function borrowedNotes(id: ProviderId, violations: readonly Violation[]): string[] {
  const e = ENDPOINTS[id];
  if (e.evidenced === 'all') return [];
  const codes: string[] = [];
  for (const v of violations)
    if (
      v.severity === 'error' &&
      !codes.includes(v.code) &&
      !ruleSpec(v.code).providers.includes(id)
    )
      codes.push(v.code);
  return codes.map(
    (c) =>
      `${c} is the ${APIS[e.api].label} API's rule and wording: ${e.label}'s own answer to it is not captured.`,
  );
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
  return validateWith(t, provider ?? defaultProviderOf(t), opts);
}

/** `validateTranscript` for a provider id, with the window's text sized by `size` if given. */
function validateWith(
  t: Transcript,
  id: ProviderId,
  opts: ValidateOptions | undefined,
  size?: Parameters<typeof withWindow>[4],
): Validation {
  const v = validatorFor(id);
  if (!v) return noValidator(id);
  const source = opts?.messages ?? t.messages;
  const sent = sentMessages(t, source, id);
  const checked = v.validate(t, sent === source ? opts : { ...opts, messages: sent });
  return withNotes(t, id, source, checked, opts, size);
}

function noValidator(id: ProviderId): Validation {
  return {
    provider: id,
    valid: true,
    violations: [],
    notes: [`No validator for provider ${id} yet.`],
  };
}

/**
 * A provider's validation with what `validateTranscript` adds: the context window of a whole
 * request (not of a subset: the simulator judges its kept requests by the budget), notes for
 * borrowed rules and refusals.
 */
function withNotes(
  t: Transcript,
  id: ProviderId,
  source: readonly Message[],
  checked: Validation,
  opts: ValidateOptions | undefined,
  size?: Parameters<typeof withWindow>[4],
): Validation {
  const whole =
    opts?.messages === undefined
      ? withWindow(checked, t, source, opts?.inputTokens, size)
      : checked;
  const borrowed = borrowedNotes(id, whole.violations);
  const validation =
    borrowed.length > 0 ? { ...whole, notes: [...whole.notes, ...borrowed] } : whole;
  const refused = REFUSALS.get(t.format)?.(source);
  return refused?.length ? { ...validation, notes: [...refused, ...validation.notes] } : validation;
}

/**
 * Whether `chainValidation` resumes for this provider and format (its validator has a `chain`
 * and the format's messages are judged as written): a request of a chain then costs what it
 * adds, else its whole length.
 */
export function resumesChain(provider: ProviderId, format: FormatId): boolean {
  return validatorFor(provider)?.chain !== undefined && !AS_SENT.has(format);
}

/** `validateTranscript` for the requests of one chain, in order (`chainValidation`). */
export type ChainValidator = (
  t: Transcript,
  provider?: ProviderId,
  opts?: ValidateOptions,
) => Validation;

/**
 * `validateTranscript` along a chain of requests (a session log's calls, each extending the one
 * before; a policy's rewritten requests, sharing their head: `ChainValidate` says what a chain
 * is). A provider whose validator resumes (`ProviderValidator.chain`: Anthropic and the
 * endpoints that speak its API) carries its state from one request to the next, so a request
 * costs the messages from the first one that differs from the last request's, and its last
 * turns; any other provider and a format whose messages are rewritten before they are sent
 * (`asSent`) are validated whole. Every answer equals `validateTranscript(t, provider, opts)`
 * (validators.chain.property.test.ts).
 * @returns a function to call once per request of the chain, in order
 */
export function chainValidation(): ChainValidator {
  let chainOf: ProviderId | undefined;
  let step: ChainValidate | undefined;
  // The window's text sizes carry along the chain too (a request costs what it adds).
  const size = textSizeChain();
  return (t, provider, opts) => {
    const id = provider ?? defaultProviderOf(t);
    const v = validatorFor(id);
    if (!v) return noValidator(id);
    if (v.chain === undefined || AS_SENT.has(t.format)) return validateWith(t, id, opts, size);
    if (step === undefined || chainOf !== id) {
      chainOf = id;
      step = v.chain();
    }
    return withNotes(t, id, opts?.messages ?? t.messages, step(t, opts), opts, size);
  };
}
