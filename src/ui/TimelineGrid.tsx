/**
 * The timeline's treegrid (Timeline.tsx) and its two kinds of row: an exchange's band label and
 * a message row (its eviction cell, then `MessageRow`'s cells). The grid and the rows are not
 * memoised themselves: they are the wrappers the virtualiser positions on every scroll frame; the
 * memoised `MessageRow` and `RowEviction` inside skip the work when their props are the same.
 */
import type { VirtualItem } from '@tanstack/react-virtual';
import type { CSSProperties, RefObject } from 'react';
import type { Exchange } from '../model/exchanges.ts';
import type { BlockWords } from '../model/parse/registry.ts';
import type { Message } from '../model/types.ts';
import type { PairsOfBlock, RowModel, ViolationTarget } from '../state/selectors.ts';
import { appStore } from '../state/store.ts';
import type { PairSignals } from './arcs/pairSignals.ts';
import { evictionRowClass, RowEviction, type TimelineEviction } from './budget/RowEviction.tsx';
import { fmtInt } from './format.ts';
import { MessageRow } from './MessageRow.tsx';
import { PartBoundary } from './PartBoundary.tsx';
import { bandLabel } from './timelineView.ts';

const NO_MATCH: ReadonlySet<string> = new Set<string>();

/**
 * A row's position: translated to its start, right of the arc gutter. While measuring is
 * deferred (a long timeline scrolling, issue 7), an unmeasured row keeps its estimated height,
 * clipped.
 * @param clip whether the row is not measured yet while measuring is deferred
 */
export function rowStyle(it: VirtualItem, gutter: number, clip: boolean): CSSProperties {
  return clip
    ? {
        transform: `translateY(${it.start}px)`,
        left: gutter,
        height: it.size,
        overflow: 'hidden',
      }
    : { transform: `translateY(${it.start}px)`, left: gutter };
}

export interface BandRowProps {
  item: VirtualItem;
  style: CSSProperties;
  exchange: Exchange;
  /** Its label (`bandLabel`). */
  label: string;
  /** The exchange's tokens. */
  tokens: number;
  /** Whether token counts are estimates (≈). */
  approx: boolean;
  measureRow: (el: HTMLDivElement | null) => void;
}

/** An exchange's band label row: its name, message count and tokens (treegrid level 1). */
export function BandRow({
  item,
  style,
  exchange: x,
  label,
  tokens,
  approx,
  measureRow,
}: BandRowProps) {
  return (
    <div
      className={`row band-row band-${x.index % 2}`}
      style={style}
      role="row"
      aria-rowindex={item.index + 1}
      aria-level={1}
      tabIndex={-1}
      data-index={item.index}
      data-testid="band"
      data-exchange={x.key}
      ref={measureRow}
    >
      <span className="band-label" role="rowheader">
        {label}
      </span>
      <span className="band-meta" role="gridcell">
        {fmtInt(x.messages.length)} message{x.messages.length === 1 ? '' : 's'} ·{' '}
        {approx ? '≈' : ''}
        {fmtInt(tokens)} tokens
      </span>
    </div>
  );
}

/**
 * What every message row of one timeline render shares; each row looks its own values up in it
 * (the same values and the same objects for every row, so `MessageRow`'s memo holds).
 */
export interface MessageRowsShared {
  messages: readonly Message[];
  /** Tokens per message (ours). */
  perMessage: Uint32Array;
  /** Largest per-message token count, for the bars' scale. */
  maxTokens: number;
  /** Whether token counts are estimates (≈). */
  approx: boolean;
  expanded: ReadonlySet<number>;
  /** Per message: 1 when the filter dims it. */
  dimmed: Uint8Array;
  /** Find matches (`message:block` keys) by message (`matchesByMessage`). */
  matchesByMessage: ReadonlyMap<number, ReadonlySet<string>>;
  /** The find query. */
  query: string;
  pairsOfBlock: PairsOfBlock;
  /** What the transcript's format calls a call and a result (`blockWordsOf`). */
  words: BlockWords;
  signals: PairSignals;
  /** Whether the verdict accepts the request. */
  valid: boolean;
  /** Pair keys highlighted (hovered or selected). */
  activePairs: ReadonlySet<string>;
  /** Worst violation rank per message (`worstViolationAt`). */
  violationAt: ReadonlyMap<number, ViolationTarget['rank']>;
  labelOf: (message: number) => string;
  /** The selected message, or -1. */
  selectedMessage: number;
  eviction: TimelineEviction | null;
  /** Lost-meaning mark kind per message (`data-lost`). */
  lostMarks: ReadonlyMap<number, string> | null;
  onToggle: (index: number) => void;
  onSelect: (index: number) => void;
  onSelectPair: (key: string) => void;
  onHoverPair: (key: string | null) => void;
  measureRow: (el: HTMLDivElement | null) => void;
}

