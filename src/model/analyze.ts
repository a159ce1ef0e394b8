/**
 * The whole pipeline for one transcript and provider: pairing, exchanges, validation.
 * Tokens are separate (they depend on a tokenizer that loads lazily).
 */
import { countExchanges, groupExchanges, type Grouping } from './exchanges.ts';
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

/** What a verdict reports of an analysis: `analyze`'s validation and counts, without the pairs. */
export interface Verdict {
  transcript: Transcript;
  provider: ProviderId;
  /** Tool calls: one per tool_use block (`analyze`'s pairs with a call, duplicate results aside). */
  toolCalls: number;
  /** `groupExchanges(t.messages).exchanges.length` (`countExchanges`). */
  exchanges: number;
  validation: Validation;
}

/**
 * The verdict of `analyze(t, provider, opts)` (validation, counts of tool calls and exchanges)
 * without building one `ToolPair` per call: the CLI's `check` prints nothing of the pairs but
 * their count, and pairing 50k calls of a 100 MB body cost about a tenth of its time (issue 38).
 * The validator then checks tool_use ids for duplicates itself (the same rule, same words).
 * O(n) in blocks.
 */
export function verdictOf(t: Transcript, provider?: ProviderId, opts?: ValidateOptions): Verdict {
  const p = provider ?? defaultProviderOf(t);
  let toolCalls = 0;
  const { messages } = t;
  for (let i = 0; i < messages.length; i++) {
    const blocks = (messages[i] as Transcript['messages'][number]).blocks;
    for (let k = 0; k < blocks.length; k++) if (blocks[k]?.type === 'tool_use') toolCalls++;
  }
  return {
    transcript: t,
    provider: p,
    toolCalls,
    exchanges: countExchanges(messages),
    validation: validateTranscript(t, p, opts),
  };
}
