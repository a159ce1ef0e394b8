/**
 * Renders the arcs computed by `layoutArcs` as SVG paths inside the virtualizer's content
 * element, so they share the rows' coordinates and scroll natively. d3 computed the `d` strings;
 * React owns the DOM. Each arc has a wide transparent hit path for hover and click; the hit path
 * is also a keyboard button (Tab to it, Enter or Space selects the pair) named for screen readers
 * by the pair's tool name, tool_use id and status.
 */
import { memo, useMemo } from 'react';
import type { ToolPair } from '../../model/pairing.ts';
import type { BrokenPairs } from '../../state/selectors.ts';
import type { ArcPath } from './arcLayout.ts';
import { PAIR_ERROR, PAIR_WARNING, pairWarningText, type PairSignals } from './pairSignals.ts';
import { pairStateText, STATUS_TEXT } from './verdictLabel.ts';

export interface ArcLayerProps {
  arcs: ArcPath[];
  /**
   * The pairs the arcs come from (for each arc's accessible name: tool name and tool_use id); only
   * the pairs laid out (issue 7: a Map of every pair was 70 ms at 67,000 messages).
   */
  pairs?: readonly ToolPair[];
  width: number;
  height: number;
  hovered: string | null;
  /**
   * The analysis's pair signals (`selectPairSignals`): red for a pair the verdict holds against
   * the request (labelled with the rule even when pairing says `answered`), amber for one pairing
   * finds odd but no error names.
   */
  signals?: PairSignals | undefined;
  /** Whether the verdict accepts the request (for a warning's words). */
  valid?: boolean;
  /** Eviction state per pair key from the simulator's primary policy (`cut` = one end evicted, `gone` = both). */
  evicted?: { get: (key: string) => 'kept' | 'cut' | 'gone' | undefined } | undefined;
  selected: string | null;
  /** Label of a message for stub markers (`#12`). */
  labelOf: (message: number) => string;
  onHover: (key: string | null) => void;
  onSelect: (key: string) => void;
}

/**
 * The accessible name of an arc's hit path: tool name, tool_use id and status (with the
 * provider's rule when an error violation names an `answered` pair: `pairStateText`).
 * @param broken the analysis's broken pairs (`selectBrokenPairs`); absent = pairing only
 */
export function arcLabel(a: ArcPath, pair: ToolPair | undefined, broken?: BrokenPairs): string {
  const name = pair?.name || 'tool';
  const id = pair?.id ? ` ${pair.id}` : ' (no id)';
  return `${name}${id}: ${arcStateText(a, broken)}${a.partial ? ' (partial answer)' : ''}`;
}

function arcStateText(a: ArcPath, broken: BrokenPairs | undefined): string {
  return broken
    ? pairStateText(a.status, broken.violation(a.id), broken.providerLabel)
    : STATUS_TEXT[a.status];
}

export const ArcLayer = memo(function ArcLayer(p: ArcLayerProps) {
  const byKey = useMemo(() => new Map((p.pairs ?? []).map((x) => [x.key, x])), [p.pairs]);
  return (
    <svg
      className="arc-layer"
      width={p.width}
      height={p.height}
      data-testid="arc-layer"
      aria-label="tool_use to tool_result arcs"
    >
      {p.arcs.map((a) => {
        const ev = p.evicted?.get(a.id);
        // Red: the verdict holds the pair against the request, or the simulator's eviction cut
        // one of its ends. Amber: pairing finds it odd but no error names it. Neither once both
        // ends are evicted (the pair is gone from the request).
        const level = p.signals
          ? p.signals.levelOf(a.id)
          : a.status === 'answered'
            ? 0
            : PAIR_ERROR;
        const broken = ev === 'cut' || (ev !== 'gone' && level === PAIR_ERROR);
        const warned = !broken && ev !== 'gone' && level === PAIR_WARNING;
        const cls = `arc${broken ? ' broken' : ''}${warned ? ' warned' : ''}${p.hovered === a.id ? ' hover' : ''}${p.selected === a.id ? ' selected' : ''}${ev ? ` ev-${ev}` : ''}`;
        const state = warned
          ? pairWarningText(a.status, p.signals?.broken.providerLabel ?? '', p.valid ?? false)
          : arcStateText(a, p.signals?.broken);
        const title = `${state}${a.partial ? ' (partial answer: a sibling was answered)' : ''}${ev === 'cut' ? ' — after eviction' : ev === 'gone' ? ' — both ends evicted' : ''}`;
        return (
          <g
            key={a.id}
            className={cls}
            data-arc-id={a.id}
            data-status={a.status}
            data-broken={broken ? 'true' : 'false'}
            data-warning={warned ? 'true' : undefined}
            data-partial={a.partial ? 'true' : undefined}
            data-evicted={ev}
            onMouseEnter={() => p.onHover(a.id)}
            onMouseLeave={() => p.onHover(null)}
            onClick={() => p.onSelect(a.id)}
          >
            <title>{title}</title>
            <path
              className="arc-hit"
              d={a.d}
              tabIndex={0}
              role="button"
              aria-label={
                warned
                  ? `${byKey.get(a.id)?.name || 'tool'} ${byKey.get(a.id)?.id ?? '(no id)'}: ${state}`
                  : arcLabel(a, byKey.get(a.id), p.signals?.broken)
              }
              aria-pressed={p.selected === a.id}
              onFocus={() => p.onHover(a.id)}
              onBlur={() => p.onHover(null)}
              onKeyDown={(e) => {
                if (e.key === 'Enter' || e.key === ' ') {
                  e.preventDefault();
                  e.stopPropagation();
                  p.onSelect(a.id);
                }
              }}
            />
            <path className="arc-line" d={a.d} />
            {a.from.kind === 'nowhere' && (
              <g className="arc-nowhere" transform={`translate(${a.x},${a.from.y})`}>
                <circle r={4} />
                <text y={-6} textAnchor="middle">
                  ?
                </text>
              </g>
            )}
            {a.to.kind === 'nowhere' && (
              <g className="arc-nowhere" transform={`translate(${a.x},${a.to.y})`}>
                <path d="M-4,-4L4,4M4,-4L-4,4" />
              </g>
            )}
            {[a.from, a.to].map((end, i) =>
              end.kind === 'stub' && end.message !== null ? (
                <g key={i} className="arc-stub" transform={`translate(${a.x},${end.y})`}>
                  <title>{`continues ${end.edge === 'top' ? 'above' : 'below'} to message ${p.labelOf(end.message)}`}</title>
                  <path d={end.edge === 'top' ? 'M-4,6L0,0L4,6' : 'M-4,-6L0,0L4,-6'} />
                </g>
              ) : null,
            )}
          </g>
        );
      })}
    </svg>
  );
});