export interface MessageGridRowProps {
  item: VirtualItem;
  style: CSSProperties;
  /** The message (ours). */
  message: number;
  /** Its exchange, or -1 for a pinned system/developer message. */
  exchange: number;
  /** Whether this row is the one in the tab order (roving tabindex). */
  tabbable: boolean;
  shared: MessageRowsShared;
}

/**
 * A message's treegrid row (level 2 in an exchange, 1 when pinned): the eviction cell, then
 * `MessageRow`'s cells. Focusing it with nothing selected selects it.
 */
export function MessageGridRow({
  item,
  style,
  message,
  exchange,
  tabbable,
  shared: s,
}: MessageGridRowProps) {
  const m = s.messages[message];
  if (!m) return null;
  const selected = s.selectedMessage === message;
  const matches = s.matchesByMessage.get(message);
  return (
    <div
      className={`row msg-row ${exchange >= 0 ? `band-${exchange % 2}` : 'pinned-row'}${evictionRowClass(s.eviction?.flags[message])}`}
      style={style}
      role="row"
      aria-rowindex={item.index + 1}
      aria-level={exchange >= 0 ? 2 : 1}
      aria-selected={selected}
      tabIndex={tabbable ? 0 : -1}
      data-index={item.index}
      data-message-index={message}
      data-lost={s.lostMarks?.get(message)}
      ref={s.measureRow}
      onFocus={(e) => {
        // Tabbing into the timeline with nothing chosen selects the row it lands on,
        // so the keys move on from there.
        if (e.target === e.currentTarget && appStore.getState().selection === null)
          s.onSelect(message);
      }}
    >
      {s.eviction && (
        <span className="ev-cell" role="gridcell">
          <RowEviction
            message={message}
            flags={s.eviction.flags[message] ?? 0}
            eviction={s.eviction}
            inTabOrder={tabbable}
          />
        </span>
      )}
      <PartBoundary part={`message ${s.labelOf(message)}`} resetKey={m} inline>
        <MessageRow
          message={m}
          label={s.labelOf(message)}
          inTabOrder={tabbable}
          tokens={s.perMessage[message] ?? 0}
          maxTokens={s.maxTokens}
          approx={s.approx}
          expanded={s.expanded.has(message)}
          selected={selected}
          dimmed={s.dimmed[message] === 1}
          matches={matches ?? NO_MATCH}
          query={matches ? s.query : ''}
          pairsOfBlock={s.pairsOfBlock}
          words={s.words}
          signals={s.signals}
          valid={s.valid}
          activePairs={s.activePairs}
          violation={s.violationAt.get(message) ?? null}
          onToggle={s.onToggle}
          onSelect={s.onSelect}
          onSelectPair={s.onSelectPair}
          onHoverPair={s.onHoverPair}
        />
      </PartBoundary>
    </div>
  );
}

export interface TimelineGridProps {
  gridRef: RefObject<HTMLDivElement | null>;
  rowModel: RowModel;
  /** The rows to draw (the virtualiser's, pinned rows included). */
  items: readonly VirtualItem[];
  exchanges: readonly Exchange[];
  /** Tokens per exchange (`selectExchangeTokens`), for the band labels. */
  exchangeTokens: ArrayLike<number>;
  /** The row in the tab order (`tabRowOf`), or -1. */
  tabRow: number;
  /** Whether measuring is deferred now, and the row keys measured so far (`useRowMeasurement`). */
  deferMeasure: boolean;
  measuredKeys: ReadonlySet<number>;
  /** The arc gutter's width, px: rows start at its right edge. */
  gutter: number;
  shared: MessageRowsShared;
}

/** The treegrid of the rows drawn: a band label per exchange, then its message rows. */
export function TimelineGrid(p: TimelineGridProps) {
  const { rowModel, exchanges, shared } = p;
  const hasLeading = exchanges[0]?.leading === true;
  return (
    <div
      className="timeline-grid"
      ref={p.gridRef}
      role="treegrid"
      aria-label="Timeline: exchanges and their messages (j/k or arrows move, Enter opens)"
      aria-rowcount={rowModel.count}
      aria-readonly="true"
      data-testid="timeline-grid"
    >
      {p.items.map((it) => {
        const row = rowModel.row(it.index);
        if (!row) return null;
        const clip = p.deferMeasure && !p.measuredKeys.has(Number(it.key));
        const style = rowStyle(it, p.gutter, clip);
        if (row.kind === 'message')
          return (
            <MessageGridRow
              key={it.key}
              item={it}
              style={style}
              message={row.message}
              exchange={row.exchange}
              tabbable={it.index === p.tabRow}
              shared={shared}
            />
          );
        const x = exchanges[row.exchange];
        return x ? (
          <BandRow
            key={it.key}
            item={it}
            style={style}
            exchange={x}
            label={bandLabel(x, hasLeading)}
            tokens={p.exchangeTokens[x.index] ?? 0}
            approx={shared.approx}
            measureRow={shared.measureRow}
          />
        ) : null;
      })}
    </div>
  );
}
