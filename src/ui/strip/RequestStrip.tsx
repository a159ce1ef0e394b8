/**
 * The request strip (issue 33), above the timeline of a file holding several requests (an OTel
 * trace's LLM calls, a HAR's or batch's entries, an eval log's samples, a session's model
 * calls): one mark per request (its height the tokens, its colour the verdict, flags for a
 * compaction, a retry, a request that could not be read), the first failing request in words.
 * Choosing a mark shows that request; `[` and `]` step to the previous and next. It is the one
 * way to choose a request (it replaced the Request menu).
 */
import { memo, useEffect, useRef, useState, type RefObject } from 'react';
import { useStore } from 'zustand';
import {
  ensureRequestListing,
  requestListingStore,
  selectRequestsJob,
  selectStreamedListing,
  selectStrip,
  type StripMark,
} from '../../state/requests.ts';
import { useAppStore } from '../../state/store.ts';
import { useSession } from '../useSession.ts';
import { isTypingTarget } from '../input/typingTarget.ts';
import { fmtInt } from '../format.ts';
import { markText } from './markText.ts';
import './strip.css';

/** Most marks drawn at once: a long session log's calls are shown a window at a time. */
export const MARK_WINDOW = 200;

/**
 * The marks drawn, `[from, to)`: all of them, or `MARK_WINDOW` around `focus` (0-based).
 * @param count how many marks; @param focus the mark to show (clamped)
 */
export function markWindow(count: number, focus: number): [number, number] {
  if (count <= MARK_WINDOW) return [0, count];
  const from = Math.max(0, Math.min(count - MARK_WINDOW, focus - Math.floor(MARK_WINDOW / 2)));
  return [from, from + MARK_WINDOW];
}

/**
 * One mark, drawn again only when its props change (`memo`): the strip's marks are the listing's
 * own objects (`selectStrip` is memoised), so a render of the page while a file loads redraws none.
 */
export const Mark = memo(function Mark({
  m,
  count,
  chosen,
  what,
}: {
  m: StripMark;
  count: number;
  chosen: boolean;
  what: string;
}) {
  const setRequestIndex = useAppStore((s) => s.setRequestIndex);
  const text = markText(m, count, what);
  return (
    <li>
      <button
        type="button"
        className={`strip-mark tone-${m.tone}`}
        data-testid="request-mark"
        data-index={m.index}
        data-tone={m.tone}
        data-label={m.label}
        aria-current={chosen ? 'true' : undefined}
        aria-label={text}
        title={text}
        onClick={() => setRequestIndex(m.index)}
      >
        <span className="strip-flags" aria-hidden="true">
          {m.compaction && <span className="flag compaction">◆</span>}
          {m.retry && <span className="flag retry">↻</span>}
          {m.fault && <span className="flag fault">!</span>}
        </span>
        <span className="strip-bar-box" aria-hidden="true">
          <span className="strip-bar" style={{ height: `${Math.round(m.height * 100)}%` }} />
        </span>
        <span className="strip-num" aria-hidden="true">
          {m.index + 1}
        </span>
      </button>
    </li>
  );
});

/**
 * Keep the chosen mark in view: the marks scroll sideways in their row, and a call chosen by the
 * strip's "Show call N", a key, the diff or a link (on load) may be off screen (newcomer: call 64
 * stayed hidden behind marks 1–30). Runs when the chosen call or the drawn window changes; only
 * the row of marks scrolls (never the page), and a mark already in view does not move.
 * @param listRef the row of marks; @param chosen the chosen mark's index (null: none)
 * @param from the first mark drawn; @param count how many marks (the listing may come later)
 */
export function useChosenMarkInView(
  listRef: RefObject<HTMLOListElement | null>,
  chosen: number | null,
  from: number,
  count: number,
): void {
  useEffect(() => {
    const list = listRef.current;
    if (!list || chosen === null) return;
    const mark = list.querySelector<HTMLElement>(`[data-index="${chosen}"]`);
    if (!mark) return;
    const box = list.getBoundingClientRect();
    const r = mark.getBoundingClientRect();
    if (r.left >= box.left && r.right <= box.right) return;
    // Centred in the row, so the marks either side of it show too.
    list.scrollLeft += r.left - box.left - (box.width - r.width) / 2;
  }, [listRef, chosen, from, count]);
}

/** `[` / `]`: the previous / next request (outside text fields). */
function useRequestKeys(count: number, chosen: number | null) {
  const setRequestIndex = useAppStore((s) => s.setRequestIndex);
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      if (e.ctrlKey || e.metaKey || e.altKey || isTypingTarget(e.target)) return;
      const step = e.key === ']' ? 1 : e.key === '[' ? -1 : 0;
      if (step === 0) return;
      e.preventDefault();
      const next = chosen === null ? (step > 0 ? 0 : count - 1) : chosen + step;
      if (next >= 0 && next < count) setRequestIndex(next);
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [count, chosen, setRequestIndex]);
}

