/**
 * Derived data, never stored (docs/architecture.md#state). Each stage is memoised by the
 * reference of its inputs: parse → analyze (in `workers/inspect.ts`) → rows / tokens / matches /
 * dimming / violation targets here. A parse failure is derived too: `nextView` keeps the last
 * good analysis visible next to the error, while the text stays in the store.
 */
import type { Analysis } from '../model/analyze.ts';
import { isPinned } from '../model/exchanges.ts';
import { messageLabels } from '../model/messageLabels.ts';
import type { ParsedTranscript } from '../model/parse/index.ts';
import type { ToolPair } from '../model/pairing.ts';
import {
  blockPairTable,
  indexPairs,
  isArcPair,
  laneTable,
  type BlockPairTable,
  type LaneTable,
  type PairIndex,
  type PairTables,
} from '../model/pairTables.ts';
import { countTokens, sumTokens, type TextCounter, type TokenTable } from '../model/tokens.ts';
import type {
  Block,
  BlockType,
  Message,
  ParseError,
  ProviderId,
  Role,
  Transcript,
} from '../model/types.ts';
import { validatorFor, type Violation } from '../model/validate/index.ts';
import { inspect } from '../workers/inspect.ts';
import type { InspectRequest, Inspection } from '../workers/protocol.ts';
import type { AppState } from './store.ts';

/**
 * Memoise a one-argument function per object (a WeakMap, not one slot): the tables of the
 * transcript being shown survive a render of another one (the simulator re-rendering the old
 * transcript mid-load evicted one-slot caches, issue 7), and are freed with their object.
 */
function memoWeak<A extends object, R>(fn: (a: A) => R): (a: A) => R {
  const cache = new WeakMap<A, R>();
  return (a) => {
    if (cache.has(a)) return cache.get(a) as R;
    const r = fn(a);
    cache.set(a, r);
    return r;
  };
}

/** Memoise a function on each argument's reference. */
function memoN<A extends unknown[], R>(fn: (...a: A) => R): (...a: A) => R {
  let last: { args: A; r: R } | null = null;
  return (...args) => {
    if (
      last &&
      last.args.length === args.length &&
      last.args.every((x, i) => Object.is(x, args[i]))
    )
      return last.r;
    const r = fn(...args);
    last = { args, r };
    return r;
  };
}

let lastReq: InspectRequest | null = null;
/** The inspect request for the store's inputs; the same object while those inputs do not change. */
export function selectRequest(
  s: Pick<AppState, 'source' | 'formatOverride' | 'provider'> &
    Partial<Pick<AppState, 'requestIndex'>>,
): InspectRequest {
  const r = lastReq;
  if (
    r &&
    r.text === s.source.text &&
    r.name === s.source.name &&
    r.format === s.formatOverride &&
    r.provider === s.provider &&
    r.file === s.source.file &&
    r.requestIndex === (s.requestIndex ?? undefined)
  )
    return r;
  lastReq = {
    text: s.source.text,
    name: s.source.name,
    format: s.formatOverride,
    provider: s.provider,
    ...(s.source.file ? { file: s.source.file } : {}),
    ...(s.requestIndex != null ? { requestIndex: s.requestIndex } : {}),
  };
  return lastReq;
}

/** Synchronous inspection of the store's inputs (the worker's fallback; also used by tests). */
export function selectInspection(
  s: Pick<AppState, 'source' | 'formatOverride' | 'provider'> &
    Partial<Pick<AppState, 'requestIndex'>>,
): Inspection {
  return inspect(selectRequest(s));
}

/** What the page shows: the latest good analysis, and the current parse error if any. */
export interface InspectorView {
  /** The request the view answers (compared by reference to drop stale worker answers). */
  request: InspectRequest | null;
  /** The last transcript that parsed; kept when newer text fails to parse. */
  analysis: Analysis | null;
  parsed: ParsedTranscript | null;
  /** The parse failure of the current text, or null. */
  error: ParseError | null;
}

export const EMPTY_VIEW: InspectorView = {
  request: null,
  analysis: null,
  parsed: null,
  error: null,
};

/**
 * Fold an inspection into the view: success replaces the transcript; failure keeps the previous
 * transcript and adds the error (nothing is cleared until new text parses).
 */
export function nextView(
  prev: InspectorView,
  request: InspectRequest,
  result: Inspection,
): InspectorView {
  if (result.ok) return { request, analysis: result.analysis, parsed: result.parsed, error: null };
  return { request, analysis: prev.analysis, parsed: prev.parsed, error: result.error };
}

