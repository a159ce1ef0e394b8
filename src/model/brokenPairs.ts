/**
 * Which tool pairs are broken for the chosen provider (drawn red, counted broken): pairing's own
 * status and the error violations that name a pair.
 */
import type { Analysis } from './analyze.ts';
import type { ToolPair } from './pairing.ts';
import { isArcPair, type BlockPairTable } from './pairTables.ts';
import { validatorFor, type Violation } from './validate/index.ts';

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
  /** Broken pairs among the arc pairs (`isArcPair`): the header's "broken" count. */
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
 * The broken pairs of an analysis (`BrokenPairs`). O(pairs) for pairing's statuses (a field
 * compare each, no lookups) + O(blocks of the messages error violations point at) through the
 * per-block pair table.
 * @param blockTable the analysis' block table (`blockPairTable`), asked for only when an error
 *   violation carries ids
 */
export function brokenPairs(a: Analysis, blockTable: () => BlockPairTable): BrokenPairs {
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
    const { blockStart, pairStart, pairIdx } = blockTable();
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
}
