/**
 * The diff's rows, virtualised (@tanstack/react-virtual, as the timeline): each row the left
 * message, the change, the right message, with each side's tool-pair arcs in its gutter (a
 * pairing the change broke in red), and the line where the prompt-cache prefix stops matching.
 * Rows have one height, so a row's place is its index times that height, and the arcs drawn are
 * those reaching into the rows in view, found through an index (`arcsInRows`) rather than a pass
 * over every arc: a scroll frame's work follows the rows shown, at 100,000 rows a side as at 100.
 */
import { useVirtualizer } from '@tanstack/react-virtual';
import { useEffect, useRef, useState } from 'react';
import type { MessageBrief } from '../../state/diffView.ts';
import type { DiffRow } from '../../model/diff/index.ts';
import {
  arcsInRows,
  leftSpan,
  type ArcIndex,
  type DiffArc,
  type DiffNav,
} from '../../state/diffView.ts';

/** Row height, px. */
export const DIFF_ROW_H = 30;
/** The gap above the first row past the cache prefix, where the cache line's label sits, px. */
export const CACHE_GAP_H = 18;
const GUTTER = 36;

/** Where rows are: row `i`'s top (px), the rows below the cache line moved down by its gap. */
export interface RowPlaces {
  top: (i: number) => number;
  /** All rows' height with the gap. */
  height: number;
}

/** Row places for `count` rows with the cache line above row `gapAt` (null: no line). */
export function rowPlaces(count: number, gapAt: number | null): RowPlaces {
  const gap = gapAt === null ? 0 : CACHE_GAP_H;
  return {
    top: (i) => i * DIFF_ROW_H + (gapAt !== null && i >= gapAt ? gap : 0),
    height: count * DIFF_ROW_H + gap,
  };
}

/** The SVG path of an arc between two rows in a gutter (bulging outwards from the cells). */
export function arcPath(a: DiffArc, side: 'left' | 'right', at: RowPlaces['top']): string {
  const y1 = at(a.from) + DIFF_ROW_H / 2;
  if (a.stub) {
    // Half an arc, ending in the gutter towards the partner that is gone.
    const x0 = side === 'left' ? GUTTER - 2 : 2;
    const x1 = side === 'left' ? x0 - 14 : x0 + 14;
    const y2 = y1 + (a.stub === 'up' ? -1 : 1) * (DIFF_ROW_H / 2 + 2);
    return `M${x0},${y1} C${x1},${y1} ${x1},${y1} ${x1},${y2}`;
  }
  const y2 = at(a.to) + DIFF_ROW_H / 2;
  const depth = Math.min(GUTTER - 4, 8 + Math.abs(a.to - a.from) * 3);
  const x0 = side === 'left' ? GUTTER - 2 : 2;
  const x1 = side === 'left' ? x0 - depth : x0 + depth;
  return `M${x0},${y1} C${x1},${y1} ${x1},${y2} ${x0},${y2}`;
}

function Arcs({
  arcs,
  side,
  first,
  last,
  places,
}: {
  arcs: ArcIndex;
  side: 'left' | 'right';
  first: number;
  last: number;
  places: RowPlaces;
}) {
  // Only the arcs that reach into the rows mounted: found through the index, so a frame's work
  // follows the rows in view, not every arc of the side.
  const shown = arcsInRows(arcs, first, last);
  return (
    <svg
      className={`diff-arcs diff-arcs-${side}`}
      width={GUTTER}
      height={places.height}
      aria-hidden="true"
      data-testid={`diff-arcs-${side}`}
    >
      {shown.map((a) => (
        <path
          key={`${a.id}-${a.from}-${a.to}`}
          d={arcPath(a, side, places.top)}
          className={a.broken ? `diff-arc broken${a.stub ? ' stub' : ''}` : 'diff-arc'}
          data-broken={a.broken ? 'true' : 'false'}
          data-stub={a.stub}
          data-arc-id={a.id}
        />
      ))}
    </svg>
  );
}

function Cell({
  brief,
  index,
  side,
}: {
  brief: MessageBrief | undefined;
  index: number | null;
  side: 'left' | 'right';
}) {
  if (index === null || !brief)
    return <div role="cell" className={`diff-cell side-${side} empty`} />;
  return (
    <div role="cell" className={`diff-cell side-${side}`}>
      <span className="diff-num">{brief.label ?? `#${index}`}</span>{' '}
      <span className={`diff-role role-${brief.role}`}>{brief.role}</span>{' '}
      <span className="diff-text">{brief.text || '(no text)'}</span>
    </div>
  );
}

export interface DiffRowsProps {
  rows: readonly DiffRow[];
  left: readonly MessageBrief[];
  right: readonly MessageBrief[];
  nav: DiffNav;
  /** The row the change keys are on, or null. */
  current: number | null;
  /** Where the cache prefix ends, in words (the line's label). */
  cacheLabel: string;
  /** Open a rewritten row's character diff. */
  onOpen: (row: number) => void;
  /** The row scrolled into view when the rows are new (the summary or seal, else the first change). */
  first: number | null;
}

