/**
 * The first Tab stop: "Skip to the timeline" (shown when focused), which moves the focus to the
 * timeline's row in the Tab order (the selected row, else the first), past the header's and
 * panels' controls.
 */
export function SkipLink() {
  return (
    <a
      href="#timeline"
      className="skip-link"
      data-testid="skip-link"
      onClick={(e) => {
        e.preventDefault();
        const timeline = document.querySelector<HTMLElement>('[data-testid="timeline"]');
        const row =
          timeline?.querySelector<HTMLElement>('.msg-row[tabindex="0"]') ??
          timeline?.querySelector<HTMLElement>('.msg-row');
        (row ?? timeline)?.focus();
      }}
    >
      Skip to the timeline
    </a>
  );
}
