/**
 * The first screen's invitation (issue 16: nothing said you can paste or drop a transcript): a
 * visible drop zone beside the sample, with the three ways in — drop a file, paste anywhere, open
 * a file — and where the text goes (nowhere: it stays in the page). Shown while a built-in sample
 * is on screen; once the user brought their own, the page wide drop and paste keep working.
 */
import { useRef } from 'react';

export interface InputHintProps {
  /** The sample on screen, in words ("Invoice lookup (parallel calls)"). */
  sample: string;
  onFile: (file: File) => void;
  /** Open the text box to paste into. */
  onPasteBox: () => void;
  /**
   * The sample shown is a valid request (no 400), with a way to show a broken one: the page asks
   * why a request got a 400, so a newcomer is told this one gets none and offered one that does.
   */
  valid?: boolean;
  onBroken?: (() => void) | undefined;
}

export function InputHint({ sample, onFile, onPasteBox, valid, onBroken }: InputHintProps) {
  const fileRef = useRef<HTMLInputElement>(null);
  return (
    <div className="input-hint" data-testid="input-hint">
      <span className="input-hint-icon" aria-hidden="true">
        ⤓
      </span>
      <span>
        <b>Your own transcript:</b> drop a file anywhere, paste with <kbd>Ctrl</kbd>/<kbd>⌘</kbd>+
        <kbd>V</kbd>, or{' '}
        <button type="button" className="link-button" onClick={() => fileRef.current?.click()}>
          open a file
        </button>{' '}
        ·{' '}
        <button type="button" className="link-button" onClick={onPasteBox}>
          paste into a box
        </button>
        . A request body, a message array or a session log; it never leaves this page.
      </span>
      <span className="input-hint-sample" data-testid="input-hint-sample">
        Showing the sample “{sample}”
        {valid ? (
          <>
            : a valid request, no 400. Samples named “Broken” get one
            {onBroken && (
              <>
                {' '}
                —{' '}
                <button
                  type="button"
                  className="link-button"
                  data-testid="show-broken"
                  onClick={onBroken}
                >
                  show one
                </button>
              </>
            )}
            .
          </>
        ) : (
          '.'
        )}
      </span>
      <input
        ref={fileRef}
        type="file"
        hidden
        data-testid="hint-file-input"
        accept=".json,.jsonl,.ndjson,.gz,.txt,.traj,application/json"
        onChange={(e) => {
          const f = e.target.files?.[0];
          if (f) onFile(f);
          e.target.value = '';
        }}
      />
    </div>
  );
}
