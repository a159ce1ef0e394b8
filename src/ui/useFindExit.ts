/**
 * Where Escape in the find box sends the focus (WAI-ARIA: a control that takes the focus gives it
 * back). Blurring the box left it on `<body>`, so the keys started over from the top of the page.
 */
import { useCallback } from 'react';

const TIMELINE_ROWS = '[data-testid=timeline] [role=row]';

/** Focus the timeline's current row (brought onto the page by `jump` when it is not mounted). */
function focusCurrentRow(currentMessage: number, jump: (message: number, focus?: boolean) => void) {
  const row =
    currentMessage >= 0
      ? document.querySelector<HTMLElement>(
          `${TIMELINE_ROWS}[data-message-index="${currentMessage}"]`,
        )
      : document.querySelector<HTMLElement>(`${TIMELINE_ROWS}[tabindex="0"]`);
  if (row) row.focus();
  else if (currentMessage >= 0) jump(currentMessage, true);
  else (document.activeElement as HTMLElement | null)?.blur();
}

/**
 * The find box's exit: back to the element that had the focus before Find took it, if it is
 * still on the page; else to the timeline's current row. A timeline row left for Find gives way
 * to the current row when Enter in Find moved the selection to a match, so the focused row and the
 * selected row stay one.
 * @param currentMessage the selected message (-1: none)
 * @returns a callback taking the element focused before Find (null: none, or `<body>`)
 */
export function useFindExit(
  currentMessage: number,
  jump: (message: number, focus?: boolean) => void,
): (cameFrom: HTMLElement | null) => void {
  return useCallback(
    (cameFrom) => {
      const row = cameFrom?.closest<HTMLElement>(TIMELINE_ROWS);
      const stale = row && row.dataset.messageIndex !== String(currentMessage);
      if (cameFrom?.isConnected && cameFrom !== document.body && !stale) cameFrom.focus();
      else focusCurrentRow(currentMessage, jump);
    },
    [currentMessage, jump],
  );
}
