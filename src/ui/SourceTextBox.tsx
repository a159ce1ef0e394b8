/**
 * The text box holding the transcript's text: typing or pasting into it replaces it. Each edit
 * session (from the first change until the box loses the focus, or its text comes from elsewhere:
 * Back, a paste, a file) is one history entry, so Back returns to the transcript before the edit
 * and a keystroke is no entry of its own.
 */
import { useRef } from 'react';
import type { Source } from '../state/store.ts';
import type { SetFileError } from './input/fileError.ts';

export function SourceTextBox({
  source,
  editSource,
  setFileError,
}: {
  /** What the box holds: the input that failed to parse, else the transcript's source. */
  source: Source;
  editSource: (s: Source, newEntry: boolean) => void;
  setFileError: SetFileError;
}) {
  /** The source this edit session wrote last; null between sessions. */
  const wrote = useRef<Source | null>(null);
  return (
    <textarea
      className="source-text"
      data-testid="source-text"
      aria-label="Transcript text"
      spellCheck={false}
      placeholder="Paste a request body, a message array or a session log here"
      value={source.text}
      onBlur={() => (wrote.current = null)}
      onChange={(e) => {
        const text = e.target.value;
        // A cleared box keeps the last transcript shown, with a note saying why.
        setFileError(
          /\S/.test(text)
            ? null
            : {
                kind: 'empty',
                message:
                  'The text box is empty: paste a request body, a message array or a session log. The last transcript stays shown.',
              },
        );
        const next: Source = { text, name: '', origin: 'paste' };
        // Another session's text, or text from elsewhere since the last keystroke: a new entry.
        editSource(next, wrote.current !== source);
        wrote.current = next;
      }}
    />
  );
}
