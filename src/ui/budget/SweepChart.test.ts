// @vitest-environment happy-dom
import { act, createElement } from 'react';
import { createRoot, type Root } from 'react-dom/client';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { PolicySweep } from '../../model/evict/sweep.ts';
import { SweepChart, type SweepChartProps } from './SweepChart.tsx';
import { layoutSweepFrom, layoutSweepSteps, sweepDomainLo } from './sweepLayout.ts';
import { SweepPlot } from './SweepPlot.tsx';
import { runInSlices, SLICE_CUTS } from './useSweepLayout.ts';

(globalThis as { IS_REACT_ACT_ENVIRONMENT?: boolean }).IS_REACT_ACT_ENVIRONMENT = true;

/** A sweep of `n` cuts: each keeps 10 tokens less than the one before; every third gives a 400. */
function longSweep(policy: string, n: number): PolicySweep {
  const costs = Float64Array.from({ length: n }, (_, j) => (n - j) * 10 + 100);
  return {
    policy: policy as PolicySweep['policy'],
    cuts: Int32Array.from({ length: n }, (_, j) => j),
    costs,
    valid: Uint8Array.from({ length: n }, (_, j) => (j % 3 === 0 ? 0 : 1)),
    budgetLo: costs,
    budgetHi: Float64Array.from({ length: n }, (_, j) =>
      j === 0 ? (costs[0] as number) : (costs[j - 1] as number) - 1,
    ),
    invalidCuts: [],
    invalidBudgets: [],
    minBudget: costs[n - 1] as number,
    share400: 1 / 3,
    meanOvershoot: null,
  };
}

/** A task's end: everything queued before it (message-channel slices) has run. */
const nextTasks = (k: number) =>
  act(async () => {
    for (let i = 0; i < k; i++) await new Promise((r) => setTimeout(r, 0));
  });

let host: HTMLDivElement;
let root: Root;
beforeEach(() => {
  host = document.createElement('div');
  document.body.append(host);
  root = createRoot(host);
});
afterEach(() => {
  act(() => root.unmount());
  host.remove();
});

describe('the sweep chart of a long sweep', () => {
  const sweeps = [longSweep('message', 30_000), longSweep('exchange', 4_000)];
  const total = sweeps[0]?.costs[0] as number;
  const props = (s: SweepChartProps['sweeps']): SweepChartProps => ({
    sweeps: s,
    messages: 30_000,
    provider: 'anthropic',
    shown: ['message', 'exchange'],
    total,
    budget: total,
    onBudget: () => {},
  });
  it('is laid out over later tasks, not in the render the sweep arrives with; then drawn whole', async () => {
    expect(sweeps.reduce((n, s) => n + s.cuts.length, 0)).toBeGreaterThan(SLICE_CUTS);
    act(() => root.render(createElement(SweepChart, props(sweeps))));
    // The render that took the sweep in did not lay it out (40–70 ms of a 67,000-cut sweep).
    expect(host.querySelector('[data-testid=sweep-pending]')).not.toBeNull();
    expect(host.querySelector('[data-testid=sweep-chart]')).toBeNull();
    for (let k = 0; k < 200 && !host.querySelector('[data-testid=sweep-chart]'); k++)
      await nextTasks(1);
    const drawn = host.querySelector('[data-testid=sweep-chart]')?.innerHTML;
    // The same plot as the layout made at once.
    const whole = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
    const wholeRoot = createRoot(whole);
    const layout = layoutSweepFrom(sweeps, total, sweepDomainLo(sweeps, total, total));
    act(() => wholeRoot.render(createElement(SweepPlot, { layout })));
    expect(layout.strips[0]?.bars.length).toBeGreaterThan(1);
    const plot = whole.innerHTML;
    expect(drawn).toContain(plot);
    act(() => wholeRoot.unmount());
    // A slider step after it is drawn at once (the same sweep: no slices).
    act(() => root.render(createElement(SweepChart, { ...props(sweeps), budget: total - 5 })));
    expect(host.querySelector('[data-testid=sweep-chart]')).not.toBeNull();
    expect(host.querySelector('[data-testid=sweep-chart]')?.innerHTML).toContain(plot);
  });
});

describe('layoutSweepSteps', () => {
  it('pauses along a long sweep and returns the layout layoutSweepFrom makes', () => {
    const sweeps = [longSweep('message', 30_000), longSweep('exchange', 4_000)];
    const total = sweeps[0]?.costs[0] as number;
    const lo = sweepDomainLo(sweeps, total, total);
    const steps = layoutSweepSteps(sweeps, total, lo);
    let pauses = 0;
    let r = steps.next();
    for (; !r.done; r = steps.next()) pauses++;
    expect(pauses).toBeGreaterThan(8);
    expect(r.value).toEqual(layoutSweepFrom(sweeps, total, lo));
  });
});

describe('runInSlices', () => {
  function* counted(n: number, log: number[]): Generator<void, string> {
    for (let i = 0; i < n; i++) {
      log.push(i);
      yield;
    }
    return 'done';
  }
  it('runs the steps over later tasks, then hands over the result', async () => {
    const log: number[] = [];
    let result: string | null = null;
    runInSlices(counted(5, log), (r) => (result = r), 0);
    expect(log).toEqual([]);
    for (let k = 0; k < 50 && result === null; k++) await new Promise((r) => setTimeout(r, 0));
    expect(result).toBe('done');
    expect(log).toEqual([0, 1, 2, 3, 4]);
  });
  it('stops when cancelled', async () => {
    const log: number[] = [];
    let result: string | null = null;
    let cancel = () => {};
    function* cancelling(): Generator<void, string> {
      for (let i = 0; i < 1000; i++) {
        log.push(i);
        if (i === 2) cancel();
        yield;
      }
      return 'done';
    }
    cancel = runInSlices(cancelling(), (r) => (result = r), 0);
    for (let k = 0; k < 20; k++) await new Promise((r) => setTimeout(r, 0));
    expect(log).toEqual([0, 1, 2]);
    expect(result).toBeNull();
  });
});