/** One row of the timeline: an exchange band label, or a message. */
export type Row =
  | { kind: 'band'; exchange: number; key: string }
  | {
      kind: 'message';
      message: number;
      /** -1 for pinned system/developer messages. */ exchange: number;
      key: string;
    };

export interface RowModel {
  /** Number of rows. */
  count: number;
  /** Per row: its message (ours), or -1 for a band label. */
  rowMessage: Int32Array;
  /** Per row: its exchange (-1 for pinned system/developer messages). */
  rowExchange: Int32Array;
  /** Row index of each message (ours). */
  rowOfMessage: Int32Array;
  /** Row index of each exchange's band label. */
  rowOfExchange: Int32Array;
  /** Row `i` as an object (made on demand, for the rows drawn), or undefined outside the model. */
  row(i: number): Row | undefined;
  /**
   * A number naming row `i` for the virtualiser (stable per message/exchange, like `Row.key`):
   * the message index for a message row, -(exchange + 1) for a band.
   */
  rowKey(i: number): number;
}

/**
 * Timeline rows: a band label before each exchange's first message, then its messages. O(n)
 * typed arrays, once per analysis; row objects only for the rows asked for (issue 7: 100,000
 * row objects with string keys were a fifth of the first render).
 */
export const selectRows = memoWeak((a: Analysis): RowModel => {
  const { messages } = a.transcript;
  const { exchanges, exchangeOf } = a.grouping;
  const n = messages.length;
  const rowOfMessage = new Int32Array(n).fill(-1);
  const rowOfExchange = new Int32Array(exchanges.length).fill(-1);
  const rowMessage = new Int32Array(n + exchanges.length);
  const rowExchange = new Int32Array(n + exchanges.length);
  let count = 0;
  for (let i = 0; i < n; i++) {
    const x = exchangeOf[i] ?? -1;
    if (x >= 0 && exchanges[x]?.first === i) {
      rowOfExchange[x] = count;
      rowMessage[count] = -1;
      rowExchange[count++] = x;
    }
    rowOfMessage[i] = count;
    rowMessage[count] = i;
    rowExchange[count++] = x;
  }
  return {
    count,
    rowMessage: rowMessage.subarray(0, count),
    rowExchange: rowExchange.subarray(0, count),
    rowOfMessage,
    rowOfExchange,
    row(i) {
      if (!(i >= 0 && i < count)) return undefined;
      const m = rowMessage[i] as number;
      const x = rowExchange[i] as number;
      return m < 0
        ? { kind: 'band', exchange: x, key: `x${x}` }
        : { kind: 'message', message: m, exchange: x, key: `m${m}` };
    },
    rowKey(i) {
      const m = rowMessage[i] ?? -1;
      return m >= 0 ? m : -((rowExchange[i] ?? 0) + 1);
    },
  };
});

/** Token table for a transcript, provider and counter (recomputed when the BPE loads). */
const countTokensMemo = memoN(
  (t: Transcript, provider: ProviderId, counter: TextCounter): TokenTable =>
    countTokens(t, provider, counter),
);

/** Token tables the worker counted, per transcript it sent (issue 7: never counted on the page). */
const workerTables = new WeakMap<Transcript, Map<string, TokenTable>>();

/**
 * Record a token table the worker computed for a transcript it sent (by `primeTokens`); from
 * then on `selectTokens` answers from the worker's tables for that transcript: the table of
 * the counter's encoding when there is one, else the best one so far (the exact BPE count
 * arrives after the chars/4 one), so a large transcript is never counted on the page.
 */
export function primeTokens(t: Transcript, provider: ProviderId, table: TokenTable): void {
  let m = workerTables.get(t);
  if (!m) {
    m = new Map();
    workerTables.set(t, m);
  }
  m.set(`${provider}|${table.basis.encoding}`, table);
}

/** Token table for a transcript, provider and counter: the worker's when it sent one. */
export function selectTokens(
  t: Transcript,
  provider: ProviderId,
  counter: TextCounter,
): TokenTable {
  const m = workerTables.get(t);
  if (m) {
    const exact = m.get(`${provider}|${counter.encoding}`);
    if (exact) return exact;
    let best: TokenTable | undefined;
    for (const [k, v] of m)
      if (k.startsWith(`${provider}|`) && (!best || best.basis.encoding === 'chars/4')) best = v;
    if (best) return best;
  }
  return countTokensMemo(t, provider, counter);
}

