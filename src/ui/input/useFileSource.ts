/** The file input path (file picker, a dropped file): read it, or let the engine stream it. */
import { useCallback } from 'react';
import { STREAM_MIN_BYTES } from '../../engine/limits.ts';
import { readFileText } from '../../io/files.ts';
import { displayName } from '../../model/displayName.ts';
import type { Source } from '../../state/store.ts';
import type { SetFileError } from './fileError.ts';

/**
 * Open a file: a large one (over STREAM_MIN_BYTES) is streamed by the worker and the page never
 * holds its text (issue 7); a small one is read here. An empty or unreadable file keeps what is
 * shown, and the banner names the file.
 */
export function useLoadFile(
  setSource: (s: Source) => void,
  setFileError: SetFileError,
): (file: File) => Promise<void> {
  return useCallback(
    async (file: File) => {
      if (file.size > STREAM_MIN_BYTES) {
        // Large file (issue 7): the worker streams it; the page never holds its text.
        setFileError(null);
        setSource({
          text: '',
          name: displayName(file.name.replace(/\.gz$/i, '')),
          origin: 'file',
          file,
        });
        return;
      }
      const r = await readFileText(file);
      if (r.ok && !/\S/.test(r.value)) {
        // An empty file: say so, and keep what is shown (as for any input that does not parse).
        setFileError({
          kind: 'empty',
          message: `${file.name}: the file is empty. Open a request body, a message array or a session log.`,
          file: file.name,
        });
        return;
      }
      if (!r.ok) {
        setFileError({ ...r.error, message: `${file.name}: ${r.error.message}`, file: file.name });
        return;
      }
      setFileError(null);
      setSource({
        text: r.value,
        name: displayName(file.name.replace(/\.gz$/i, '')),
        origin: 'file',
        // The bytes as picked (a .gz stays packed), for the "Original file" export.
        original: file,
      });
    },
    [setSource, setFileError],
  );
}
