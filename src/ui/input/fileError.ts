import { withReadNote } from '../../model/parse/bytes.ts';
import type { ParseError } from '../../model/types.ts';
import type { Source } from '../../state/store.ts';

/**
 * What the banner shows for input the page could not take: a parse error, or a file that could
 * not be read (empty, binary, refused), `file` naming it.
 */
export type FileError = ParseError & { file?: string };

/** Sets (or clears) the banner's file error. */
export type SetFileError = (e: FileError | null) => void;

/**
 * An error about a source's text, with how the file was read said first when that is not what
 * its name says (`Source.readNote`; model/parse/bytes.ts `withReadNote`).
 */
export function sourceError<E extends ParseError>(error: E, source: Source): E {
  return withReadNote(error, source.readNote);
}
