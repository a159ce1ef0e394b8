/**
 * The structure-only copy as it is shared, checked against the redaction contract: one check for
 * the page's structure-only link and the CLI's `share --structure-only`, so neither hands out a
 * copy that reads back with other token counts, pairs or verdicts, or that still holds the
 * original's words.
 */
import { redactTranscriptWithMaps } from '../redact.ts';
import type { TextCounter } from '../tokens.ts';
import type { Transcript } from '../types.ts';
import { writeTranscript } from '../write.ts';
import { leakedStrings, shapeDifferences } from './contract.ts';
import { readBack } from './roundTrip.ts';

export interface CheckedCopy {
  /** The copy, written in the transcript's own format. */
  text: string;
  /** How many ids (tool call, item, uuid, session) were renamed. */
  ids: number;
  /**
   * Where the copy breaks the contract, one line each (`tokens: 1604,18 in the original, 4,18 in
   * the copy`, `it would still hold: …`); empty when it is safe to share.
   */
  problems: string[];
}

/**
 * Redact `t`, write it, read it back and compare (`shapeDifferences`), and look for what it still
 * holds of the original (`leakedStrings`).
 * @param t a parsed transcript (any format)
 * @param counter the counter placeholders are fitted with (and token counts compared by)
 * @param toolNames 'keep' (default) or 'hide'
 */
export function checkedStructureCopy(
  t: Transcript,
  counter: TextCounter,
  toolNames: 'keep' | 'hide' = 'keep',
): CheckedCopy {
  const red = redactTranscriptWithMaps(t, { counter, toolNames });
  const text = writeTranscript(red.transcript);
  const back = readBack(t, text);
  const names = toolNames === 'hide' ? { names: red.names } : {};
  const problems = back.ok
    ? shapeDifferences(t, back.value, { counter, ids: red.ids, ...names })
    : [`it does not read back: ${back.error.message}`];
  const kept = toolNames === 'keep' ? new Set(red.names.keys()) : new Set<string>();
  const leaks = leakedStrings(t, text, kept);
  if (leaks.length > 0) problems.push(`it would still hold: ${leaks.slice(0, 5).join(', ')}`);
  return { text, ids: red.ids.size, problems };
}
