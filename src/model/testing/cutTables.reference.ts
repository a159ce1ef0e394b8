/**
 * The cut engine's message tables as they were made before issue 38 read them from the messages'
 * shapes (evict/cutTables.ts `toolTablesOf`, `startTablesOf`): one walk over the message objects
 * each. The property tests hold the shape-read tables equal to these.
 */
import { isPinned } from '../exchanges.ts';
import { hasToolBlock, windowStartKind } from '../evict/cutTables.ts';
import type { Message, ProviderId } from '../types.ts';

/** `nextTool` and `nextToolNP` (evict/cutTables.ts `FastTables`). */
export function referenceToolTables(ms: readonly Message[]): {
  nextTool: Int32Array;
  nextToolNP: Int32Array;
} {
  const n = ms.length;
  const nextTool = new Int32Array(n + 2).fill(n);
  const nextToolNP = new Int32Array(n + 2).fill(n);
  for (let i = n - 1; i >= 0; i--) {
    const m = ms[i] as Message;
    const tool = hasToolBlock(m);
    nextTool[i] = tool ? i : (nextTool[i + 1] as number);
    nextToolNP[i] = tool && !isPinned(m) ? i : (nextToolNP[i + 1] as number);
  }
  return { nextTool, nextToolNP };
}

/** `WindowCache.start` and `WindowCache.emptyBefore` (evict/cutTables.ts). */
export function referenceStartTables(
  ms: readonly Message[],
  provider: ProviderId,
): { start: Uint8Array; emptyBefore: Int32Array } {
  const n = ms.length;
  const start = new Uint8Array(n);
  const emptyBefore = new Int32Array(n + 1);
  for (let i = 0; i < n; i++) {
    const m = ms[i] as Message;
    emptyBefore[i + 1] = (emptyBefore[i] as number) + (m.blocks.length === 0 ? 1 : 0);
    start[i] = windowStartKind(m, provider);
  }
  return { start, emptyBefore };
}
