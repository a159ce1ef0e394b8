/**
 * The worker's hold on a long log after its parse (issue 20). Once messages are built, a slimmed
 * log's records are needed only for what the rules read of a message's raw and for finding a
 * message's source lines (by identity, `RecordSpans` in packMessages.ts); the page reads whole raws from the
 * file's bytes. Each record's value is replaced by what the rules read of it.
 */
import type { JsonlLine, SourceDoc } from '../model/parse/json.ts';
import type { Transcript } from '../model/types.ts';
import { rawAsRulesRead } from '../model/validate/rawFields.ts';

/**
 * Replace every record's value in `doc` by `rawAsRulesRead` of it, and the messages' raws (a
 * record, or a list of records) and the transcript's raw (the list of records) by the same new
 * values, so identity between them holds. Mutates each `doc.lines` entry's `value` (the entries
 * stay the same objects), `t.messages[*].raw`, `t.raw`.
 * @param doc a JSON Lines document; anything else is left as it is
 */
export function releaseRecords(doc: SourceDoc, t: Transcript): void {
  if (doc.kind !== 'jsonl') return;
  const { lines } = doc;
  const released = lines.map((l) => rawAsRulesRead(l.value));
  // A message's records are found where its rawLine says, by identity (issue 38: a Map of the
  // 100,000 records of the 115 MB log cost 50–80 ms to build and read); any other through a Map.
  let held: Map<unknown, unknown> | null = null;
  const newOf = (v: unknown, at: number): unknown => {
    if (typeof v !== 'object' || v === null) return v;
    if (lines[at]?.value === v) return released[at];
    if (!held) {
      held = new Map();
      for (let k = 0; k < lines.length; k++) held.set((lines[k] as JsonlLine).value, released[k]);
    }
    return held.has(v) ? held.get(v) : v;
  };
  for (const m of t.messages) {
    const at = m.rawLine ?? -1;
    if (Array.isArray(m.raw) && lines[at]?.value !== m.raw)
      m.raw = m.raw.map((v: unknown, k: number) => newOf(v, at + k));
    else m.raw = newOf(m.raw, at);
  }
  // Each line keeps its object (its value replaced): 100,000 new ones for the 115 MB log were as
  // many old ones left for the next full collection, beside the records themselves (issue 38).
  for (let k = 0; k < lines.length; k++) (lines[k] as JsonlLine).value = released[k];
  t.raw = released;
}