/** Tokens per exchange, in tokens (same order as `grouping.exchanges`). */
export const selectExchangeTokens = memoN((a: Analysis, table: TokenTable): number[] =>
  a.grouping.exchanges.map((x) => sumTokens(table, x.messages)),
);

/** Searchable strings of a block: its text, tool name and ids (lower-cased by the caller). */
export function blockStrings(b: Block): string[] {
  switch (b.type) {
    case 'text':
      return [b.text];
    case 'thinking':
      return [b.thinking];
    case 'tool_use':
      return [
        b.name,
        b.id ?? '',
        typeof b.input === 'string' ? b.input : (JSON.stringify(b.input) ?? ''),
      ];
    case 'tool_result':
      return [b.toolUseId ?? '', b.name ?? '', ...b.content.flatMap(blockStrings)];
    case 'other':
      return [b.label];
    default:
      return [];
  }
}

export interface Matches {
  /** Messages (ours) with at least one match, in order. */
  messages: number[];
  /** `message:block` keys of matching blocks. */
  blocks: Set<string>;
}

const NO_MATCHES: Matches = { messages: [], blocks: new Set() };

/** Find: case-insensitive substring match over text, tool names and tool ids. O(total text). */
export const selectMatches = memoN((a: Analysis, query: string): Matches => {
  const q = query.trim().toLowerCase();
  if (q.length === 0) return NO_MATCHES;
  const out: Matches = { messages: [], blocks: new Set() };
  a.transcript.messages.forEach((m, mi) => {
    let hit = false;
    m.blocks.forEach((b, bi) => {
      if (blockStrings(b).some((s) => s.toLowerCase().includes(q))) {
        out.blocks.add(`${mi}:${bi}`);
        hit = true;
      }
    });
    if (hit) out.messages.push(mi);
  });
  return out;
});

/** True when a message passes the role and block-type filters (empty filter = everything). */
export function passesFilters(
  m: Message,
  roles: readonly Role[],
  types: readonly BlockType[],
): boolean {
  if (roles.length > 0 && !roles.includes(m.role)) return false;
  if (types.length > 0 && !m.blocks.some((b) => types.includes(b.type))) return false;
  return true;
}

const dimmedNone = memoWeak(
  (a: Analysis): Uint8Array => new Uint8Array(a.transcript.messages.length),
);
/** Per message: 1 when the filters dim it. Dimmed rows and their arcs stay in place. */
export const selectDimmed = memoN(
  (a: Analysis, roles: readonly Role[], types: readonly BlockType[]): Uint8Array => {
    // No filter dims nothing: one zeroed table per analysis, no walk over the messages.
    if (roles.length === 0 && types.length === 0) return dimmedNone(a);
    const out = new Uint8Array(a.transcript.messages.length);
    a.transcript.messages.forEach((m, i) => {
      out[i] = passesFilters(m, roles, types) ? 0 : 1;
    });
    return out;
  },
);

/** A violation with the message (ours) it points at. */
export interface ViolationTarget {
  violation: Violation;
  /** Message index (ours) holding the cause (`violation.index`), or -1 when it is not a row. */
  message: number;
  /** The cause's row label (`#3`, `#3.2`: `messageLabels`), or null when `message` is -1. */
  label: string | null;
  /** 'first' = the error this request gets; 'next' = what follows once it is fixed; 'warning'. */
  rank: 'first' | 'next' | 'warning';
}

/**
 * Violations with the message (ours) each points at — `Violation.index`, never a lookup by the raw
 * index, which repeats for retry copies and split source messages — and its row label, ranked:
 * the first error is the 400 the request gets, later errors come next once it is fixed, warnings
 * are accepted.
 */
export const selectViolationTargets = memoWeak((a: Analysis): ViolationTarget[] => {
  const ms = a.transcript.messages;
  const labels = messageLabels(ms);
  let seenError = false;
  return a.validation.violations.map((v) => {
    let rank: ViolationTarget['rank'] = 'warning';
    if (v.severity === 'error') {
      rank = seenError ? 'next' : 'first';
      seenError = true;
    }
    const message = v.index >= 0 && v.index < ms.length ? v.index : -1;
    return { violation: v, message, label: message >= 0 ? labels.of(message) : null, rank };
  });
});

