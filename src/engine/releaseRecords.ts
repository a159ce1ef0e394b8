/**
 * The worker's hold on a long log after its parse (issue 20). Once messages are built, a slimmed
 * log's records are needed only for what the rules read of a message's raw and for finding a
 * message's source lines (by identity, `rawSpans` in run.ts); the page reads whole raws from the
 * file's bytes. Each record's value is replaced by what the rules read of it.
 */
import type { SourceDoc } from '../model/parse/json.ts';
import type { Transcript } from '../model/types.ts';
import { rawAsRulesRead } from '../model/validate/rawFields.ts';

/**
 * Replace every record's value in `doc` by `rawAsRulesRead` of it, and the messages' raws (a
 * record, or a list of records) and the transcript's raw (the list of records) by the same new
 * values, so identity between them holds. Mutates `doc.lines` entries, `t.messages[*].raw`, `t.raw`.
 * @param doc a JSON Lines document; anything else is left as it is
 */
export function releaseRecords(doc: SourceDoc, t: Transcript): void {
  if (doc.kind !== 'jsonl') return;
  const held = new Map<unknown, unknown>();
  const { lines } = doc;
  for (let k = 0; k < lines.length; k++) {
    const l = lines[k] as (typeof lines)[number];
    const v = rawAsRulesRead(l.value);
    if (v !== l.value) held.set(l.value, v);
    lines[k] = { line: l.line, value: v };
  }
  for (const m of t.messages) {
    const one = held.get(m.raw);
    if (one !== undefined) m.raw = one;
    else if (Array.isArray(m.raw)) m.raw = m.raw.map((v: unknown) => held.get(v) ?? v);
  }
  t.raw = lines.map((l) => l.value);
}
