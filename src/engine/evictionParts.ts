/**
 * The token-independent part of an EvictionContext (model/evict/prepare.ts `EvictionParts`), as
 * it travels: for long transcripts the worker prepares it right after sending its answer (run.ts)
 * and posts it in a compact form (typed arrays transferred); the page adopts it for the
 * transcript it holds (state/eviction.ts) and only adds the token-dependent prefix sums
 * (`assembleEviction`) each time a token table arrives. Tested in evictionParts.test.ts, with a
 * structured-clone round trip of `packEvictionParts`.
 */
import { groupExchanges, type Grouping } from '../model/exchanges.ts';
import { windowTranscript } from '../model/evict/cutTables.ts';
import type { EvictionParts } from '../model/evict/prepare.ts';
import type { CutContext } from '../model/evict/simulate.ts';
import type { Transcript } from '../model/types.ts';

/** Transcripts (messages) from which the worker prepares the eviction parts for the page. */
export const WORKER_EVICTION_MIN = 2000;

type FastTables = NonNullable<CutContext['fx']>;
/** The cut context's fast tables without their transcript copy and WeakMap cache. */
type PackedFast = Omit<FastTables, 'cache'> & {
  cache: Omit<FastTables['cache'], 'winT' | 'headOnly'>;
};

/** Eviction parts as posted: the cut context without the transcript and its window cache's copy. */
export interface PackedEvictionParts {
  cuts: Omit<CutContext, 't' | 'fx'> & { fx: PackedFast | null };
  /** Absent when packed `withoutGrouping`: the page passes the grouping it has. */
  grouping?: Grouping;
  exchangeStarts: Int32Array;
  nonPinned: Int32Array;
  turnAssistants: Int32Array;
}

/**
 * Strip the transcript references (the cut context's `t`, the fast tables' window transcript and
 * head cache) so the parts can be posted; list the typed arrays to transfer. The parts must not
 * be used after posting with the transfer list (their buffers move to the page).
 * @param withoutGrouping leave the exchange grouping out (the page has the analysis' grouping,
 *   `groupExchanges` of the same messages: posting it again costs a long deserialisation)
 */
export function packEvictionParts(
  parts: EvictionParts,
  withoutGrouping = false,
): {
  packed: PackedEvictionParts;
  transfer: ArrayBuffer[];
} {
  const c = parts.cuts;
  const fx = c.fx;
  // Field by field (the types make a new field a compile error here): no transcript references.
  const packedFx: PackedFast | null = fx && {
    ...fx,
    cache: {
      noHead: fx.cache.noHead,
      start: fx.cache.start,
      emptyBefore: fx.cache.emptyBefore,
      cutNoHead: fx.cache.cutNoHead,
    },
  };
  const cuts: Omit<CutContext, 't' | 'fx'> = {
    provider: c.provider,
    opts: c.opts,
    n: c.n,
    pinned: c.pinned,
    nextNonPinned: c.nextNonPinned,
    full: c.full,
    fast: c.fast,
  };
  const packed: PackedEvictionParts = {
    cuts: { ...cuts, fx: packedFx },
    ...(withoutGrouping ? {} : { grouping: parts.grouping }),
    exchangeStarts: parts.exchangeStarts,
    nonPinned: parts.nonPinned,
    turnAssistants: parts.turnAssistants,
  };
  const buffers = new Set<ArrayBuffer>();
  const add = (a: unknown) => {
    if (ArrayBuffer.isView(a) && a.buffer instanceof ArrayBuffer) buffers.add(a.buffer);
  };
  for (const v of Object.values(packed.cuts)) add(v);
  if (packedFx) {
    for (const v of Object.values(packedFx)) add(v);
    for (const v of Object.values(packedFx.cache)) add(v);
  }
  if (packed.grouping) add(packed.grouping.exchangeOf);
  add(packed.exchangeStarts);
  add(packed.nonPinned);
  add(packed.turnAssistants);
  return { packed, transfer: [...buffers] };
}

/**
 * The parts for the page's copy of the transcript: puts `t` back into the cut context and
 * rebuilds the fast tables' window transcript (the transcript with `thinking` unknown, as
 * simulate.ts builds it) and head cache.
 * @param packed as posted by the worker for a transcript equal to `t`
 * @param t the page's transcript (same messages, same order)
 * @param grouping the page's `groupExchanges(t.messages)` (the analysis' grouping), used when the
 *   parts were packed without theirs; computed here when neither is there
 */
export function unpackEvictionParts(
  packed: PackedEvictionParts,
  t: Transcript,
  grouping?: Grouping,
): EvictionParts {
  const { fx, ...cuts } = packed.cuts;
  let full: CutContext['fx'] = null;
  if (fx) {
    full = {
      ...fx,
      cache: { ...fx.cache, winT: windowTranscript(t), headOnly: new WeakMap() },
    };
  }
  return {
    cuts: { ...cuts, t, fx: full },
    grouping: packed.grouping ?? grouping ?? groupExchanges(t.messages),
    exchangeStarts: packed.exchangeStarts,
    nonPinned: packed.nonPinned,
    turnAssistants: packed.turnAssistants,
  };
}
