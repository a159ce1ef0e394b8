/**
 * The CLI's note under a 400 body whose path names a request index (`messages.0`) that is not the
 * message number the line above gives: a cut's kept request counts from its own first message, and
 * a provider that sends consecutive same-role messages as one counts those as one. The page shows
 * the same mapping beside the body (`requestIndexNote`, messageLabels.ts).
 */
import { causeLabel, messageLabels, requestIndexOf } from '../model/messageLabels.ts';
import type { Message } from '../model/types.ts';
import type { Violation } from '../model/validate/index.ts';

/**
 * `request message 0 = message #6 (…)`, or null when the body's path names no index or the index
 * is the number of the message it names.
 * @param messages the transcript's messages (ours), whose row labels the violation's cause has
 */
export function requestIndexLine(
  messages: readonly Message[],
  v: Pick<Violation, 'providerPath' | 'index' | 'messageIndex' | 'pathIndex'>,
): string | null {
  const n = requestIndexOf(v.providerPath);
  if (n === null) return null;
  // The message the path names: the cause's, or another (`pathIndex`: B2 names the turn after
  // the call), as the page labels it.
  const labels = messageLabels(messages);
  const label = v.pathIndex !== undefined ? labels.of(v.pathIndex) : causeLabel(labels, v);
  if (label === `#${n}`) return null;
  return `request message ${n} = message ${label} (the provider counts the messages of the request it received, from 0)`;
}
