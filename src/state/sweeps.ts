/**
 * The sweep chart's data: every policy swept over every budget, on the page or, for long
 * transcripts, by the worker (`adoptSweep`; the client is the page's `SweepSource`).
 */
import type { EvictionContext } from '../model/evict/policies.ts';
import { POLICIES } from '../model/evict/registry.ts';
import { sweepPolicy, type PolicySweep } from '../model/evict/sweep.ts';
import type { PolicyOptions } from '../model/evict/types.ts';
import type { TokenTable } from '../model/tokens.ts';
import type { ProviderId } from '../model/types.ts';
import { WORKER_EVICTION_MIN } from '../engine/evictionParts.ts';
import type { SweepSource } from '../engine/sink.ts';
import { SLOW_PATH_LIMIT } from './cutMarkers.ts';
import type { PolicyChoice } from './eviction.ts';
import { activeSession, memoN, sweepKey } from './session/index.ts';

/**
 * The options each policy is swept with (POLICIES order): the two shown with their
 * options, the others with defaults (as `selectSweep` sweeps them).
 */
export function sweepOptions(choices: readonly [PolicyChoice, PolicyChoice]): PolicyOptions[] {
  return POLICIES.map((id) => choices.find((c) => c.id === id)?.options ?? {});
}

export { sweepKey } from './session/index.ts';

/** Register (or clear, with null) the off-thread sweep source (the worker client): the session's. */
export function setSweepSource(src: SweepSource | null): void {
  activeSession().sink.sweepSource(src);
}

/**
 * Hand the page a sweep of every policy the worker computed (`sweepContext` over the same context
 * as `selectEvictionContext` builds on the page, tested in engine/sweep.test.ts) for a token table
 * the page holds; `selectSweep` answers from it. The session keeps it and tells its listeners.
 * @param table the page's token table (the object the worker sent)
 * @param provider the provider the sweep validated cuts for
 * @param options the per-policy options swept (POLICIES order, `sweepOptions`)
 * @param sweeps one PolicySweep per policy, POLICIES order
 */
export function adoptSweep(
  table: TokenTable,
  provider: ProviderId,
  options: readonly PolicyOptions[],
  sweeps: PolicySweep[],
): void {
  activeSession().sink.sweep(table, provider, options, sweeps);
}

/**
 * Tell `selectSweep` that what the sweep source can compute changed (the worker failed, was
 * cancelled or cannot sweep a table): a sweep it waited for is then computed on the page.
 */
export function sweepSourceChanged(): void {
  activeSession().sink.sweepsChanged();
}

/** The worker's sweep for a table, provider and options (the session's), or undefined. */
function workerSweep(
  table: TokenTable,
  provider: ProviderId,
  options: readonly PolicyOptions[],
): PolicySweep[] | undefined {
  return activeSession()
    .answers.sweeps.get(table)
    ?.get(`${provider}|${sweepKey(options)}`);
}

/** The sweep is being computed off the page's thread (see `selectSweep`). */
export const SWEEP_PENDING = 'pending';

/**
 * The sweep of every policy: the two shown with their options, the others with defaults.
 * O(cuts × boundary window) per policy; memoised on the context, the choices and the version of
 * the worker's sweeps. For transcripts of `WORKER_EVICTION_MIN` messages or more whose token table
 * came from the worker, the worker sweeps (`adoptSweep`; issue 7: 0.2–0.5 s on the page at 100,000
 * messages) and this answers `SWEEP_PENDING` until it arrives (`requestSweep` asks for it).
 * @param version the session's `answers` count (so an arriving sweep is seen); omitted = 0
 * @returns one PolicySweep per policy (POLICIES order); `SWEEP_PENDING`; or null when the provider
 *   has no fast cut path and the transcript is longer than `SLOW_PATH_LIMIT` messages (the page
 *   would freeze; `npm run cli -- sweep` does it)
 */
export const selectSweep = memoN(
  (
    ctx: EvictionContext,
    choices: readonly [PolicyChoice, PolicyChoice],
    // Read only as a memo key: a new version re-reads the worker's sweeps.
    version = 0,
  ): PolicySweep[] | typeof SWEEP_PENDING | null => {
    void version;
    if (!ctx.cuts.fast && ctx.cuts.n > SLOW_PATH_LIMIT) return null;
    const options = sweepOptions(choices);
    const provider = ctx.cuts.provider;
    const fromWorker = workerSweep(ctx.table, provider, options);
    if (fromWorker) return fromWorker;
    const sweepSource = activeSession().answers.sweepSource;
    if (ctx.cuts.n >= WORKER_EVICTION_MIN && sweepSource?.has(ctx.table, provider))
      return SWEEP_PENDING;
    return POLICIES.map((id, i) => sweepPolicy(ctx, id, options[i] ?? {}));
  },
);

/**
 * Ask the worker for the sweep `selectSweep` answered `SWEEP_PENDING` for (a no-op when it is
 * there or nothing can compute it off the page). Called from an effect, never while rendering.
 */
export function requestSweep(
  ctx: EvictionContext,
  choices: readonly [PolicyChoice, PolicyChoice],
): void {
  const options = sweepOptions(choices);
  const provider = ctx.cuts.provider;
  if (workerSweep(ctx.table, provider, options)) return;
  const sweepSource = activeSession().answers.sweepSource;
  if (sweepSource?.has(ctx.table, provider)) sweepSource.request(ctx.table, provider, options);
}

/** The session's count of side results (pass to `selectSweep` so an arriving sweep is seen). */
export function sweepsVersion(): number {
  return activeSession().getSnapshot().answers;
}
