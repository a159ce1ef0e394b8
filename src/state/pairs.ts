/**
 * Pairs, violations and counts as the page shows them, once per analysis: the violation targets
 * (the row each violation points at), the arc pairs and their tables, the pairs of each block,
 * the broken pairs (red arcs) and the header counts. The worker may send the tables it built
 * (`adoptPairTables`); the page then does not build them again.
 */
import type { Analysis } from '../model/analyze.ts';
import { brokenPairs, type BrokenPairs } from '../model/brokenPairs.ts';
import { isPinned } from '../model/exchanges.ts';
import { messageLabels } from '../model/messageLabels.ts';
import type { ToolPair } from '../model/pairing.ts';
import {
  blockPairTable,
  indexPairs,
  isArcPair,
  laneTable,
  type BlockPairTable,
  type LaneTable,
  pairsOfBlockFrom,
  type PairIndex,
  type PairsOfBlock,
  type PairTables,
} from '../model/pairTables.ts';
import { requestRowsOf, type RequestRows } from '../model/requestRows.ts';
import type { Message, Transcript } from '../model/types.ts';
import type { Violation } from '../model/validate/index.ts';
import { activeSession, memoWeak } from './session/index.ts';

export type { BrokenPairs } from '../model/brokenPairs.ts';
export { pairsOfBlockFrom, type PairsOfBlock } from '../model/pairTables.ts';

/** A violation with the message (ours) it points at. */
export interface ViolationTarget {
  violation: Violation;
  /** Message index (ours) holding the cause (`violation.index`), or -1 when it is not a row. */
  message: number;
  /** The cause's row label (`#3`, `#3.2`: `messageLabels`), or null when `message` is -1. */
  label: string | null;
  /** The row label of the message the provider's path names (`violation.pathIndex`), or null. */
  pathLabel: string | null;
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
    const label = message >= 0 ? labels.of(message) : null;
    const p = v.pathIndex;
    const pathLabel = p !== undefined && p >= 0 && p < ms.length ? labels.of(p) : null;
    return { violation: v, message, label, pathLabel, rank };
  });
});

/**
 * How the judged provider's request is made of rows (`ProviderValidator.requestTurns`), for the
 * notes that map its request index to rows; null for a provider that does not say. Only roles are
 * read (a large file's rows read their content lazily).
 */
export const selectRequestRows = memoWeak((a: Analysis): RequestRows | null =>
  requestRowsOf(a.transcript, a.transcript.messages, a.provider),
);

/** Messages (ours) pointed at by a violation, in violation order, without repeats. */
export const selectViolationMessages = memoWeak((a: Analysis): number[] => {
  const seen = new Set<number>();
  for (const t of selectViolationTargets(a)) if (t.message >= 0) seen.add(t.message);
  return [...seen].sort((x, y) => x - y);
});

/** Pairs drawn as arcs: everything except server tools answered inside their own message. */
export const selectArcPairs = memoWeak((a: Analysis): ToolPair[] => a.pairs.filter(isArcPair));

/**
 * Record the pair tables the worker built for an analysis it sent (`pairTables` over its
 * transcript's messages and pairs); `selectPairsOfBlock` and `selectArcTables` then answer from
 * them instead of building them on the page (issue 7).
 */
export function adoptPairTables(a: Analysis, tables: PairTables): void {
  activeSession().sink.pairTables(a, tables);
}

/** The tables the worker built for an analysis it sent (the session's), or undefined. */
function workerTables(a: Analysis): PairTables | undefined {
  return activeSession().answers.pairTables.get(a);
}

/** The block table of an analysis (`blockPairTable`), once per analysis (the worker's when sent). */
const blockTableOf = memoWeak(
  (a: Analysis): BlockPairTable =>
    workerTables(a)?.blocks ?? blockPairTable(a.transcript.messages, a.pairs),
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
  const w = workerTables(a);
  if (w) return { lanes: w.arcLanes, index: w.arcIndex };
  const arcs = selectArcPairs(a);
  return { lanes: laneTable(arcs), index: indexPairs(arcs) };
});

/**
 * The broken pairs of an analysis (`brokenPairs`), once per analysis, no per-render work; the
 * block table is `selectPairsOfBlock`'s (the worker's when it sent one).
 */
export const selectBrokenPairs = memoWeak(
  (a: Analysis): BrokenPairs => brokenPairs(a, () => blockTableOf(a)),
);

/** Headline counts for the page header. */
export interface Counts {
  messages: number;
  /**
   * Distinct row numbers (`#N`, the messages' raw indices): fewer than `messages` when a source
   * message is shown as several rows (`#3.1`, `#3.2`: a Gemini CLI turn's calls and results).
   */
  numbered: number;
  exchanges: number;
  arcs: number;
  /**
   * Of the arcs: tool calls (each call, a repeated id too), second results for a call already
   * answered, and results with no call. `arcs = calls + secondResults + orphanResults`.
   */
  calls: number;
  secondResults: number;
  orphanResults: number;
  /** Arc pairs drawn red: pairing status, or named by an error violation (`selectBrokenPairs`). */
  broken: number;
  errors: number;
}

/** How many distinct raw indices the messages have (O(n); no Set when they ascend strictly). */
function distinctRawIndices(ms: readonly Message[]): number {
  let ascending = true;
  for (let i = 1; i < ms.length && ascending; i++)
    if ((ms[i] as Message).rawIndex <= (ms[i - 1] as Message).rawIndex) ascending = false;
  if (ascending) return ms.length;
  const seen = new Set<number>();
  for (const m of ms) seen.add(m.rawIndex);
  return seen.size;
}

export const selectCounts = memoWeak((a: Analysis): Counts => {
  const arcs = selectArcPairs(a);
  return {
    messages: a.transcript.messages.length,
    numbered: distinctRawIndices(a.transcript.messages),
    exchanges: a.grouping.exchanges.length,
    arcs: arcs.length,
    calls: arcs.filter((p) => p.status !== 'duplicate_result' && p.status !== 'orphan').length,
    secondResults: arcs.filter((p) => p.status === 'duplicate_result').length,
    orphanResults: arcs.filter((p) => p.status === 'orphan').length,
    broken: selectBrokenPairs(a).arcCount,
    errors: a.validation.violations.filter((v) => v.severity === 'error').length,
  };
});

/**
 * Formats whose system prompt has a field of its own beside the message list (Anthropic `system`,
 * Gemini `systemInstruction`): a system message inside their list is not the system prompt.
 */
const SYSTEM_BESIDE_LIST: ReadonlySet<Transcript['format']> = new Set<Transcript['format']>([
  'anthropic-messages',
  'gemini',
]);

/**
 * What the pinned text is called: `System prompt`, or — for a request body of an API whose system
 * prompt has its own field, with system messages inside its list (A19, G11) — what they are
 * (`System message in messages`), so the page does not show them as the top-level prompt.
 */
export function selectPinnedLabel(t: Transcript): string {
  if (!SYSTEM_BESIDE_LIST.has(t.format)) return 'System prompt';
  let listed = false;
  for (const m of t.messages) if (m.role === 'system') listed = true;
  if (!listed) return 'System prompt';
  const inList = `System message in ${t.listKey}`;
  return t.system.length > 0 ? `System prompt, then ${inList.toLowerCase()}` : inList;
}

/** The pinned system prompt: top-level system parts, then system/developer messages' text. */
export const selectPinnedText = memoWeak((t: Transcript): string => {
  const parts = t.system.map((s) => s.text);
  for (const m of t.messages)
    if (isPinned(m)) for (const b of m.blocks) if (b.type === 'text') parts.push(b.text);
  return parts.join('\n\n');
});
