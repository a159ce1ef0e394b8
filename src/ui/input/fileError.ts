import type { ParseError } from '../../model/types.ts';

/**
 * What the banner shows for input the page could not take: a parse error, or a file that could
 * not be read (empty, binary, refused), `file` naming it.
 */
export type FileError = ParseError & { file?: string };

/** Sets (or clears) the banner's file error. */
export type SetFileError = (e: FileError | null) => void;
