/**
 * Transcripts whose verdict the fast cut path cannot reuse across a cut (simulate.ts, step 4):
 * rules that tie two messages across a cut point. Such transcripts are rare; their cuts are
 * validated directly (the tail after the cut), which is always exact.
 */
import type { Validation } from '../validate/index.ts';
import { SHAPE, type MessageShapes } from './shapes.ts';

const {
  FLAG_NO_ID,
  FLAG_SERVER_RULE,
  KIND_CALL,
  KIND_MASK,
  KIND_RESULT,
  ROLE_ASSISTANT,
  ROLE_PINNED,
} = SHAPE;

/**
 * True when a cut of this transcript must be validated directly:
 * - O6 (a second tool message for an id, request-wide: not for merging providers, whose A6b is
 *   per turn);
 * - A5 (content after a tool_use in a merged turn: depends on how a cut or a kept head merges it);
 * - for merging providers (Anthropic A4/A16), a server tool result in a later turn than its call
 *   (`detached`: `hasDetachedServerResultOf`, or a chain's own walk as its messages grow).
 * @param full the validation of the whole transcript
 * @param merged true for a provider whose turns merge (cut model `merged-turns`)
 * @param detached a boolean, or a function asked only for a merging provider with neither
 *   violation
 */
export function spansCutsOf(
  full: Validation,
  merged: boolean,
  detached: boolean | (() => boolean),
): boolean {
  for (const v of full.violations)
    if ((v.rule === 'duplicate_tool_result' && !merged) || v.code === 'A5') return true;
  return merged && (typeof detached === 'boolean' ? detached : detached());
}

/**
 * True when a server tool result answers a server call of an earlier assistant turn (the A4
 * deferral): the pair spans the user turn between them, and a cut there orphans the result (A16).
 * A turn here is a run of assistant messages (a log may write a call and its result as two
 * lines). A result with no call anywhere is already A16 in the full validation: no pair to cut.
 * Read from the messages' shapes (shapes.ts): the eviction parts build them in their one walk over
 * every block, and a walk over the message objects again was among the slowest of preparing them
 * (issue 38; the walk over the messages is the property tests' reference,
 * testing/spansCuts.reference.ts).
 */
export function hasDetachedServerResultOf(sh: MessageShapes): boolean {
  const { role, start, kind, idAt, ids } = sh;
  const earlier = new Set<string>();
  let turn: string[] = [];
  for (let i = 0; i < role.length; i++) {
    const r = role[i];
    if (r === ROLE_PINNED) continue;
    if (r !== ROLE_ASSISTANT) {
      if (turn.length > 0) {
        for (const id of turn) earlier.add(id);
        turn = [];
      }
      continue;
    }
    for (let b = start[i] as number; b < (start[i + 1] as number); b++) {
      const k = kind[b] as number;
      if ((k & (FLAG_SERVER_RULE | FLAG_NO_ID)) !== FLAG_SERVER_RULE) continue;
      const id = ids[idAt[b] as number] as string;
      if ((k & KIND_MASK) === KIND_CALL) turn.push(id);
      else if ((k & KIND_MASK) === KIND_RESULT && earlier.has(id) && !turn.includes(id))
        return true;
    }
  }
  return false;
}