/** Messages (ours) pointed at by a violation, in violation order, without repeats. */
export const selectViolationMessages = memoWeak((a: Analysis): number[] => {
  const seen = new Set<number>();
  for (const t of selectViolationTargets(a)) if (t.message >= 0) seen.add(t.message);
  return [...seen].sort((x, y) => x - y);
});

/** Pairs drawn as arcs: everything except server tools answered inside their own message. */
export const selectArcPairs = memoWeak((a: Analysis): ToolPair[] => a.pairs.filter(isArcPair));

/**
 * The pairs each block belongs to (a call can have several results: duplicates), as compact
 * tables built once per analysis: `blockStart` (per message, its first block's number; length
 * messages + 1), then per block number the range `[pairStart[b], pairStart[b + 1])` of `pairIdx`
 * (positions in `analysis.pairs`, in pair order). O(messages + blocks + pairs) typed arrays, no
 * string keys (issue 7: the `message:block` Map took 100–150 ms at 67,000 messages).
 */
export interface PairsOfBlock {
  /** The pairs holding block `block` of message `message` (ours), in pair order; undefined = none. */
  of(message: number, block: number): readonly ToolPair[] | undefined;
}

/** A `PairsOfBlock` over a block table of `pairs` (`blockPairTable`). */
export function pairsOfBlockFrom(t: BlockPairTable, pairs: readonly ToolPair[]): PairsOfBlock {
  const { blockStart, pairStart, pairIdx } = t;
  const n = blockStart.length - 1;
  return {
    of(message, block) {
      if (message < 0 || message >= n || block < 0) return undefined;
      const b = (blockStart[message] as number) + block;
      if (b >= (blockStart[message + 1] as number)) return undefined;
      const lo = pairStart[b] as number;
      const hi = pairStart[b + 1] as number;
      if (lo === hi) return undefined;
      const out: ToolPair[] = [];
      for (let k = lo; k < hi; k++) out.push(pairs[pairIdx[k] as number] as ToolPair);
      return out;
    },
  };
}

/** Tables the worker built for an analysis it sent (`adoptPairTables`). */
const workerPairTables = new WeakMap<Analysis, PairTables>();

/**
 * Record the pair tables the worker built for an analysis it sent (`pairTables` over its
 * transcript's messages and pairs); `selectPairsOfBlock` and `selectArcTables` then answer from
 * them instead of building them on the page (issue 7).
 */
export function adoptPairTables(a: Analysis, tables: PairTables): void {
  workerPairTables.set(a, tables);
}

/** The block table of an analysis (`blockPairTable`), once per analysis (the worker's when sent). */
const blockTableOf = memoWeak(
  (a: Analysis): BlockPairTable =>
    workerPairTables.get(a)?.blocks ?? blockPairTable(a.transcript.messages, a.pairs),
);

/** Per block, the pairs it belongs to (`PairsOfBlock`), once per analysis (the worker's table when sent). */
export const selectPairsOfBlock = memoWeak(
  (a: Analysis): PairsOfBlock => pairsOfBlockFrom(blockTableOf(a), a.pairs),
);

/** Arc lanes and the visible-range index, by position in `selectArcPairs(a)`. */
export interface ArcTables {
  lanes: LaneTable;
  index: PairIndex;
}

/** The arc tables of an analysis, once per analysis (the worker's when it sent them). */
export const selectArcTables = memoWeak((a: Analysis): ArcTables => {
  const w = workerPairTables.get(a);
  if (w) return { lanes: w.arcLanes, index: w.arcIndex };
  const arcs = selectArcPairs(a);
  return { lanes: laneTable(arcs), index: indexPairs(arcs) };
});

/**
 * Which pairs are drawn red and counted broken for the chosen provider: pairing's own status
 * (provider-neutral: anything but `answered`), and also a pair an error violation of the current
 * validation names — `violation.ids` holds the pair's id and `violation.index` (our message index)
 * is the call's or the result's message (e.g. Bedrock B2 on results split over two user messages,
 * Anthropic A3 on text before the tool_result, where pairing says `answered`). A violation without
 * ids marks no pair; warnings mark none. Positions are those of `analysis.pairs`.
 */
