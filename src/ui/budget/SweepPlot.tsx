/**
 * The sweep chart's plot: labels, the kept = budget reference line, one strip per shown policy
 * (valid / HTTP 400 / cannot fit, merged to whole pixels) with its kept-tokens step line, and the
 * axis ticks. d3 computed every coordinate (sweepLayout.ts); this only renders them.
 */
import { memo } from 'react';
import { fmtInt } from '../format.ts';
import type { SweepLayout } from './sweepLayout.ts';

const KIND_TEXT = { valid: 'valid', error: 'HTTP 400', nofit: 'cannot fit' } as const;

/**
 * The budget-independent SVG of the chart (labels, reference line, strips, kept paths, ticks):
 * re-rendered only when its layout changes, never on a slider step.
 */
export const SweepPlot = memo(function SweepPlot({ layout: l }: { layout: SweepLayout }) {
  return (
    <>
      <text className="sweep-label muted-label" x={2} y={34}>
        tokens kept
      </text>
      <text className="sweep-label muted-label" x={2} y={46}>
        by budget
      </text>
      {l.yTicks.map((t) => (
        <g key={t.label} data-testid="sweep-ytick">
          <line className="sweep-ytick-line" x1={60} x2={64} y1={t.y} y2={t.y} />
          <text
            className="sweep-tick"
            x={58}
            y={Math.max(9, Math.min(t.y + 3, l.height))}
            textAnchor="end"
          >
            {t.label}
          </text>
        </g>
      ))}
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
