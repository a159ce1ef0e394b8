/**
 * The sweep chart: across every budget from the smallest a shown policy reaches to the total,
 * where each shown policy's result is valid or a 400 (one strip each) and the tokens it keeps (a
 * step line). d3 computed the geometry (sweepLayout.ts); React renders the SVG. Beside it: the
 * share of budgets that give a 400 for every policy, the mean overshoot of `exchange`, and the
 * rate calculator. The layout (and the SVG of the strips) is memoised on the sweep and the axis'
 * left end; a slider step only moves the budget cursor.
 */
import { memo, useMemo, useState } from 'react';
import type { PolicySweep } from '../../model/evict/sweep.ts';
import { SWEEP_PENDING } from '../../state/eviction.ts';
import { fmtInt } from '../format.ts';
import { fmtPercent, oneIn, overshootSentence } from './contextWindows.ts';
import {
  DEFAULT_SWEEP_SIZE,
  layoutSweepFrom,
  sweepCursorX,
  sweepDomainLo,
  type SweepLayout,
} from './sweepLayout.ts';
import { sweepBudgetAt, sweepKeyBudget } from './sweepBudget.ts';

export interface SweepChartProps {
  /**
   * Sweeps of all five policies (`selectSweep`); `pending` while the worker computes them; null
   * when the page does not sweep this transcript.
   */
  sweeps: readonly PolicySweep[] | typeof SWEEP_PENDING | null;
  /** Messages in the transcript and the provider id, for the note when there is no sweep. */
  messages: number;
  provider: string;
  /** The two shown policies, in card order. */
  shown: readonly [string, string];
  total: number;
  budget: number;
  onBudget: (b: number) => void;
}

const KIND_TEXT = { valid: 'valid', error: 'HTTP 400', nofit: 'cannot fit' } as const;