export interface BrokenPairs {
  /** Per pair position: 1 when the pair is broken (red), else 0. */
  broken: Uint8Array;
  /**
   * Per pair position: position in `analysis.validation.violations` of the first error violation
   * naming the pair (as above), or -1. Set for `answered` pairs too when a violation names them.
   */
  violationOf: Int32Array;
  /** Broken pairs among the arc pairs (`selectArcPairs`): the header's "broken" count. */
  arcCount: number;
  /** The provider's label (`AWS Bedrock Converse`), or its id when no validator registers it. */
  providerLabel: string;
  /** Position of a pair key (`p3`) in `analysis.pairs`, or -1. O(1). */
  positionOf(key: string): number;
  /** True when the pair with this key is broken. */
  isBroken(key: string): boolean;
  /** The first error violation naming the pair with this key, or undefined. */
  violation(key: string): Violation | undefined;
}

/**
 * The broken pairs of an analysis (`BrokenPairs`), once per analysis, no per-render work.
 * O(pairs) for pairing's statuses (a field compare each, no lookups) + O(blocks of the messages
 * error violations point at) through the per-block pair table (`selectPairsOfBlock`'s, the
 * worker's when it sent one; built only when an error violation carries ids).
 */
export const selectBrokenPairs = memoWeak((a: Analysis): BrokenPairs => {
  const { pairs } = a;
  const violations = a.validation.violations;
  const messages = a.transcript.messages;
  const n = pairs.length;
  const broken = new Uint8Array(n);
  const violationOf = new Int32Array(n).fill(-1);
  let arcCount = 0;
  // Pairing's own statuses: one cheap pass, no lookups.
  for (let i = 0; i < n; i++) {
    const p = pairs[i] as ToolPair;
    if (p.status !== 'answered') {
      broken[i] = 1;
      if (isArcPair(p)) arcCount++;
    }
  }
  // Error violations with ids: the pairs of the blocks of their message (the block table, built
  // once per analysis and shared with `selectPairsOfBlock`), in violation order so the first
  // violation naming a pair is kept. O(violations × blocks of their message).
  for (let vi = 0; vi < violations.length; vi++) {
    const v = violations[vi] as Violation;
    if (v.severity !== 'error' || v.ids.length === 0) continue;
    const m = v.index;
    if (!(m >= 0 && m < messages.length)) continue;
    const { blockStart, pairStart, pairIdx } = blockTableOf(a);
    const bEnd = blockStart[m + 1] as number;
    for (let b = blockStart[m] as number; b < bEnd; b++)
      for (let k = pairStart[b] as number; k < (pairStart[b + 1] as number); k++) {
        const i = pairIdx[k] as number;
        const p = pairs[i] as ToolPair;
        if (violationOf[i] !== -1 || p.id === null || !v.ids.includes(p.id)) continue;
        violationOf[i] = vi;
        if (broken[i] === 0) {
          broken[i] = 1;
          if (isArcPair(p)) arcCount++;
        }
      }
  }
  let byKey: Map<string, number> | null = null;
  const positionOf = (key: string): number => {
    const i = key.startsWith('p') ? Number(key.slice(1)) : -1;
    if (Number.isInteger(i) && pairs[i]?.key === key) return i;
    byKey ??= new Map(pairs.map((p, j) => [p.key, j]));
    return byKey.get(key) ?? -1;
  };
  return {
    broken,
    violationOf,
    arcCount,
    providerLabel: validatorFor(a.provider)?.label ?? a.provider,
    positionOf,
    isBroken: (key) => broken[positionOf(key)] === 1,
    violation: (key) => violations[violationOf[positionOf(key)] ?? -1],
  };
});

/** Headline counts for the page header. */
export interface Counts {
  messages: number;
  exchanges: number;
  arcs: number;
  /** Arc pairs drawn red: pairing status, or named by an error violation (`selectBrokenPairs`). */
  broken: number;
  errors: number;
}

export const selectCounts = memoWeak((a: Analysis): Counts => {
  const arcs = selectArcPairs(a);
  return {
    messages: a.transcript.messages.length,
    exchanges: a.grouping.exchanges.length,
    arcs: arcs.length,
    broken: selectBrokenPairs(a).arcCount,
    errors: a.validation.violations.filter((v) => v.severity === 'error').length,
  };
});

/** The pinned system prompt: top-level system parts, then system/developer messages' text. */
export const selectPinnedText = memoWeak((t: Transcript): string => {
  const parts = t.system.map((s) => s.text);
  for (const m of t.messages)
    if (isPinned(m)) for (const b of m.blocks) if (b.type === 'text') parts.push(b.text);
  return parts.join('\n\n');
});
