/**
 * A parse failure: what is wrong and where (line, column, the line with a caret). Everything it
 * quotes is bounded (issue 14): the line is a window around the column (`SourceLocation`), the
 * message is clipped, so a 6.7 MB one-line file gives a banner of a few lines. A new failure is
 * scrolled into view when it appears out of sight (a paste while reading far down a transcript,
 * on a phone); the transcript shown stays, and focus stays where it was.
 */
import { useEffect, useRef } from 'react';
import { clip, QUOTE_CHARS, windowAround } from '../model/limits.ts';
import type { ParseError } from '../model/types.ts';

/** The heading of a file that could not be read, by what could not be read. */
const UNREADABLE_HEADING = {
  bytes: 'Not a text file',
  gzip: 'Cannot unpack the .gz file',
  encoding: 'Not UTF-8 text',
} as const;

export function ParseErrorBanner({
  error,
  keptPrevious,
  unreadFile,
  shown,
}: {
  error: ParseError;
  keptPrevious: boolean;
  /** The file that could not be read (empty, binary): the note names it, not the text box. */
  unreadFile?: string | undefined;
  /** What is on screen instead, in words (`describeSource`). */
  shown?: string | undefined;
}) {
  const ref = useInViewOnChange<HTMLDivElement>(error);
  const loc = error.location;
  // The model windows long lines already; an error built elsewhere is windowed here.
  const shownLine = loc
    ? loc.caret !== undefined
      ? { text: loc.lineText, caret: loc.caret }
      : windowAround(loc.lineText, loc.column, QUOTE_CHARS)
    : null;
  return (
    <div
      ref={ref}
      className="parse-error"
      role="alert"
      data-testid="parse-error"
      data-kind={error.kind}
    >
      <strong>
        {error.kind === 'binary'
          ? UNREADABLE_HEADING[error.unreadable ?? 'bytes']
          : error.kind === 'json'
            ? 'Not valid JSON'
            : error.kind === 'empty'
              ? 'Nothing to read'
              : error.kind === 'limit'
                ? 'Refused: beyond a limit'
                : error.closest
                  ? `Not quite ${error.closest.label}`
                  : 'Unknown format'}
      </strong>
      {loc && (
        <span className="where" data-testid="parse-error-location">
          {' '}
          at line {loc.line}, column {loc.column}
        </span>
      )}
      <p>{clip(error.message)}</p>
      {shownLine && (
        <pre className="error-line" data-testid="parse-error-line">
          {shownLine.text}
          {'\n'}
          {' '.repeat(Math.max(0, shownLine.caret))}^
        </pre>
      )}
      {error.tried && (
        <ul>
          {error.tried.map((t) => (
            <li key={t.format}>
              {t.format}: {t.expected}
            </li>
          ))}
        </ul>
      )}
      {keptPrevious && unreadFile !== undefined && (
        <p className="kept" data-testid="parse-error-kept">
          {unreadFile} could not be read; still showing {shown ?? 'the last transcript that parsed'}
          .
        </p>
      )}
      {keptPrevious && unreadFile === undefined && (
        <p className="kept">
          Still showing the last transcript that parsed. Fix the text below to replace it.
        </p>
      )}
    </div>
  );
}

/** A ref whose element is scrolled into view (nearest edge) when `key` changes out of sight. */
function useInViewOnChange<T extends HTMLElement>(key: unknown) {
  const ref = useRef<T>(null);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof el.scrollIntoView !== 'function') return;
    const r = el.getBoundingClientRect();
    if (r.top < 0 || r.bottom > window.innerHeight) el.scrollIntoView({ block: 'nearest' });
  }, [key]);
  return ref;
}
