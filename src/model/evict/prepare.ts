/**
 * Preparing the policies for one transcript (`prepareEviction`), in two stages. The
 * token-independent one (`prepareEvictionParts`: the cut context with its full validation and
 * fast-path tables, the exchange grouping, non-pinned and turn-pair indices) is the O(n) stage
 * that took 0.9–2.1 s on the page's thread at 100,000 messages, so for long transcripts the
 * worker runs it and posts it (engine/evictionParts.ts packs it). The token-dependent one
 * (`assembleEviction`: the non-pinned prefix sums and the pinned tokens) is O(n) over typed
 * arrays and runs again each time a token table arrives. `prepareEviction` is the two in a row:
 * the page, the worker, the CLI and the library all prepare through here.
 */
import { groupExchanges, isPinned, type Grouping } from '../exchanges.ts';
import type { TokenTable } from '../tokens.ts';
import type { Message, ProviderId, Transcript } from '../types.ts';
import type { ValidateOptions, Validation } from '../validate/index.ts';
import type { EvictionContext } from './policies.ts';
import { prepareCuts } from './simulate.ts';

/** An EvictionContext without its token table and what depends on it. */
export type EvictionParts = Omit<EvictionContext, 'table' | 'npPrefix' | 'pinnedTokens' | 'plans'>;

/**
 * What an analysis of the same transcript already holds (analyze.ts): reused instead of
 * computed again (issue 20: the full validation is most of this stage at 100,000 messages).
 */
export interface KnownParts {
  /** `validateTranscript(t, provider, opts)` of the same transcript, provider and options. */
  validation?: Validation;
  /** `groupExchanges(t.messages)`. */
  grouping?: Grouping;
}

/**
 * The token-independent stage of `prepareEviction`. O(n) plus one full validation (none when
 * `known` has it).
 * @param t the transcript
 * @param provider whose rules validate the cuts
 * @param opts validation options (e.g. `prefill`)
 * @param known results of an analysis of `t` for `provider` and `opts`, reused as they are
 */
export function prepareEvictionParts(
  t: Transcript,
  provider: ProviderId,
  opts: Omit<ValidateOptions, 'messages'> = {},
  known: KnownParts = {},
): EvictionParts {
  const n = t.messages.length;
  const np: number[] = [];
  // `turnPairs`' assistants (each non-pinned assistant message starts a pair), without its pairs.
  const assistants: number[] = [];
  for (let i = 0; i < n; i++) {
    const m = t.messages[i] as Message;
    if (isPinned(m)) continue;
    np.push(i);
    if (m.role === 'assistant') assistants.push(i);
  }
  const grouping = known.grouping ?? groupExchanges(t.messages);
  return {
    cuts: prepareCuts(t, provider, opts, known.validation),
    grouping,
    exchangeStarts: Int32Array.from(grouping.exchanges.map((x) => x.first)),
    nonPinned: Int32Array.from(np),
    turnAssistants: Int32Array.from(assistants),
  };
}

/**
 * The EvictionContext of `parts` for one token table: adds the non-pinned prefix sums (tokens)
 * and the pinned tokens, and an empty plan cache. O(n) over typed arrays (≈ 1 ms at 100,000
 * messages), so a new token table never re-validates.
 * @param parts from `prepareEvictionParts` (or the worker's, unpacked) for the same transcript
 * @param t that transcript
 * @param table its TokenTable
 */
export function assembleEviction(
  parts: EvictionParts,
  t: Transcript,
  table: TokenTable,
): EvictionContext {
  const n = t.messages.length;
  const npPrefix = new Float64Array(n + 1);
  let pinnedTokens = 0;
  // Pinned messages from the cut context's sorted index list (`isPinned`, as prepareCuts lists
  // them): typed arrays only, no message object read (≈ 3× faster at 100,000 messages).
  const pinned = parts.cuts.pinned;
  let p = 0;
  const per = table.perMessage;
  for (let i = 0; i < n; i++) {
    const tok = per[i] ?? 0;
    if (p < pinned.length && pinned[p] === i) {
      p++;
      pinnedTokens += tok;
      npPrefix[i + 1] = npPrefix[i] as number;
    } else npPrefix[i + 1] = (npPrefix[i] as number) + tok;
  }
  return { ...parts, table, npPrefix, pinnedTokens, plans: new Map() };
}

/**
 * Prepare the policies for one transcript: grouping, turn pairs, non-pinned prefix sums and the
 * full validation (O(n) once; memoise it per transcript, provider and tokenizer).
 * @param t the transcript
 * @param table its TokenTable (tokens per message, prefix sums, system prompt tokens)
 * @param provider whose rules validate the results
 * @param opts validation options (e.g. `prefill`)
 */
export function prepareEviction(
  t: Transcript,
  table: TokenTable,
  provider: ProviderId,
  opts: Omit<ValidateOptions, 'messages'> = {},
): EvictionContext {
  return assembleEviction(prepareEvictionParts(t, provider, opts), t, table);
}
