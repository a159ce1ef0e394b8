/**
 * The cut engine's "must a cut be validated directly" test as it was made before issue 38 read it
 * from the messages' shapes (evict/spansCuts.ts `hasDetachedServerResultOf`): one walk over the
 * message objects. The property tests hold the shape-read one equal to it; the simulator's tests
 * use `spansCuts` to tell which transcripts take the direct path by design.
 */
import { isPinned } from '../exchanges.ts';
import { spansCutsOf } from '../evict/spansCuts.ts';
import type { Message } from '../types.ts';
import type { Validation } from '../validate/index.ts';

/**
 * True when a cut of this transcript must be validated directly:
 * - O6 (a second tool message for an id, request-wide: not for merging providers, whose A6b is
 *   per turn);
 * - A5 (content after a tool_use in a merged turn: depends on how a cut or a kept head merges it);
 * - for merging providers (Anthropic A4/A16), a server tool result in a later turn than its call
 *   (`hasDetachedServerResult`).
 * @param full the validation of the whole transcript
 * @param merged true for a provider whose turns merge (cut model `merged-turns`)
 */
export function spansCuts(full: Validation, merged: boolean, ms: readonly Message[]): boolean {
  return spansCutsOf(full, merged, () => hasDetachedServerResult(ms));
}

/**
 * True when a server tool result answers a server call of an earlier assistant turn (the A4
 * deferral): the pair spans the user turn between them, and a cut there orphans the result (A16).
 * A turn here is a run of assistant messages (a log may write a call and its result as two
 * lines). A result with no call anywhere is already A16 in the full validation: no pair to cut.
 */
export function hasDetachedServerResult(ms: readonly Message[]): boolean {
  const earlier = new Set<string>();
  let turn: string[] = [];
  for (const m of ms) {
    if (isPinned(m)) continue;
    if (m.role !== 'assistant') {
      // A new list only when the turn had server calls (most have none: no array per message).
      if (turn.length > 0) {
        for (const id of turn) earlier.add(id);
        turn = [];
      }
      continue;
    }
    for (const b of m.blocks) {
      if (b.type === 'tool_use' && b.server === true && b.id !== null) turn.push(b.id);
      else if (b.type === 'tool_result' && b.server !== undefined && b.toolUseId !== null)
        if (earlier.has(b.toolUseId) && !turn.includes(b.toolUseId)) return true;
    }
  }
  return false;
}
