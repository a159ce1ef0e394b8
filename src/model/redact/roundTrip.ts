/**
 * Read a written copy back as a link or a file would be reopened: no format hint, unless the
 * transcript as written from its own source is not detected as its format either (a bare
 * message array that is equally Anthropic and OpenAI Chat), in which case the format the link
 * names is used.
 */
import { parseTranscript } from '../parse/index.ts';
import type { FormatId, Result, Transcript } from '../types.ts';
import { writeTranscript } from '../write.ts';

/**
 * @param original the transcript the copy was made from (its format decides the fallback hint)
 * @param written the copy as text (JSON or JSON Lines)
 * @returns the copy as parsed, or the parse error
 */
export function readBack(original: Transcript, written: string): Result<Transcript> {
  const r = readBackHinted(original, written);
  return r.ok ? { ok: true, value: r.value.transcript } : r;
}

/**
 * `readBack`, saying whether the copy was read with the original's format as a hint: a link
 * carrying the copy must then name that format (`f=`), or the reader's page, detecting, reads
 * it as no format (a log's call after a compaction written with the log's other lines: none of
 * the first lines the detector samples is a message).
 * @returns the copy as parsed and the hint used (null: read without one), or the parse error
 */
export function readBackHinted(
  original: Transcript,
  written: string,
): Result<{ transcript: Transcript; hint: FormatId | null }> {
  const plain = parseTranscript(written);
  if (plain.ok && plain.value.transcript.format === original.format)
    return { ok: true, value: { transcript: plain.value.transcript, hint: null } };
  const self = parseTranscript(writeTranscript(original));
  const detectable = self.ok && self.value.transcript.format === original.format;
  if (detectable)
    return plain.ok
      ? { ok: true, value: { transcript: plain.value.transcript, hint: null } }
      : { ok: false, error: plain.error };
  const hinted = parseTranscript(written, { format: original.format });
  return hinted.ok
    ? { ok: true, value: { transcript: hinted.value.transcript, hint: original.format } }
    : hinted;
}
