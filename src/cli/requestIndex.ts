/**
 * The CLI's note under a 400 body whose path names a request index (`messages.0`) that is not the
 * message number the line above gives: a cut's kept request counts from its own first message, and
 * a provider that sends consecutive same-role messages as one counts those as one. The page shows
 * the same mapping beside the body (`requestIndexText`, requestRows.ts), in rows where the CLI
 * says messages.
 */
import { causeLabel, messageLabels, requestIndexOf } from '../model/messageLabels.ts';
import { requestIndexText, requestRowsOf } from '../model/requestRows.ts';
import type { Message, ProviderId, Transcript } from '../model/types.ts';
import type { Violation } from '../model/validate/index.ts';

const COUNTS = 'the provider counts the messages of the request it received, from 0';

/**
 * `request message 0 = message #6 (…)`, or `request message 2 = messages #3 and #4 (…)` when the
 * provider sends several of ours as one; null when the body's path names no index, or the index
 * is the number of the one message it names.
 * @param t the transcript (ours), whose message labels the violation's cause has
 * @param provider whose request it is; @param messages the request's messages (default: all of
 *   `t`; a cut's kept request: those kept)
 */
export function requestIndexLine(
  t: Transcript,
  provider: ProviderId,
  v: Pick<Violation, 'providerPath' | 'index' | 'messageIndex' | 'pathIndex'>,
  messages: readonly Message[] = t.messages,
): string | null {
  const n = requestIndexOf(v.providerPath);
  if (n === null) return null;
  // The message the path names: the cause's, or another (`pathIndex`: B2 names the turn after
  // the call), as the page labels it.
  const labels = messageLabels(t.messages);
  const label = v.pathIndex !== undefined ? labels.of(v.pathIndex) : causeLabel(labels, v);
  const merged = requestIndexText(v.providerPath, label, requestRowsOf(t, messages, provider));
  const rows = merged?.note.match(/^request message \d+ = rows (.+)$/)?.[1];
  if (rows)
    return `request message ${n} = messages ${rows} (${COUNTS}, and sends consecutive messages of one role as one: ${rows} are its message ${n})`;
  if (label === `#${n}`) return null;
  return `request message ${n} = message ${label} (${COUNTS})`;
}

/**
 * Where a violation is, as the CLI's `at message N` says it: the page's row number without its
 * `#` (`17`, or `17.2` for the second of the rows with raw index 17: a retry's copy, a split turn),
 * so two rows of one message are not both "message 17" (newcomer: a link's A6 and A5 at #17.2 and
 * #17.1 both read "at message 17"). Outside the rows: `messageIndex`.
 * @param messages the transcript's messages (ours) the violation's `index` points into
 */
export function violationAt(
  messages: readonly Message[],
  v: Pick<Violation, 'index' | 'messageIndex'>,
): string {
  const label = causeLabel(messageLabels(messages), v);
  return label.startsWith('#') ? label.slice(1) : String(v.messageIndex);
}
