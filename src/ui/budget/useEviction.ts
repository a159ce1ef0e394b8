/**
 * The simulator's derived data for the page: reads the user's choices (budget, policies, their
 * options) from the store and the session's answers count, and takes the whole model from one
 * state selector (`selectSimulator`, state/eviction.ts). The budget is
 * deferred (`useDeferredValue`) so the slider thumb stays responsive on long transcripts.
 */
import { useDeferredValue, useEffect, useMemo } from 'react';
import type { Analysis } from '../../model/analyze.ts';
import type { PolicySweep } from '../../model/evict/sweep.ts';
import type { TokenTable } from '../../model/tokens.ts';
import type { Transcript } from '../../model/types.ts';
import { cutWords } from '../../model/evict/cutWords.ts';
import { messageLabels } from '../../model/messageLabels.ts';
import {
  evictionReading,
  requestSweep,
  selectSimulator,
  SWEEP_PENDING,
  type SimulatorModel,
} from '../../state/eviction.ts';
import { useAppStore } from '../../state/store.ts';
import { useSession } from '../useSession.ts';
import type { TimelineEviction } from './RowEviction.tsx';

export type { SimulatorModel } from '../../state/eviction.ts';

/**
 * Everything the simulator and the timeline need for the shown transcript. The sweep of a long
 * transcript comes from the worker: asked for (by an effect) when the choices have none yet, and
 * re-read when one arrives (the session's `answers` count); while the texts it needs are read
 * from a large file, re-read as they come (the session's `textRead`).
 * @param analysis the shown analysis (after faults), or null while loading
 * @param tokens its token table (the counter the page currently has)
 * @returns null until both are known, and while the worker prepares the eviction parts or the
 *   page reads the texts it would prepare them from (`selectSimulator`)
 */
export function useEviction(
  analysis: Analysis | null,
  tokens: TokenTable | null,
): SimulatorModel | null {
  const budget = useDeferredValue(useAppStore((s) => s.budget));
  const policies = useAppStore((s) => s.policies);
  const policyOptions = useAppStore((s) => s.policyOptions);
  const version = useSession((x) => x.answers);
  const sim = selectSimulator(analysis, tokens, budget, policies, policyOptions, version);
  // While the messages' texts are read from a large file (`evictionReading`), draw again as they
  // come (the session's `textRead`), so the simulator shows once they are all there.
  const reading = sim === null && analysis !== null && tokens !== null && evictionReading(analysis);
  useSession((x) => (reading ? x.textRead : 0));
  const ctx = sim?.ctx;
  const choices = sim?.choices;
  const sweeps = sim?.sweeps;
  useEffect(() => {
    if (ctx && choices && sweeps === SWEEP_PENDING) requestSweep(ctx, choices);
  }, [ctx, choices, sweeps]);
  return sim;
}

/**
 * The timeline's view of the simulator, stable while the eviction does not change (so memoised
 * rows do not re-render on slider steps that keep the same cuts).
 * @param sim from `useEviction`
 * @param t the shown transcript (for `#raw` labels)
 * @param providerLabel the provider's display name
 */
export function useTimelineEviction(
  sim: SimulatorModel | null,
  t: Transcript | null,
  providerLabel: string,
): TimelineEviction | null {
  const flags = sim?.flags;
  const pairs = sim?.pairs;
  const markers = sim?.markers;
  const a = sim?.choices[0].id;
  const b = sim?.choices[1].id;
  const sweeps = sim?.sweeps;
  const setBudget = useAppStore((s) => s.setBudget);
  return useMemo(() => {
    if (!flags || !pairs || !markers || !a || !b || !t) return null;
    const ms = t.messages;
    const list = sweeps && sweeps !== SWEEP_PENDING ? sweeps : null;
    const labelOf = messageLabels(ms).of;
    return {
      flags,
      pairs: pairs.pairs,
      pairState: pairs.state,
      markers,
      policies: [a, b] as const,
      providerLabel,
      labelOf,
      cutWordsOf: (k: number) => cutWords(ms, labelOf, k),
      budgetForCut: (k: number) => (list ? budgetForCut(list, a, k) : null),
      selectCut: (k: number) => {
        const budget = list ? budgetForCut(list, a, k) : null;
        if (budget !== null) setBudget(budget);
      },
    };
  }, [flags, pairs, markers, a, b, t, providerLabel, sweeps, setBudget]);
}

/**
 * The budget that makes a policy cut at message `k` (drop every non-pinned message above it):
 * the smallest budget selecting that cut in the primary policy's sweep, else in `message`'s
 * (whose cuts are every message), else null (no sweep has that cut).
 * @param sweeps every policy's sweep
 * @param primary the primary policy's id
 */
export function budgetForCut(
  sweeps: readonly PolicySweep[],
  primary: string,
  k: number,
): number | null {
  for (const id of [primary, 'message']) {
    const s = sweeps.find((x) => x.policy === id);
    if (!s) continue;
    for (let j = 0; j < s.cuts.length; j++)
      if (s.cuts[j] === k && (s.budgetHi[j] as number) >= (s.budgetLo[j] as number))
        return s.budgetLo[j] as number;
  }
  return null;
}
