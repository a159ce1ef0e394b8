/**
 * The structure-only copy as it is shared, checked against the redaction contract: one check for
 * the page's structure-only link and the CLI's `share --structure-only`, so neither hands out a
 * copy that reads back with other token counts, pairs or verdicts, or that still holds the
 * original's words. A session log's chosen call is copied with its reply's first message, so
 * the copy holds the call and its link opens on it (`callCopy.ts`).
 */
import { callOfCopy, withCallReply } from '../callCopy.ts';
import { callTranscript, type SessionCall } from '../parse/sessionCalls.ts';
import { redactTranscriptWithMaps } from '../redact.ts';
import type { TextCounter } from '../tokens.ts';
import type { FormatId, Message, Transcript } from '../types.ts';
import { writeTranscript } from '../write.ts';
import { leakedStrings, shapeDifferences } from './contract.ts';
import { readBackHinted } from './roundTrip.ts';

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
  /**
   * The request of the copy that is the transcript copied (0-based; a link writes it as `rq`):
   * for a session call copied with its reply, that call among the copy's calls; null when the
   * copy is the transcript whole.
   */
  request: number | null;
  /**
   * The format a link carrying the copy must name (`f=`): the copy reads as the transcript only
   * with its format as a hint (`readBackHinted`); null when it is detected as it is.
   */
  format: FormatId | null;
}

/**
 * Redact `t`, write it, read it back and compare (`shapeDifferences`), and look for what it still
 * holds of the original (`leakedStrings`).
 * @param t a parsed transcript (any format)
 * @param counter the counter placeholders are fitted with (and token counts compared by)
 * @param toolNames 'keep' (default) or 'hide'
 * @param reply a session call's reply (`ParsedTranscript.callReply`) when `t` is that call's
 *   context: the copy holds `t` and the reply, and `request` names the call, whose context is
 *   checked against `t` too. A copy that does not read as that call is made of `t` alone.
 */
export function checkedStructureCopy(
  t: Transcript,
  counter: TextCounter,
  toolNames: 'keep' | 'hide' = 'keep',
  reply?: Message,
): CheckedCopy {
  if (reply) {
    const call = checkedCallCopy(t, reply, counter, toolNames);
    if (call) return call;
  }
  const copy = checkedCopyOf(t, counter, toolNames);
  const { text, problems, format } = copy;
  return { text, ids: copy.ids.size, problems, request: null, format };
}

/** A copy, its rename maps and its problems. */
interface Copy {
  text: string;
  ids: ReadonlyMap<string, string>;
  names: ReadonlyMap<string, string> | undefined;
  problems: string[];
  format: FormatId | null;
}

function checkedCopyOf(t: Transcript, counter: TextCounter, toolNames: 'keep' | 'hide'): Copy {
  const red = redactTranscriptWithMaps(t, { counter, toolNames });
  const text = writeTranscript(red.transcript);
  const back = readBackHinted(t, text);
  const names = toolNames === 'hide' ? red.names : undefined;
  const opts = { counter, ids: red.ids, ...(names ? { names } : {}) };
  const problems = back.ok
    ? shapeDifferences(t, back.value.transcript, opts)
    : [`it does not read back: ${back.error.message}`];
  const kept = toolNames === 'keep' ? new Set(red.names.keys()) : new Set<string>();
  const leaks = leakedStrings(t, text, kept);
  if (leaks.length > 0) problems.push(`it would still hold: ${leaks.slice(0, 5).join(', ')}`);
  return { text, ids: red.ids, names, problems, format: back.ok ? back.value.hint : null };
}

/**
 * The copy of a session call's context `t` with its reply, when it reads as that call: checked
 * as a whole, and the call's context in the copy against `t` (`the call: …`). Null when the copy
 * holds no such call (`callOfCopy`).
 */
function checkedCallCopy(
  t: Transcript,
  reply: Message,
  counter: TextCounter,
  toolNames: 'keep' | 'hide',
): CheckedCopy | null {
  const copy = checkedCopyOf(withCallReply(t, reply), counter, toolNames);
  const found = callOfCopy(copy.text, t.format, t.messages.length);
  if (!found) return null;
  const call = callTranscript(found.calls, found.calls.calls[found.index] as SessionCall);
  const opts = { counter, ids: copy.ids, ...(copy.names ? { names: copy.names } : {}) };
  const problems = [
    ...copy.problems,
    ...shapeDifferences(t, call, opts).map((p) => `the call: ${p}`),
  ];
  const { text, format } = copy;
  return { text, ids: copy.ids.size, problems, request: found.index, format };
}
