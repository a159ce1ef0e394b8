/**
 * Renders the arcs computed by `layoutArcs` as SVG paths inside the virtualizer's content
 * element, so they share the rows' coordinates and scroll natively. d3 computed the `d` strings;
 * React owns the DOM. Each arc has a wide transparent hit path for hover and click; the hit path
 * is also a keyboard button (Tab to it, Enter or Space selects the pair) named for screen readers
 * by the pair's tool name, tool_use id and status.
 */
import { memo, useMemo } from 'react';
import type { ToolPair } from '../../model/pairing.ts';
import type { ArcPath } from './arcLayout.ts';
import { arcLook, type ArcEviction } from './arcLook.ts';
import type { PairSignals } from './pairSignals.ts';

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
  /** A preview's arcs (`pendingSignals`): an open end is drawn muted, not red. */
  pending?: boolean;
  /** Eviction state per pair key from the simulator's primary policy (`cut` = one end evicted, `gone` = both). */
  evicted?: { get: (key: string) => ArcEviction | undefined } | undefined;
  selected: string | null;
  /** Label of a message for stub markers (`#12`). */
  labelOf: (message: number) => string;
  onHover: (key: string | null) => void;
  onSelect: (key: string) => void;
}

/**
 * The markers at an arc's open ends: `?` for an orphan result (no call), ✕ for an unanswered
 * call (no result), an arrow where the arc leaves the view (titled with the far message).
 */
function ArcEnds({ a, labelOf }: { a: ArcPath; labelOf: (message: number) => string }) {
  return (
    <>
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
            <title>{`continues ${end.edge === 'top' ? 'above' : 'below'} to message ${labelOf(end.message)}`}</title>
            <path d={end.edge === 'top' ? 'M-4,6L0,0L4,6' : 'M-4,-6L0,0L4,-6'} />
          </g>
        ) : null,
      )}
    </>
  );
}

interface ArcProps {
  a: ArcPath;
  /** The arc's pair (tool name and tool_use id for its name), if laid out. */
  pair: ToolPair | undefined;
  /** The pair's eviction state under the simulator's primary policy, if any. */
  ev: ArcEviction | undefined;
  signals: PairSignals | undefined;
  valid: boolean;
  hovered: boolean;
  selected: boolean;
  labelOf: (message: number) => string;
  onHover: (key: string | null) => void;
  onSelect: (key: string) => void;
}

/**
 * One arc: its group (class and data attributes), the hit path (a keyboard button), the line
 * and its end markers.
 */
function Arc({
  a,
  pair,
  ev,
  signals,
  valid,
  hovered,
  selected,
  labelOf,
  onHover,
  onSelect,
}: ArcProps) {
  const { broken, warned, title, label } = arcLook(a, ev, signals, valid, pair);
  const cls = `arc${broken ? ' broken' : ''}${warned ? ' warned' : ''}${hovered ? ' hover' : ''}${selected ? ' selected' : ''}${ev ? ` ev-${ev}` : ''}`;
  return (
    <g
      className={cls}
      data-arc-id={a.id}
      data-status={a.status}
      data-broken={broken ? 'true' : 'false'}
      data-warning={warned ? 'true' : undefined}
      data-partial={a.partial ? 'true' : undefined}
      data-evicted={ev}
      onMouseEnter={() => onHover(a.id)}
      onMouseLeave={() => onHover(null)}
      onClick={() => onSelect(a.id)}
    >
      <title>{title}</title>
      <path
        className="arc-hit"
        d={a.d}
        tabIndex={0}
        role="button"
        aria-label={label}
        aria-pressed={selected}
        onFocus={() => onHover(a.id)}
        onBlur={() => onHover(null)}
        onKeyDown={(e) => {
          if (e.key === 'Enter' || e.key === ' ') {
            e.preventDefault();
            e.stopPropagation();
            onSelect(a.id);
          }
        }}
      />
      <path className="arc-line" d={a.d} />
      <ArcEnds a={a} labelOf={labelOf} />
    </g>
  );
}

/** The arc gutter: one `Arc` per laid-out arc, in an SVG the size of the timeline's content. */
export const ArcLayer = memo(function ArcLayer(p: ArcLayerProps) {
  const byKey = useMemo(() => new Map((p.pairs ?? []).map((x) => [x.key, x])), [p.pairs]);
  return (
    <svg
      className={`arc-layer${p.pending ? ' pending' : ''}`}
      width={p.width}
      height={p.height}
      data-testid="arc-layer"
      aria-label="tool_use to tool_result arcs"
    >
      {p.arcs.map((a) => (
        <Arc
          key={a.id}
          a={a}
          pair={byKey.get(a.id)}
          ev={p.evicted?.get(a.id)}
          signals={p.signals}
          valid={p.valid ?? false}
          hovered={p.hovered === a.id}
          selected={p.selected === a.id}
          labelOf={p.labelOf}
          onHover={p.onHover}
          onSelect={p.onSelect}
        />
      ))}
    </svg>
  );
});
