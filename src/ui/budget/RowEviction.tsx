/**
 * The simulator's marks on one timeline row: two thin lanes at the row's right edge (one per
 * compared policy, filled when that policy evicts the message) and the cut marker on the row's
 * top edge — the cut between this message and the one above: dropping every non-pinned message
 * above it is safe (green) or a named 400 (red). Hover or keyboard focus shows the exact body for
 * the current provider in a tooltip; the body is computed only for the marker shown.
 */
import { ruleWords } from '../../model/ruleWords.ts';
import { memo, useId, useLayoutEffect, useRef, useState } from 'react';
import { createPortal } from 'react-dom';
import type { ToolPair } from '../../model/pairing.ts';
import type { MarkerLookup, PairStateLookup } from '../../state/eviction.ts';
import { EDITED_PRIMARY, EVICTED_COMPARED, EVICTED_PRIMARY } from '../../state/eviction.ts';
import { fmtInt, prettyJson } from '../format.ts';
import type { CutWords } from '../../model/evict/cutWords.ts';
import { causeLabel } from '../../model/messageLabels.ts';
import { RequestIndexNote } from '../RequestIndexNote.tsx';

/** What the timeline needs from the simulator (built by App from `useEviction`). */
export interface TimelineEviction {
  /** Per message (ours): EVICTED_PRIMARY / EVICTED_COMPARED / EDITED_PRIMARY bits. */
  flags: Uint8Array;
  /** Arc pairs with the primary policy's derived status (same keys as `selectArcPairs`). */
  pairs: readonly ToolPair[];
  /** Per pair key: `cut` (one end evicted) or `gone` (both). */
  pairState: PairStateLookup;
  markers: MarkerLookup;
  /** Names of the two compared policies, for the lane titles. */
  policies: readonly [string, string];
  /** Provider label for the tooltip ("Anthropic Messages"). */
  providerLabel: string;
  /** Row label of a message (`#12`, or `#3.2` where raw indices repeat), for the tooltip. */
  labelOf: (message: number) => string;
  /** What the cut above message `k` drops (`cutWords`); null: it drops nothing, no marker. */
  cutWordsOf: (k: number) => CutWords | null;
  /** The budget that selects the cut above message `k` (the primary policy's, else message's), or null. */
  budgetForCut?: (k: number) => number | null;
  /** Set the budget to `budgetForCut(k)` (a click on a cut marker). */
  selectCut?: (k: number) => void;
}

/** Extra class names of a row from its eviction flags. */
export function evictionRowClass(flags: number | undefined): string {
  const f = flags ?? 0;
  if (f === 0) return '';
  return `${f & EVICTED_PRIMARY ? ' ev-primary' : ''}${f & EVICTED_COMPARED ? ' ev-compared' : ''}${f & EDITED_PRIMARY ? ' ev-edited' : ''}`;
}

export interface RowEvictionProps {
  message: number;
  flags: number;
  eviction: TimelineEviction;
  /** Whether the cut marker is in the tab order: only on the timeline's tabbable row. */
  inTabOrder: boolean;
}

export const RowEviction = memo(function RowEviction({
  message,
  flags,
  eviction,
  inTabOrder,
}: RowEvictionProps) {
  const [a, b] = eviction.policies;
  const words = message > 0 ? eviction.cutWordsOf(message) : null;
  return (
    <>
      <span
        className={`ev-lane ev-lane-a${flags & EVICTED_PRIMARY ? ' on' : ''}`}
        data-testid="evict-lane"
        data-policy={a}
        data-evicted={flags & EVICTED_PRIMARY ? 'true' : 'false'}
        title={flags & EVICTED_PRIMARY ? `evicted by ${a}` : `kept by ${a}`}
      />
      <span
        className={`ev-lane ev-lane-b${flags & EVICTED_COMPARED ? ' on' : ''}`}
        data-testid="evict-lane"
        data-policy={b}
        data-evicted={flags & EVICTED_COMPARED ? 'true' : 'false'}
        title={flags & EVICTED_COMPARED ? `evicted by ${b}` : `kept by ${b}`}
      />
      {words && <CutMarker k={message} words={words} eviction={eviction} inTabOrder={inTabOrder} />}
    </>
  );
});

