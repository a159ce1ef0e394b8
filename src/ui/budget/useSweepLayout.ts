/**
 * The sweep chart's layout (SweepChart.tsx), memoised on the sweeps, the shown pair, the total
 * and the axis' left end: a slider step that keeps the left end reuses it. A new sweep of many
 * cuts (a 67,000-message log's `message` policy) is laid out over several tasks of the page
 * (`layoutSweepSteps`, `runInSlices`): at once it was one task of 40–70 ms when the sweep arrived.
 * Meanwhile the chart shows what it showed before (the note while the sweep is made).
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import type { PolicySweep } from '../../model/evict/sweep.ts';
import { SWEEP_PENDING } from '../../state/eviction.ts';
import {
  layoutSweepFrom,
  layoutSweepSteps,
  sweepDomainLo,
  type SweepLayout,
} from './sweepLayout.ts';

/** Shown policies' cuts above which a new sweep is laid out in slices. */
export const SLICE_CUTS = 20_000;

/** Longest slice of a layout's steps, ms. */
const SLICE_MS = 8;

/** The sweeps as `SweepChart` takes them. */
type Sweeps = readonly PolicySweep[] | typeof SWEEP_PENDING | null;

/** A laid-out chart: the sweeps it shows, the shown ones (in card order) and their layout. */
export interface DrawnSweep {
  sweeps: Sweeps;
  shownSweeps: PolicySweep[];
  total: number;
  lo: number;
  layout: SweepLayout;
}

/**
 * Run `steps` to its end in slices of about `sliceMs` ms, each a task of its own, then call
 * `done` with its result (in a later task), unless cancelled first.
 * @returns cancel
 */
export function runInSlices<R>(
  steps: Generator<void, R>,
  done: (r: R) => void,
  sliceMs = SLICE_MS,
): () => void {
  let cancelled = false;
  const channel = typeof MessageChannel === 'undefined' ? null : new MessageChannel();
  const next = () => (channel ? channel.port2.postMessage(null) : setTimeout(slice, 0));
  function slice(): void {
    if (cancelled) return;
    const end = performance.now() + sliceMs;
    for (;;) {
      const r = steps.next();
      if (r.done) {
        channel?.port1.close();
        done(r.value);
        return;
      }
      if (performance.now() >= end) break;
    }
    next();
  }
  if (channel) channel.port1.onmessage = slice;
  next();
  return () => {
    cancelled = true;
    channel?.port1.close();
  };
}

const sameInputs = (
  d: DrawnSweep | null,
  sweeps: Sweeps,
  shownSweeps: PolicySweep[],
  total: number,
  lo: number,
): d is DrawnSweep =>
  d !== null &&
  d.sweeps === sweeps &&
  d.shownSweeps === shownSweeps &&
  d.total === total &&
  d.lo === lo;

/**
 * The chart to draw: the shown policies' sweeps (in card order) and their layout. A sweep whose
 * shown policies hold over `SLICE_CUTS` cuts, new to the chart, is laid out in slices; until then
 * the chart drawn before is returned (at first: the sweeps pending). Anything else (a slider step
 * that moves the axis' left end, another shown policy) is laid out at once, as before.
 */
export function useSweepLayout(
  sweeps: Sweeps,
  [shownA, shownB]: readonly [string, string],
  total: number,
  budget: number,
): DrawnSweep {
  const shownSweeps = useMemo(
    () =>
      sweeps && sweeps !== SWEEP_PENDING
        ? [shownA, shownB]
            .map((id) => sweeps.find((s) => s.policy === id))
            .filter((s): s is PolicySweep => s !== undefined)
        : [],
    [sweeps, shownA, shownB],
  );
  const lo = sweepDomainLo(shownSweeps, total, budget);
  const [sliced, setSliced] = useState<DrawnSweep | null>(null);
  const last = useRef<DrawnSweep | null>(null);
  const ready = sameInputs(sliced, sweeps, shownSweeps, total, lo) ? sliced : null;
  const cuts = shownSweeps.reduce((n, s) => n + s.cuts.length, 0);
  const slicing = !ready && cuts > SLICE_CUTS && last.current?.sweeps !== sweeps;
  const now = useMemo(
    (): DrawnSweep | null =>
      ready || slicing
        ? null
        : { sweeps, shownSweeps, total, lo, layout: layoutSweepFrom(shownSweeps, total, lo) },
    [ready, slicing, sweeps, shownSweeps, total, lo],
  );
  useEffect(() => {
    if (!slicing) return;
    return runInSlices(layoutSweepSteps(shownSweeps, total, lo), (layout) =>
      setSliced({ sweeps, shownSweeps, total, lo, layout }),
    );
  }, [slicing, sweeps, shownSweeps, total, lo]);
  const drawn = ready ?? now ?? last.current ?? pendingChart(total);
  useEffect(() => {
    last.current = drawn;
  });
  return drawn;
}

/** The chart while a first sweep is laid out: pending. */
function pendingChart(total: number): DrawnSweep {
  return {
    sweeps: SWEEP_PENDING,
    shownSweeps: [],
    total,
    lo: 0,
    layout: layoutSweepFrom([], total, 0),
  };
}
