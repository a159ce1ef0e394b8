/**
 * Write a transcript back in its original format (export, repair, eviction results).
 * Dispatches to the format parser's `write`; falls back to a JSON message array.
 */
import { parserFor } from './parse/registry.ts';
import type { Transcript } from './types.ts';

export { withList } from './parse/util.ts';

/**
 * @param t a transcript, possibly with messages removed, added (raw undefined) or changed
 * @returns the text of a request body (JSON) or log (JSONL) in `t.format`; when the format has no
 *   writer, a JSON array of the messages' raw values (new messages as their normalised blocks)
 */
export function writeTranscript(t: Transcript): string {
  const p = parserFor(t.format);
  if (p?.write) return p.write(t);
  return JSON.stringify(
    t.messages.map((m) => (m.raw !== undefined ? m.raw : { role: m.role, blocks: m.blocks })),
    null,
    2,
  );
}
