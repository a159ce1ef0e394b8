/** The text box holding the transcript's text: typing or pasting into it replaces it. */
import type { Source } from '../state/store.ts';
import type { SetFileError } from './input/fileError.ts';

export function SourceTextBox({
  text,
  setSource,
  setFileError,
}: {
  text: string;
  setSource: (s: Source) => void;
  setFileError: SetFileError;
}) {
  return (
    <textarea
      className="source-text"
      data-testid="source-text"
      aria-label="Transcript text"
      spellCheck={false}
      placeholder="Paste a request body, a message array or a session log here"
      value={text}
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
        setSource({ text, name: '', origin: 'paste' });
      }}
    />
  );
}
