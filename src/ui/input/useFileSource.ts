/** The file input path (file picker, a dropped file): read it, or let the engine stream it. */
import { useCallback } from 'react';
import { STREAM_MIN_BYTES } from '../../engine/limits.ts';
import { readFileText } from '../../io/files.ts';
import { displayName } from '../../model/displayName.ts';
import { notGzip, readAsTextNote } from '../../model/parse/bytes.ts';
import type { Source } from '../../state/store.ts';
import type { SetFileError } from './fileError.ts';

/**
 * How a file named `.gz` that is not gzip data is read (`Source.readNote`), from its first bytes:
 * as plain text, said with any error about that text; another archive is refused here.
 */
async function readNoteOf(file: File): Promise<{ refused: string } | { readNote?: string }> {
  const misnamed = notGzip(file.name, new Uint8Array(await file.slice(0, 8).arrayBuffer()));
  if (!misnamed) return {};
  if (misnamed.refusal) return { refused: misnamed.refusal };
  // A browser may have unpacked the download already (Content-Encoding: gzip): often it is
  // the transcript itself, so it is read; if its text is not one, the banner says this first.
  return { readNote: readAsTextNote(file.name, misnamed) };
}

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
      const note = await readNoteOf(file).catch(() => ({}));
      if ('refused' in note) {
        setFileError({ kind: 'binary', message: `${file.name}: ${note.refused}`, file: file.name });
        return;
      }
      const name = displayName(file.name.replace(/\.gz$/i, ''));
      // The labels name the file as it is on disk (with its .gz).
      const own = displayName(file.name);
      const fileName = own !== name ? { fileName: own } : {};
      if (file.size > STREAM_MIN_BYTES) {
        // Large file (issue 7): the worker streams it; the page never holds its text.
        setFileError(null);
        setSource({ text: '', name, ...fileName, origin: 'file', file, ...note });
        return;
      }
      const r = await readFileText(file, file.name);
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
        name,
        ...fileName,
        origin: 'file',
        // The bytes as picked (a .gz stays packed), for the "Original file" export.
        original: file,
        ...note,
      });
    },
    [setSource, setFileError],
  );
}
