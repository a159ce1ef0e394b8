/**
 * How an arc looks and reads (ArcLayer.tsx): red or amber, its title and its accessible name,
 * from the pair's signal and the simulator's eviction state. Pure strings and flags; React
 * renders them as text.
 */
import type { ToolPair } from '../../model/pairing.ts';
import type { BrokenPairs } from '../../state/selectors.ts';
import type { ArcPath } from './arcLayout.ts';
import { PAIR_ERROR, PAIR_WARNING, pairWarningText, type PairSignals } from './pairSignals.ts';
import { pairStateText, STATUS_TEXT } from './verdictLabel.ts';

/**
 * Eviction state of a pair under the simulator's primary policy (`cut` = one end evicted,
 * `gone` = both).
 */
export type ArcEviction = 'kept' | 'cut' | 'gone';

/**
 * The accessible name of an arc's hit path: tool name, tool_use id and status (with the
 * provider's rule when an error violation names an `answered` pair: `pairStateText`).
 * @param broken the analysis's broken pairs (`selectBrokenPairs`); absent = pairing only
 */
export function arcLabel(a: ArcPath, pair: ToolPair | undefined, broken?: BrokenPairs): string {
  const name = pair?.name || 'tool';
  const id = pair?.id ? ` ${pair.id}` : ' (no id)';
  return `${name}${id}: ${arcStateText(a, broken)}${a.partial ? ' (partial answer)' : ''}`;
}

function arcStateText(a: ArcPath, broken: BrokenPairs | undefined): string {
  return broken
    ? pairStateText(a.status, broken.violation(a.id), broken.providerLabel)
    : STATUS_TEXT[a.status];
}

/** What `arcLook` decides for one arc. */
export interface ArcLook {
  /** Drawn red. */
  broken: boolean;
  /** Drawn amber. */
  warned: boolean;
  /** The arc's `<title>`: its state, partial answer and eviction. */
  title: string;
  /** The hit path's accessible name. */
  label: string;
}

/**
 * Red: the verdict holds the pair against the request, or the simulator's eviction cut one of its
 * ends. Amber: pairing finds it odd but no error names it. Neither once both ends are evicted
 * (the pair is gone from the request). Without signals, anything but `answered` is red.
 * @param pair the arc's pair (for its tool name and tool_use id), if laid out
 * @param valid whether the verdict accepts the request (for a warning's words)
 */
export function arcLook(
  a: ArcPath,
  ev: ArcEviction | undefined,
  signals: PairSignals | undefined,
  valid: boolean,
  pair: ToolPair | undefined,
): ArcLook {
  const level = signals ? signals.levelOf(a.id) : a.status === 'answered' ? 0 : PAIR_ERROR;
  const broken = ev === 'cut' || (ev !== 'gone' && level === PAIR_ERROR);
  const warned = !broken && ev !== 'gone' && level === PAIR_WARNING;
  const state = warned
    ? pairWarningText(a.status, signals?.broken.providerLabel ?? '', valid)
    : arcStateText(a, signals?.broken);
  const title = `${state}${a.partial ? ' (partial answer: a sibling was answered)' : ''}${ev === 'cut' ? ' — after eviction' : ev === 'gone' ? ' — both ends evicted' : ''}`;
  const label = warned
    ? `${pair?.name || 'tool'} ${pair?.id ?? '(no id)'}: ${state}`
    : arcLabel(a, pair, signals?.broken);
  return { broken, warned, title, label };
}