/** What the strip is drawn from: the parse shown's requests and how its file is listed. */
export interface RequestStripProps {
  /** The parse result's `requests` (labels), or undefined for a file of one request. */
  requests: readonly { label: string }[] | undefined;
  /** The parse result's `requestIndex`. */
  requestIndex: number | undefined;
  /** The page's counts are exact (its BPE loaded): the marks are counted alike. */
  exactTokens?: boolean;
  /** Whether the parse shown can have a strip (`mayListRequests`): else nothing is listed. */
  listable?: boolean;
}

export function RequestStrip({
  requests,
  requestIndex,
  exactTokens = false,
  listable = true,
}: RequestStripProps) {
  const job = useAppStore((s) =>
    selectRequestsJob(s.source, s.formatOverride, s.provider, exactTokens, listable),
  );
  useEffect(() => ensureRequestListing(job), [job]);
  const fromText = useStore(requestListingStore, (s) => (s.job === job ? s.value : null));
  // A streamed log's calls come from the inspect worker (the page holds no text of it).
  const streamed = useSession(selectStreamedListing);
  const strip = selectStrip(requests, requestIndex, job ? fromText : streamed);
  const setDiff = useAppStore((s) => s.setDiff);
  const setRequestIndex = useAppStore((s) => s.setRequestIndex);
  const count = strip?.marks.length ?? 0;
  useRequestKeys(count, strip ? strip.chosen : null);
  // The window of marks drawn follows the chosen one; the arrows move it on their own.
  const focus = strip ? (strip.chosen ?? strip.firstFailing ?? count - 1) : 0;
  const [shift, setShift] = useState<{ focus: number; by: number }>({ focus, by: 0 });
  const by = shift.focus === focus ? shift.by : 0;
  const [from, to] = markWindow(count, focus + by);
  const listRef = useRef<HTMLOListElement>(null);
  useChosenMarkInView(listRef, strip ? strip.chosen : null, from, count);
  if (!strip) return null;
  const move = (step: number) => setShift({ focus, by: by + step });
  const chosen = strip.chosen === null ? undefined : strip.marks.at(strip.chosen);
  const what = strip.kind === 'session' ? 'Call' : 'Request';
  return (
    <nav className="request-strip" aria-label="Requests in this file" data-testid="request-strip">
      <p className="strip-head">
        <span className="strip-sentence" data-testid="strip-sentence">
          {strip.sentence}
        </span>
        {strip.firstFailing !== null && strip.firstFailing !== strip.chosen && (
          <button
            type="button"
            data-testid="strip-first-failing"
            onClick={() => setRequestIndex(strip.firstFailing)}
          >
            Show {what.toLowerCase()} {strip.firstFailing + 1}
          </button>
        )}
      </p>
      {(from > 0 || to < count) && (
        <p className="strip-window" data-testid="strip-window">
          <button
            type="button"
            disabled={from === 0}
            aria-label={`Show earlier ${what.toLowerCase()}s`}
            onClick={() => move(-MARK_WINDOW)}
          >
            ‹
          </button>
          <span>
            {what}s {fmtInt(from + 1)}–{fmtInt(to)} of {fmtInt(count)}
          </span>
          <button
            type="button"
            disabled={to === count}
            aria-label={`Show later ${what.toLowerCase()}s`}
            onClick={() => move(MARK_WINDOW)}
          >
            ›
          </button>
        </p>
      )}
      <ol className="strip-marks" ref={listRef}>
        {strip.marks.slice(from, to).map((m) => (
          <Mark key={m.index} m={m} count={count} chosen={m.index === strip.chosen} what={what} />
        ))}
      </ol>
      <p className="strip-foot">
        <span className="strip-shown" data-testid="strip-shown">
          {chosen
            ? `${what} ${fmtInt(chosen.index + 1)} of ${fmtInt(count)} · ${chosen.label.replace(/^(#\d+|call \d+) · /, '')}`
            : `The whole log is shown; choose a call to see the context the model saw then.`}
        </span>
        <span className="strip-keys">
          <kbd>[</kbd> <kbd>]</kbd> previous / next
        </span>
        <button
          type="button"
          data-testid="diff-previous"
          disabled={strip.chosen === null || strip.chosen === 0}
          onClick={() => setDiff({ kind: 'previous' })}
        >
          Diff with previous
        </button>
      </p>
    </nav>
  );
}
