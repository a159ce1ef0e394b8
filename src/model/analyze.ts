/**
 * The whole pipeline for one transcript and provider: pairing, exchanges, validation.
 * Tokens are separate (they depend on a tokenizer that loads lazily).
 */
import { groupExchanges, type Grouping } from './exchanges.ts';
import { pairToolCalls, type ToolPair } from './pairing.ts';
import type { ProviderId, Transcript } from './types.ts';
import {
  defaultProviderOf,
  validateTranscript,
  type ValidateOptions,
  type Validation,
} from './validate/index.ts';

export interface Analysis {
  transcript: Transcript;
  provider: ProviderId;
  pairs: ToolPair[];
  grouping: Grouping;
  validation: Validation;
}

/**
 * Analyse a parsed transcript for a provider (default: the format's own provider).
 * @returns pairs (one per call/orphan), exchanges, and the provider's validation. O(n).
 */
export function analyze(t: Transcript, provider?: ProviderId, opts?: ValidateOptions): Analysis {
  const p = provider ?? defaultProviderOf(t);
  const pairs = pairToolCalls(t.messages);
  // Pairing has checked every tool_use id already; the validator need not check them again.
  const unique = opts?.messages === undefined && !pairs.some((x) => x.status === 'duplicate_id');
  return {
    transcript: t,
    provider: p,
    pairs,
    grouping: groupExchanges(t.messages),
    validation: validateTranscript(t, p, unique ? { ...opts, uniqueToolUseIds: true } : opts),
  };
}
