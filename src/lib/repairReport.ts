/**
 * A repair's changes as the checked fetch reports them: each with its rule, its tool ids and the
 * label the request diff gives a message (`dropped`, `inserted`, `merged`, `rewritten`).
 */
import type { RepairChange } from '../model/repair.ts';

/**
 * How a change reads in a diff of the request before and after it (the labels of the diff view):
 * - `dropped`: input messages removed, nothing written in their place;
 * - `inserted`: a new message (an error result in a message of its own);
 * - `merged`: several input messages became one (split parallel results);
 * - `rewritten`: one input message replaced by an edited copy (a result added, text moved,
 *   whitespace trimmed, an id renamed).
 */
export type ChangeLabel = 'dropped' | 'inserted' | 'merged' | 'rewritten';

/** A repair change with its diff label. */
export interface LabelledChange extends RepairChange {
  label: ChangeLabel;
}

/** The diff label of one repair change (see `ChangeLabel`). */
export function changeLabel(c: RepairChange): ChangeLabel {
  if (c.outputIndex === null) return 'dropped';
  if (c.replaced.length === 0) return 'inserted';
  if (c.replaced.length > 1) return 'merged';
  return 'rewritten';
}

/** Every change with its label. */
export const labelled = (changes: readonly RepairChange[]): LabelledChange[] =>
  changes.map((c) => ({ ...c, label: changeLabel(c) }));
