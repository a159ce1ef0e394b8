/**
 * The sweep chart: across every budget from the smallest a shown policy reaches to the total,
 * where each shown policy's result is valid or a 400 (one strip each) and the tokens it keeps (a
 * step line). d3 computed the geometry (sweepLayout.ts); React renders the SVG. Beside it: the
 * share of budgets that give a 400 for every policy, the mean overshoot of `exchange`, and the
 * rate calculator. The layout (and the SVG of the strips) is memoised on the sweep and the axis'
 * left end; a slider step only moves the budget cursor.
 */
import { useState } from 'react';
import type { PolicySweep } from '../../model/evict/sweep.ts';
import { SWEEP_PENDING } from '../../state/eviction.ts';
import { fmtInt } from '../format.ts';
import { fmtPercent, overshootSentence } from './contextWindows.ts';
import { RateCalculator } from './RateCalculator.tsx';
import { DEFAULT_SWEEP_SIZE, sweepCursorX, type SweepLayout } from './sweepLayout.ts';
import { useSweepLayout } from './useSweepLayout.ts';
import { sweepBudgetAt, sweepKeyBudget, sweepReadout } from './sweepBudget.ts';
import { SweepPlot } from './SweepPlot.tsx';

export interface SweepChartProps {
  /**
   * Sweeps of every policy (`selectSweep`); `pending` while the worker computes them; null
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

/** The sweep chart with its legend, table and rate calculator; a note while pending or skipped. */
export function SweepChart({
  sweeps: sweepsNow,
  messages,
  provider,
  shown,
  total,
  budget,
  onBudget,
}: SweepChartProps) {
  // The sweeps drawn: those of the layout (a new long sweep's is made over several tasks).
  const drawn = useSweepLayout(sweepsNow, shown, total, budget);
  const { shownSweeps, layout, sweeps } = drawn;
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
  const exchange = sweeps.find((s) => s.policy === 'exchange');
  const primary = shownSweeps[0];
  return (
    <div className="sweep" data-testid="sweep">
      <SweepContents />
      <SweepSvg
        layout={layout}
        shown={shown}
        sweeps={shownSweeps}
        budget={budget}
        onBudget={onBudget}
      />
      <SweepLegend policies={shownSweeps.map((s) => s.policy)} />
      <div id="sweep-table-part">
        <SweepTable sweeps={sweeps} shown={shown} />
      </div>
      {exchange && exchange.meanOvershoot !== null && (
        <p className="sweep-note" id="sweep-overshoot-part" data-testid="exchange-overshoot">
          {overshootSentence(exchange.meanOvershoot)}
        </p>
      )}
      <div id="sweep-rate-part">
        {primary && <RateCalculator policy={primary.policy} breakShare={primary.share400} />}
      </div>
    </div>
  );
}

/**
 * The chart as a slider: the memoised plot plus the budget cursor, the only part a slider step
 * moves. A click sets the budget at that x (the x scale's inverse); focused, the arrow keys move
 * it a pixel's worth of tokens (Shift: ten), PageUp/PageDown a tenth of the axis, Home/End to
 * its ends. The slider and the cards follow the store's budget.
 */
function SweepSvg({
  layout: l,
  shown,
  sweeps,
  budget,
  onBudget,
}: {
  layout: SweepLayout;
  shown: readonly [string, string];
  sweeps: readonly PolicySweep[];
  budget: number;
  onBudget: (b: number) => void;
}) {
  // The budget under the pointer (null: not hovering): the readout says what it would give.
  const [hover, setHover] = useState<number | null>(null);
  const cursorX = sweepCursorX(l, budget);
  const hoverX = hover === null ? null : sweepCursorX(l, hover);
  const width = DEFAULT_SWEEP_SIZE.width;
  const at = (e: React.MouseEvent<SVGSVGElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    return r.width <= 0 ? null : sweepBudgetAt(l, ((e.clientX - r.left) * width) / r.width);
  };
  return (
    <>
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
        aria-valuetext={`budget ${fmtInt(budget)} tokens: ${sweepReadout(sweeps, budget)
          .map((p) => `${p.policy} ${READOUT_KIND[p.kind]}, keeps ${fmtInt(p.kept)}`)
          .join('; ')}`}
        onClick={(e) => {
          const b = at(e);
          if (b !== null) onBudget(b);
        }}
        onMouseMove={(e) => setHover(at(e))}
        onMouseLeave={() => setHover(null)}
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
        {hoverX !== null && (
          <line className="sweep-hover" x1={hoverX} x2={hoverX} y1={0} y2={l.height - 14} />
        )}
      </svg>
      <SweepReadout sweeps={sweeps} budget={hover ?? budget} hovering={hover !== null} />
    </>
  );
}

const READOUT_KIND = { valid: 'valid', error: 'HTTP 400', nofit: 'cannot fit' } as const;

/**
 * The chart's readout: at the budget under the pointer (else the chosen budget, which the
 * focused chart's keys move), each shown policy's verdict and the tokens it keeps.
 */
function SweepReadout({
  sweeps,
  budget,
  hovering,
}: {
  sweeps: readonly PolicySweep[];
  budget: number;
  hovering: boolean;
}) {
  const points = sweepReadout(sweeps, budget);
  return (
    <p className="sweep-readout" data-testid="sweep-readout">
      {hovering ? 'At' : 'Budget'} {fmtInt(budget)} tokens:{' '}
      {points.map((p, i) => (
        <span key={p.policy} data-policy={p.policy} data-kind={p.kind}>
          {i > 0 ? ' · ' : ''}
          {p.policy} {READOUT_KIND[p.kind]}, keeps {fmtInt(p.kept)}
        </span>
      ))}
      {hovering ? ' (click to choose this budget)' : ''}
    </p>
  );
}

/**
 * What the sweep column holds below the chart, as links that bring each part into view: on a
 * short window (1440×900) the panel and the column scroll on their own, and this line, above the
 * chart where it is always seen, says so and where each part is.
 */
function SweepContents() {
  const show = (id: string) =>
    document.getElementById(id)?.scrollIntoView({ block: 'nearest', behavior: 'smooth' });
  const parts: [string, string][] = [
    ['sweep-table-part', '400 share per policy'],
    ['sweep-overshoot-part', 'overshoot'],
    ['sweep-rate-part', 'rate calculator'],
  ];
  return (
    <p className="sweep-contents" data-testid="sweep-contents">
      Below the chart (scroll, or drag the panel&apos;s lower edge):{' '}
      {parts.map(([id, label], i) => (
        <span key={id}>
          {i > 0 ? ' · ' : ''}
          <button type="button" className="linklike" onClick={() => show(id)}>
            {label}
          </button>
        </span>
      ))}{' '}
      ↓
    </p>
  );
}

/** The chart's legend: the three strip colours and one kept line per shown policy. */
function SweepLegend({ policies }: { policies: readonly string[] }) {
  return (
    <ul className="legend sweep-legend" data-testid="sweep-legend" aria-label="Sweep chart legend">
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
      {policies.map((policy, i) => (
        <li key={policy}>
          <span className={`swatch sw-line side-${i}`} aria-hidden="true" />
          tokens kept by {policy}
        </li>
      ))}
    </ul>
  );
}

/** Every policy's share of budgets that give a 400 and its mean overshoot; the shown two marked. */
function SweepTable({
  sweeps,
  shown,
}: {
  sweeps: readonly PolicySweep[];
  shown: readonly [string, string];
}) {
  return (
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
  );
}