/** One row: the left message, the change (a rewritten one opens its character diff), the right. */
function Row({ index, top, p }: { index: number; top: number; p: DiffRowsProps }) {
  const r = p.rows[index] as DiffRow;
  const broken = p.nav.brokenRows.has(index);
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      aria-current={index === p.current ? 'true' : undefined}
      className={`diff-row change-${r.change}${broken ? ' broken' : ''}`}
      data-testid="diff-row"
      data-row={index}
      data-change={r.change}
      style={{ transform: `translateY(${top}px)` }}
    >
      <Cell brief={r.left === null ? undefined : p.left[r.left]} index={r.left} side="left" />
      <div role="cell" className="diff-change">
        {r.change === 'rewritten' && r.right !== null && leftSpan(r) !== null ? (
          <button type="button" onClick={() => p.onOpen(index)} data-testid="diff-open-chars">
            rewritten ▸
          </button>
        ) : (
          <span className="diff-label">{r.change}</span>
        )}
        {broken && <span className="diff-broken-flag"> ✕ broken</span>}
      </div>
      <Cell brief={r.right === null ? undefined : p.right[r.right]} index={r.right} side="right" />
    </div>
  );
}

/**
 * The side a narrow screen shows (diff.css, ≤ 640 px): both sides and their gutters do not fit
 * 390 px, and the right one was cut off with its arcs (newcomer), so there one side shows at a
 * time, beside the change column, and this switch picks it. Hidden (CSS) where both fit.
 */
function SideSwitch({
  side,
  setSide,
}: {
  side: 'left' | 'right';
  setSide: (s: 'left' | 'right') => void;
}) {
  return (
    <div
      className="diff-side-switch"
      role="group"
      aria-label="Side shown"
      data-testid="diff-side-switch"
    >
      <span className="lbl">Show</span>
      {(['left', 'right'] as const).map((s) => (
        <button
          key={s}
          type="button"
          aria-pressed={side === s}
          data-testid={`diff-show-${s}`}
          onClick={() => setSide(s)}
        >
          {s === 'left' ? 'Left (before)' : 'Right (after)'}
        </button>
      ))}
    </div>
  );
}

export function DiffRows(p: DiffRowsProps) {
  const { rows, nav, current, cacheLabel } = p;
  const scrollRef = useRef<HTMLDivElement>(null);
  // Narrow screens show one side: the right (the request that gets the answer) first.
  const [side, setSide] = useState<'left' | 'right'>('right');
  // The cache line's label has a gap of its own above the first row past the prefix (below
  // the last row when every row is in it), so it covers no row's text.
  const gapAt = nav.cacheBreakRow;
  const places = rowPlaces(rows.length, gapAt);
  const v = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    // The row below the cache line holds the line's label above it.
    estimateSize: (i) => DIFF_ROW_H + (i === gapAt ? CACHE_GAP_H : 0),
    overscan: 12,
  });
  useEffect(() => {
    if (current !== null) v.scrollToIndex(current, { align: 'center' });
  }, [current, v]);
  useEffect(() => {
    const row = p.first;
    if (row === null) return;
    v.scrollToIndex(row, { align: 'center' });
    // Then the page, when the rows' pane is below the fold: the row itself in the window.
    const frame = requestAnimationFrame(() =>
      scrollRef.current
        ?.querySelector(`[data-row="${row}"]`)
        ?.scrollIntoView({ block: 'nearest', inline: 'nearest' }),
    );
    return () => cancelAnimationFrame(frame);
  }, [p.first, rows, v]);
  const items = v.getVirtualItems();
  const first = items[0]?.index ?? 0;
  const last = items[items.length - 1]?.index ?? 0;
  const height = places.height;
  return (
    <>
      <SideSwitch side={side} setSide={setSide} />
      <div className="diff-scroll" ref={scrollRef} tabIndex={0} aria-label="Diff rows">
        <div
          role="table"
          aria-rowcount={rows.length + 1}
          className={`diff-table show-${side}`}
          aria-label="Messages of the two sides"
        >
          <div role="rowgroup" className="diff-head">
            <div role="row" aria-rowindex={1} className="diff-row diff-header-row">
              <div role="columnheader" className="diff-cell side-left">
                Left
              </div>
              <div role="columnheader" className="diff-change">
                Change
              </div>
              <div role="columnheader" className="diff-cell side-right">
                Right
              </div>
            </div>
          </div>
          <div role="rowgroup" className="diff-body" style={{ height }}>
            <Arcs arcs={nav.arcIndex.left} side="left" first={first} last={last} places={places} />
            <Arcs
              arcs={nav.arcIndex.right}
              side="right"
              first={first}
              last={last}
              places={places}
            />
            {nav.cacheBreakRow !== null && (
              <div
                className="diff-cache-line"
                style={{ top: nav.cacheBreakRow * DIFF_ROW_H }}
                data-testid="diff-cache-line"
                aria-hidden="true"
              >
                <span>{cacheLabel}</span>
              </div>
            )}
            {items.map((it) => (
              <Row key={it.index} index={it.index} top={places.top(it.index)} p={p} />
            ))}
          </div>
        </div>
      </div>
    </>
  );
}
