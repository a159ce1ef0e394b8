/** The keyboard help, opened with `?` or the help button. */
import { useEffect, useRef } from 'react';

export const SHORTCUTS: [string, string][] = [
  ['j / ↓', 'next message'],
  ['k / ↑', 'previous message'],
  ['J / Shift+↓', 'next exchange'],
  ['K / Shift+↑', 'previous exchange'],
  ['Home / End', 'first / last message (in the timeline)'],
  ['Enter / Space', 'open or close the selected message'],
  ['n / N', 'next / previous violation'],
  ['] / [', 'next / previous request (a file holding several)'],
  ['. / ,', 'next / previous change (in the diff view)'],
  ['/', 'find'],
  ['Esc', 'clear the selection'],
  ['?', 'this help'],
];

export function HelpPopover({ open, onClose }: { open: boolean; onClose: () => void }) {
  if (!open) return null;
  return <HelpDialog onClose={onClose} />;
}

/**
 * The open help: focus moves to its close button (a dialog takes the focus), and goes back to
 * where it was when the help closes with the focus inside it (Esc, ?, ×).
 */
function HelpDialog({ onClose }: { onClose: () => void }) {
  const close = useRef<HTMLButtonElement>(null);
  useEffect(() => {
    const before = document.activeElement;
    const button = close.current;
    button?.focus();
    return () => {
      const now = document.activeElement;
      const lost = now === null || now === document.body || now === button;
      if (lost && before instanceof HTMLElement && before.isConnected) before.focus();
    };
  }, []);
  return (
    <div className="help-popover" role="dialog" aria-label="Keyboard shortcuts" data-testid="help">
      <div className="help-head">
        <strong>Keyboard</strong>
        <button type="button" ref={close} onClick={onClose} aria-label="Close help">
          ×
        </button>
      </div>
      <table>
        <tbody>
          {SHORTCUTS.map(([k, v]) => (
            <tr key={k}>
              <td>
                <kbd>{k}</kbd>
              </td>
              <td>{v}</td>
            </tr>
          ))}
        </tbody>
      </table>
      <p>Paste anywhere (Ctrl/Cmd+V) or drop a file anywhere to load a transcript.</p>
    </div>
  );
}
