/**
 * Sharing (issue 6): permalink notices, "Copy link" with its length, the structure-only link with
 * a preview of what is shared, and the exports (kept request, Markdown summary, timeline SVG/PNG).
 * Everything is built in the page: nothing goes to a server.
 */
import {
  useEffect,
  useLayoutEffect,
  useRef,
  useState,
  type CSSProperties,
  type RefObject,
} from 'react';
import type { Analysis } from '../../model/analyze.ts';
import type { Message } from '../../model/types.ts';
import type { Source } from '../../state/store.ts';
import { Notices } from './ShareParts.tsx';
import { Panel } from './SharePanel.tsx';
import './share.css';

export { LINK_SOFT_LIMIT } from './shareLinks.ts';

/** Gap between the panel and what it must not cover, in px. */
const PANEL_GAP = 12;

/**
 * Where the open panel goes: under the header, its right edge left of the verdict column
 * (`[data-testid="violations"]`) so the verdict stays readable while sharing; the whole width
 * when there is no such column or too little room beside it.
 */
function panelPlacement(bar: HTMLElement): CSSProperties {
  const top = (bar.closest('header') ?? bar).getBoundingClientRect().bottom + 4;
  const verdict = document.querySelector('[data-testid="violations"]');
  const vw = document.documentElement.clientWidth;
  const left = verdict?.getBoundingClientRect().left;
  const right =
    left !== undefined && left > 360 + 2 * PANEL_GAP ? vw - left + PANEL_GAP : PANEL_GAP;
  return {
    position: 'fixed',
    top,
    right,
    width: `min(680px, ${vw - right - PANEL_GAP}px)`,
    maxHeight: `calc(100vh - ${Math.round(top) + PANEL_GAP}px)`,
  };
}

/** The open panel's placement (`panelPlacement`), kept up to date as the window resizes. */
function usePanelPlacement(open: boolean, barRef: RefObject<HTMLDivElement | null>): CSSProperties {
  const [place, setPlace] = useState<CSSProperties>({});
  useLayoutEffect(() => {
    const bar = barRef.current;
    if (!open || !bar) return;
    const update = () => setPlace(panelPlacement(bar));
    update();
    window.addEventListener('resize', update);
    return () => window.removeEventListener('resize', update);
  }, [open, barRef]);
  return place;
}

/**
 * While the panel is open it holds the focus; Esc (focus back to the toggle), a pointer down
 * outside the bar, or the focus leaving the bar closes it.
 */
function usePopoverClose(
  open: boolean,
  setOpen: (open: boolean) => void,
  barRef: RefObject<HTMLDivElement | null>,
  toggleRef: RefObject<HTMLButtonElement | null>,
  popoverRef: RefObject<HTMLDivElement | null>,
): void {
  useEffect(() => {
    if (!open) return;
    // Capture phase, so Esc closes the panel without also reaching the page's own Esc (which
    // clears the selection).
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape') return;
      e.stopPropagation();
      setOpen(false);
      toggleRef.current?.focus();
    };
    const onPointer = (e: PointerEvent) => {
      if (e.target instanceof Node && barRef.current?.contains(e.target)) return;
      setOpen(false);
    };
    // Focus moves into the panel, and leaving it by keyboard closes it (as a click outside
    // does): Tab must not walk on into controls the panel covers (WCAG 2.4.11).
    const onFocusOut = (e: FocusEvent) => {
      const to = e.relatedTarget;
      if (to instanceof Node && !barRef.current?.contains(to)) setOpen(false);
    };
    const bar = barRef.current;
    popoverRef.current?.focus();
    document.addEventListener('keydown', onKey, true);
    document.addEventListener('pointerdown', onPointer, true);
    bar?.addEventListener('focusout', onFocusOut);
    return () => {
      document.removeEventListener('keydown', onKey, true);
      document.removeEventListener('pointerdown', onPointer, true);
      bar?.removeEventListener('focusout', onFocusOut);
    };
  }, [open, setOpen, barRef, toggleRef, popoverRef]);
}

/**
 * The share button with its panel (a popover that takes the focus: Esc, a click outside or Tab
 * past its last control closes it; it never covers the verdict), and the permalink notices.
 * Mounted once, in the header.
 * @param shown the source of the transcript on screen (after a text that does not parse, or a
 *   cancelled load, that is not the store's latest source): what the links share
 * @param callReply the chosen session call's reply (`ParsedTranscript.callReply`), if any
 */
export function ShareBar({
  analysis,
  shown,
  callReply,
}: {
  analysis: Analysis | null;
  shown: Source | null;
  callReply?: Message | undefined;
}) {
  const [open, setOpen] = useState(false);
  const barRef = useRef<HTMLDivElement>(null);
  const toggleRef = useRef<HTMLButtonElement>(null);
  const popoverRef = useRef<HTMLDivElement>(null);

  const place = usePanelPlacement(open, barRef);
  usePopoverClose(open, setOpen, barRef, toggleRef, popoverRef);

  return (
    <div className="share-bar" ref={barRef}>
      <Notices />
      <button
        type="button"
        className="share-toggle"
        data-testid="share-open"
        aria-expanded={open}
        aria-haspopup="dialog"
        disabled={!analysis}
        ref={toggleRef}
        onClick={() => setOpen((o) => !o)}
      >
        Share
      </button>
      {open && analysis && (
        <div
          className="share-popover"
          role="dialog"
          aria-label="Share"
          style={place}
          ref={popoverRef}
          tabIndex={-1}
        >
          <Panel analysis={analysis} shown={shown} callReply={callReply} />
        </div>
      )}
    </div>
  );
}