export function SweepChart({
  sweeps,
  messages,
  provider,
  shown,
  total,
  budget,
  onBudget,
}: SweepChartProps) {
  const [shownA, shownB] = shown;
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
  const l = useMemo(() => layoutSweepFrom(shownSweeps, total, lo), [shownSweeps, total, lo]);
  if (sweeps === SWEEP_PENDING)
    return (
      <div className="sweep" data-testid="sweep">
        <p className="sweep-note" data-testid="sweep-pending">
          Sweeping every budget of {fmtInt(messages)} messages…
        </p>
      </div>
    );
  if (!sweeps)
    return (
      <div className="sweep" data-testid="sweep">
        <p className="sweep-note" data-testid="sweep-skipped">
          No sweep on the page for {fmtInt(messages)} messages with {provider}: its cut checks
          validate the kept tail one cut at a time, which would freeze the page. Run{' '}
          <code>npm run --silent cli -- sweep FILE --provider {provider}</code> instead.
        </p>
      </div>
    );
  const cursorX = sweepCursorX(l, budget);
  const width = DEFAULT_SWEEP_SIZE.width;
  const exchange = sweeps.find((s) => s.policy === 'exchange');
  const primary = shownSweeps[0];
  return (
    <div className="sweep" data-testid="sweep">
      {/* A click sets the budget at that x (the x scale's inverse); focused, the arrow keys move
          it a pixel's worth of tokens (Shift: ten), PageUp/PageDown a tenth of the axis,
          Home/End to its ends. The slider and the cards follow the store's budget. */}
      <svg
        className="sweep-chart"
        data-testid="sweep-chart"
        width={width}
        height={l.height}
        viewBox={`0 0 ${width} ${l.height}`}
        cursor="crosshair"
        tabIndex={0}
        role="slider"
        aria-label={`Sweep of ${shown.join(' and ')} over budgets ${fmtInt(l.domain[0])} to ${fmtInt(l.domain[1])} tokens: click or use the arrow keys to set the budget`}
        aria-valuemin={l.domain[0]}
        aria-valuemax={l.domain[1]}
        aria-valuenow={Math.max(l.domain[0], Math.min(l.domain[1], budget))}
        aria-valuetext={`budget ${fmtInt(budget)} tokens`}
        onClick={(e) => {
          const r = e.currentTarget.getBoundingClientRect();
          if (r.width <= 0) return;
          onBudget(sweepBudgetAt(l, ((e.clientX - r.left) * width) / r.width));
        }}
        onKeyDown={(e) => {
          const next = sweepKeyBudget(l, budget, e.key, e.shiftKey);
          if (next === null) return;
          e.preventDefault();
          if (next !== budget) onBudget(next);
        }}
      >
        <SweepPlot layout={l} />
        {cursorX !== null && (
          <line className="sweep-cursor" x1={cursorX} x2={cursorX} y1={0} y2={l.height - 14} />
        )}
      </svg>
      <ul
        className="legend sweep-legend"
        data-testid="sweep-legend"
        aria-label="Sweep chart legend"
      >
        <li>
          <span className="swatch sw-valid" aria-hidden="true" />
          valid
        </li>
        <li>
          <span className="swatch sw-error" aria-hidden="true" />
          HTTP 400
        </li>
        <li title="Even after dropping all it may drop, the policy keeps more than the budget">
          <span className="swatch sw-nofit" aria-hidden="true" />
          cannot fit the budget
        </li>
        {shownSweeps.map((s, i) => (
          <li key={s.policy}>
            <span className={`swatch sw-line side-${i}`} aria-hidden="true" />
            tokens kept by {s.policy}
          </li>
        ))}
      </ul>
      <table className="sweep-table" data-testid="sweep-table">
        <thead>
          <tr>
            <th>policy</th>
            <th title="share of the budgets from the policy's smallest to the total that give a 400">
              budgets → 400
            </th>
            <th title="mean of tokens freed ÷ deficit over those budgets">mean overshoot</th>
          </tr>
        </thead>
        <tbody>
          {sweeps.map((s) => (
            <tr
              key={s.policy}
              className={shown.includes(s.policy) ? 'shown' : ''}
              data-testid="sweep-row"
              data-policy={s.policy}
              data-share400={s.share400}
            >
              <td>{s.policy}</td>
              <td className={s.share400 > 0 ? 'bad' : 'ok'}>{fmtPercent(s.share400 * 100)}</td>
              <td>{s.meanOvershoot === null ? '—' : `${s.meanOvershoot.toFixed(2)}×`}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {exchange && exchange.meanOvershoot !== null && (
        <p className="sweep-note" data-testid="exchange-overshoot">
          {overshootSentence(exchange.meanOvershoot)}
        </p>
      )}
      {primary && <RateCalculator policy={primary.policy} breakShare={primary.share400} />}
    </div>
  );
}

/**
 * The budget-independent SVG of the chart (labels, reference line, strips, kept paths, ticks):
 * re-rendered only when its layout changes, never on a slider step.
 */
const SweepPlot = memo(function SweepPlot({ layout: l }: { layout: SweepLayout }) {
  return (
    <>
      <text className="sweep-label muted-label" x={2} y={12}>
        tokens kept
      </text>
      <text className="sweep-label muted-label" x={2} y={24}>
        by budget
      </text>
      <path className="sweep-budget-line" d={l.budgetLine}>
        <title>kept = budget</title>
      </path>
      {l.strips.map((s, i) => (
        <g
          key={s.policy + i}
          className={`sweep-strip side-${i}`}
          data-testid="sweep-strip"
          data-policy={s.policy}
        >
          <text className="sweep-label" x={2} y={s.y + 10}>
            {s.policy.length > 11 ? `${s.policy.slice(0, 10)}…` : s.policy}
          </text>
          <path className="sweep-kept" d={s.keptPath}>
            <title>{`${s.policy}: tokens kept at each budget`}</title>
          </path>
          {s.bars.map((seg) => (
            <rect
              key={seg.lo}
              className={`sweep-seg ${seg.kind}`}
              data-kind={seg.kind}
              data-lo={seg.lo}
              data-hi={seg.hi}
              x={seg.x}
              y={s.y}
              width={Math.max(0.5, seg.width)}
              height={12}
            >
              <title>
                {seg.mixed
                  ? `${s.policy}: budgets ${fmtInt(seg.lo)}–${fmtInt(seg.hi)} → ${seg.kind === 'error' ? 'some give HTTP 400' : 'mixed'}`
                  : `${s.policy}: budgets ${fmtInt(seg.lo)}–${fmtInt(seg.hi)} → ${KIND_TEXT[seg.kind]}`}
              </title>
            </rect>
          ))}
        </g>
      ))}
      {l.ticks.map((t) => (
        <text
          key={t.value}
          className="sweep-tick"
          data-testid="sweep-tick"
          x={t.x}
          y={l.height - 2}
          textAnchor={t.anchor}
        >
          {t.label}
        </text>
      ))}
    </>
  );
});

/**
 * share of sessions that compact × share of compactions that break = one session in N. Raising
 * the trigger lowers the first factor only: fewer sessions break, each the same way.
 */
function RateCalculator({ policy, breakShare }: { policy: string; breakShare: number }) {
  const [compactPct, setCompactPct] = useState(20);
  const [raisedPct, setRaisedPct] = useState(5);
  const n = oneIn(compactPct / 100, breakShare);
  const nRaised = oneIn(raisedPct / 100, breakShare);
  const fmtN = (x: number | null) =>
    x === null ? 'none' : `one session in ${fmtInt(Math.max(1, x))}`;
  return (
    <div className="rate-calc" data-testid="rate-calc">
      <div>
        <label>
          sessions that compact{' '}
          <input
            type="number"
            className="small-num"
            min={0}
            max={100}
            value={compactPct}
            aria-label="Share of sessions that reach the compaction trigger, percent"
            onChange={(e) => setCompactPct(Math.max(0, Math.min(100, Number(e.target.value) || 0)))}
          />{' '}
          %
        </label>{' '}
        × cuts that break ({policy}) <b>{fmtPercent(breakShare * 100)}</b> ={' '}
        <b data-testid="rate-one-in">{fmtN(n)}</b> gets a 400.
      </div>
      <div>
        <label>
          raise the trigger, so only{' '}
          <input
            type="number"
            className="small-num"
            min={0}
            max={100}
            value={raisedPct}
            aria-label="Share of sessions that compact after raising the trigger, percent"
            onChange={(e) => setRaisedPct(Math.max(0, Math.min(100, Number(e.target.value) || 0)))}
          />{' '}
          % compact
        </label>
        : <b data-testid="rate-one-in-raised">{fmtN(nRaised)}</b> — the rate changes, not the
        failure: each of those compactions still breaks {fmtPercent(breakShare * 100)} of the time
        with the same 400.
      </div>
    </div>
  );
}
