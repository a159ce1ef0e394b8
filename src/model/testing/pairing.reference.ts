/**
 * The plain pairing: one Map from tool_use id to its open call, looked up for every result. The
 * fast path (pairing.ts) must give the same pairs; this one is used only to property-test it.
 */
import { answerRun } from '../pairing.ts';
import type { BlockRef, PairStatus, ToolPair } from '../pairing.ts';
import type { Message, ToolResultBlock } from '../types.ts';

/**
 * Pair every tool_use with its tool_result.
 * @param messages the transcript's messages (any subset keeps working: indices are positions in
 *   the given array)
 * @returns one `ToolPair` per call, plus one per orphan or duplicate result, in source order of
 *   their first end. O(n) in blocks.
 */
export function referencePairToolCalls(messages: readonly Message[]): ToolPair[] {
  const pairs: ToolPair[] = [];
  // The open call of each id (its pair: `call` is set, `name` is the call's name).
  const byId = new Map<string, ToolPair>();
  // Calls without ids, per assistant message, waiting for a result by position and name.
  let pendingNoId: ToolPair[] = [];
  const runEnd = new Int32Array(messages.length).fill(-1);
  for (let mi = 0; mi < messages.length; mi++) {
    const blocks = (messages[mi] as Message).blocks;
    for (let bi = 0; bi < blocks.length; bi++) {
      const b = blocks[bi] as Message['blocks'][number];
      if (b.type === 'tool_use') {
        const server = b.server === true;
        const duplicate = b.id !== null && byId.has(b.id);
        const pair: ToolPair = {
          key: 'p' + pairs.length,
          id: b.id,
          name: b.name,
          call: { message: mi, block: bi },
          result: null,
          status: duplicate ? 'duplicate_id' : 'unanswered',
          partial: false,
          server,
        };
        pairs.push(pair);
        if (duplicate) continue;
        if (b.id !== null) byId.set(b.id, pair);
        else {
          if (pendingNoId.length > 0 && pendingNoId[0]?.call?.message !== mi) pendingNoId = [];
          pendingNoId.push(pair);
        }
        if (runEnd[mi] === -1) runEnd[mi] = answerRun(messages, mi)[1];
      } else if (b.type === 'tool_result') {
        const ref = { message: mi, block: bi };
        const call = findCall(b, byId, pendingNoId, mi);
        const server = b.server !== undefined;
        if (!call) {
          pairs.push(newPair(pairs.length, b.toolUseId, b.name ?? '', null, ref, 'orphan', server));
          continue;
        }
        if (call.result !== null) {
          pairs.push(
            newPair(
              pairs.length,
              b.toolUseId,
              call.name,
              call.call,
              ref,
              'duplicate_result',
              server,
            ),
          );
          continue;
        }
        call.result = ref;
        const cm = (call.call as BlockRef).message;
        const adjacent = server ? cm === mi : mi > cm && mi < (runEnd[cm] ?? -1);
        call.status = adjacent ? 'answered' : 'answered_late';
        if (b.toolUseId === null) pendingNoId = pendingNoId.filter((c) => c !== call);
      }
    }
  }

  // Partial answers: an unanswered call with an answered sibling in the same message.
  const answeredIn = new Set<number>();
  for (const p of pairs) if (p.call && p.result && !p.server) answeredIn.add(p.call.message);
  for (const p of pairs)
    if (p.status === 'unanswered' && p.call && answeredIn.has(p.call.message)) p.partial = true;
  return pairs;
}

function newPair(
  n: number,
  id: string | null,
  name: string,
  call: BlockRef | null,
  result: BlockRef | null,
  status: PairStatus,
  server: boolean,
): ToolPair {
  return { key: 'p' + n, id, name, call, result, status, partial: false, server };
}

function findCall(
  b: ToolResultBlock,
  byId: Map<string, ToolPair>,
  pendingNoId: ToolPair[],
  mi: number,
): ToolPair | undefined {
  if (b.toolUseId !== null) {
    const c = byId.get(b.toolUseId);
    return c && (c.call as BlockRef).message <= mi ? c : undefined;
  }
  const open = pendingNoId.filter((c) => c.result === null && (c.call as BlockRef).message < mi);
  return open.find((c) => b.name !== undefined && c.name === b.name) ?? open[0];
}
