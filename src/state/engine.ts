/**
 * The one state module that owns the engine's answers. The worker client (engine/client.ts)
 * hands what comes with an answer — the pair tables it built, the eviction parts and cut markers
 * it prepared, the sweeps it made — to the sink here, which gives each to the selectors that
 * answer from it, so the page does not compute them again on its own thread. The engine imports
 * nothing from the state; the state imports the engine (ui → state → engine → model).
 */
import { createWorkerClient, type InspectClient } from '../engine/client.ts';
import type { AnswerSink } from '../engine/sink.ts';
import { adoptCutMarkers } from './cutMarkers.ts';
import { adoptEvictionParts } from './eviction.ts';
import { adoptPairTables } from './pairs.ts';
import { adoptStreamedListing } from './requests.ts';
import { adoptSweep, setSweepSource, sweepSourceChanged } from './sweeps.ts';

/** Where the worker client's side results go on the page. */
export const ENGINE_SINK: AnswerSink = {
  pairTables: adoptPairTables,
  evictionParts: (t, provider, parts, safe) => {
    adoptEvictionParts(t, provider, parts);
    if (safe) adoptCutMarkers(parts.cuts, safe);
  },
  sweep: adoptSweep,
  sweepsChanged: sweepSourceChanged,
  sweepSource: setSweepSource,
  requests: adoptStreamedListing,
};

/** The page's engine: a worker client whose side results the state adopts (`ENGINE_SINK`). */
export function createEngineClient(): InspectClient {
  return createWorkerClient(ENGINE_SINK);
}
