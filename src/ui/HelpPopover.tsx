/** The keyboard help, opened with `?` or the help button. */
export const SHORTCUTS: [string, string][] = [
  ['j / ↓', 'next message'],
  ['k / ↑', 'previous message'],
  ['J / Shift+↓', 'next exchange'],
  ['K / Shift+↑', 'previous exchange'],
  ['Enter / Space', 'open or close the selected message'],
  ['n / N', 'next / previous violation'],
  ['/', 'find'],
  ['Esc', 'clear the selection'],
  ['?', 'this help'],
];

export function HelpPopover({ open, onClose }: { open: boolean; onClose: () => void }) {
  if (!open) return null;
  return (
    <div className="help-popover" role="dialog" aria-label="Keyboard shortcuts" data-testid="help">
      <div className="help-head">
        <strong>Keyboard</strong>
        <button type="button" onClick={onClose} aria-label="Close help">
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
