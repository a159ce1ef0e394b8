/**
 * Read a written copy back as a link or a file would be reopened: no format hint, unless the
 * transcript as written from its own source is not detected as its format either (a bare
 * message array that is equally Anthropic and OpenAI Chat), in which case the format the link
 * names is used.
 */
import { parseTranscript } from '../parse/index.ts';
import type { Result, Transcript } from '../types.ts';
import { writeTranscript } from '../write.ts';

/**
 * @param original the transcript the copy was made from (its format decides the fallback hint)
 * @param written the copy as text (JSON or JSON Lines)
 * @returns the copy as parsed, or the parse error
 */
export function readBack(original: Transcript, written: string): Result<Transcript> {
  const plain = parseTranscript(written);
  if (plain.ok && plain.value.transcript.format === original.format)
    return { ok: true, value: plain.value.transcript };
  const self = parseTranscript(writeTranscript(original));
  const detectable = self.ok && self.value.transcript.format === original.format;
  if (detectable)
    return plain.ok
      ? { ok: true, value: plain.value.transcript }
      : { ok: false, error: plain.error };
  const hinted = parseTranscript(written, { format: original.format });
  return hinted.ok ? { ok: true, value: hinted.value.transcript } : hinted;
}