function CutMarker({
  k,
  words,
  eviction,
  inTabOrder,
}: {
  k: number;
  words: CutWords;
  eviction: TimelineEviction;
  inTabOrder: boolean;
}) {
  const safe = eviction.markers.isSafe(k);
  // The marker the tooltip is anchored to while shown (hover or focus); null = closed.
  const [anchor, setAnchor] = useState<HTMLElement | null>(null);
  const open = anchor !== null;
  const id = useId();
  const label = `${words.label} — ${safe ? 'safe' : 'HTTP 400'}`;
  return (
    <>
      <button
        type="button"
        className={`cut-marker ${safe ? 'safe' : 'unsafe'}`}
        data-testid="cut-marker"
        tabIndex={inTabOrder ? 0 : -1}
        data-cut={k}
        data-safe={safe ? 'true' : 'false'}
        aria-label={label}
        aria-describedby={open ? id : undefined}
        onMouseEnter={(e) => setAnchor(e.currentTarget)}
        onMouseLeave={() => setAnchor(null)}
        onFocus={(e) => setAnchor(e.currentTarget)}
        onBlur={() => setAnchor(null)}
        onKeyDown={(e) => {
          if (e.key === 'Escape') setAnchor(null);
        }}
        onClick={(e) => {
          e.stopPropagation();
          eviction.selectCut?.(k);
        }}
      />
      {anchor && <CutTooltip id={id} k={k} head={words.head} anchor={anchor} eviction={eviction} />}
    </>
  );
}

function CutTooltip({
  id,
  k,
  head,
  anchor,
  eviction,
}: {
  id: string;
  k: number;
  /** What the cut drops (`CutWords.head`). */
  head: string;
  anchor: HTMLElement;
  eviction: TimelineEviction;
}) {
  const tipRef = useRef<HTMLDivElement>(null);
  const [pos, setPos] = useState<{ left: number; top: number } | null>(null);
  // Only the marker shown builds its error object (the markers keep a bit per cut).
  const err = eviction.markers.errorAt(k);
  const selectBudget = eviction.budgetForCut?.(k) ?? null;
  useLayoutEffect(() => {
    const r = anchor.getBoundingClientRect();
    const h = tipRef.current?.offsetHeight ?? 0;
    const w = tipRef.current?.offsetWidth ?? 0;
    const below = r.bottom + 6;
    const top = below + h > window.innerHeight - 4 ? Math.max(4, r.top - 6 - h) : below;
    // Right of the marker, so the arc gutter stays visible.
    const left = Math.max(4, Math.min(r.right + 16, window.innerWidth - w - 4));
    setPos({ left, top });
  }, [anchor, k]);
  // Portalled out of the timeline (its scroller's `contain: strict` would clip a fixed box and
  // place it relative to the scroller), but into the landmark that holds the marker rather than
  // onto <body>: content outside every landmark is what axe's `region` rule flags. Nothing
  // between <main> and the viewport contains fixed boxes, so it shows where it did.
  return createPortal(
    <div
      ref={tipRef}
      id={id}
      role="tooltip"
      className={`cut-tooltip ${err ? 'unsafe' : 'safe'}`}
      data-testid="cut-tooltip"
      style={pos ? { left: pos.left, top: pos.top } : { left: -9999, top: 0 }}
    >
      <div className="cut-tooltip-head">{head}</div>
      {err ? (
        <>
          <div>
            <b>HTTP 400</b> from {eviction.providerLabel} · [{err.code}] {ruleWords(err.rule)} at
            message {causeLabel({ of: eviction.labelOf }, err)}
          </div>
          <pre data-testid="cut-error-body">{prettyJson(err.error)}</pre>
          <RequestIndexNote
            providerPath={err.providerPath}
            rowLabel={
              err.pathIndex !== undefined
                ? eviction.labelOf(err.pathIndex)
                : err.index >= 0
                  ? eviction.labelOf(err.index)
                  : null
            }
          />
        </>
      ) : (
        <div>safe: {eviction.providerLabel} accepts the request that starts here.</div>
      )}
      {selectBudget !== null && (
        <div className="cut-tooltip-select" data-testid="cut-select-hint">
          Click (or Enter) to select this cut: budget {fmtInt(selectBudget)} tokens.
        </div>
      )}
    </div>,
    anchor.closest('main') ?? document.body,
  );
}
