/**
 * The worker's eviction step for long transcripts (run.ts calls it right after the answer): the
 * simulator's eviction parts, the fast path's cut markers, and the first sweep.
 */
import type { Analysis } from '../model/analyze.ts';
import { cutMarkers } from '../model/evict/cuts.ts';
import { prepareEvictionParts, type EvictionParts } from '../model/evict/prepare.ts';
import { POLICIES } from '../model/evict/registry.ts';
import type { TokenTable } from '../model/tokens.ts';
import { packEvictionParts } from './evictionParts.ts';
import { run, stage, type Running } from './runState.ts';
import { postSweep } from './runTokens.ts';

/** What `sendAnswer` sent, for the eviction parts that follow it. */
export interface Sent {
  parseId: number;
  quickSeq: number;
  /** The worker's copy of the quick table (the sent one moves), for long transcripts. */
  quickCopy: TokenTable | null;
  evictionFollows: boolean;
}

/**
 * Right after the answer (no yield between: the page shows the simulator as preparing until
 * they come, client.ts), prepare and post
 * the simulator's eviction parts and the fast path's cut markers, keep them to sweep for the page,
 * and post the first sweep. If preparing fails, the page is told so (parts null) and prepares the
 * context itself. Posted without a transfer list (the buffers are copied): the worker keeps them.
 */
export function sendEviction(r: Running, analysis: Analysis, sent: Sent): void {
  const t = analysis.transcript;
  let parts: EvictionParts | null = null;
  let safe: Uint8Array | null = null;
  try {
    // The analysis validated this transcript for this provider already: reuse it and its grouping.
    parts = prepareEvictionParts(
      t,
      analysis.provider,
      {},
      {
        validation: analysis.validation,
        grouping: analysis.grouping,
      },
    );
    // The markers on the fast path (the page classifies the others on demand).
    if (parts.cuts.fast) safe = cutMarkers(parts.cuts).safe;
  } catch {
    parts = null;
  }
  r.post(
    {
      id: r.msg.id,
      kind: 'eviction',
      provider: analysis.provider,
      parts: parts ? packEvictionParts(parts, true).packed : null,
      ...(parts && safe ? { safe } : {}),
    },
    safe ? [safe.buffer] : [],
  );
  run.held =
    parts && sent.quickCopy
      ? {
          parseId: sent.parseId,
          provider: analysis.provider,
          t,
          parts,
          tables: new Map([[sent.quickSeq, { table: sent.quickCopy, ctx: null }]]),
          options: run.held?.options ?? POLICIES.map(() => ({})),
        }
      : null;
  stage('eviction');
  if (run.held) postSweep(sent.quickSeq, run.held.options, r.post);
}
