/**
 * What a provider's request index (`messages.3` in its 400 text) is in rows, said truly: the note
 * beside an error body maps the index to its row (`request message 3 = row #3`) and says how the
 * provider counts. "As the rows do" is said only when every message of the request is one row
 * numbered alike; when the provider sends consecutive same-role rows as one message (Anthropic;
 * Bedrock for a converted request), the note names the rows merged.
 */
import { messageLabels, requestIndexOf, type MessageLabels } from './messageLabels.ts';
import type { Message, ProviderId, Transcript } from './types.ts';
import { sentMessages, validatorFor } from './validate/index.ts';
import type { Turns } from './validate/rules/turns.ts';

/** The request as the provider numbers it (`ProviderValidator.requestTurns`) and the row labels. */
export interface RequestRows {
  turns: Turns;
  labels: MessageLabels;
}

/**
 * How `provider`'s request of `messages` (of `t`, as read) is made of rows: its turns as the
 * provider numbers them (`ProviderValidator.requestTurns` over the messages as sent) and the row
 * labels. Only roles are read. @returns null for a provider that does not say
 */
export function requestRowsOf(
  t: Transcript,
  messages: readonly Message[],
  provider: ProviderId,
): RequestRows | null {
  const turns = validatorFor(provider)?.requestTurns;
  if (!turns) return null;
  return {
    turns: turns(t, sentMessages(t, messages, provider)),
    labels: messageLabels(t.messages),
  };
}

/** The mapping (`request message 3 = row #3`) and how the provider counts, in parentheses. */
export interface RequestIndexText {
  note: string;
  explain: string;
}

const COUNTS = 'the provider counts the messages of the request it received, from 0';

/**
 * The first request message that is not one row labelled with its own number (`#k`), or the
 * message count when every one is: memoised per request, as a note is drawn per violation.
 */
const FIRST_APART = new WeakMap<Turns, number>();

function firstApart({ turns: T, labels }: RequestRows): number {
  const hit = FIRST_APART.get(T);
  if (hit !== undefined) return hit;
  let k = 0;
  for (; k < T.count; k++) {
    const a = T.start[k] as number;
    if ((T.start[k + 1] as number) - a !== 1) break;
    if (labels.of((T.msgs[a] as Message).index) !== `#${k}`) break;
  }
  FIRST_APART.set(T, k);
  return k;
}

/** The row labels of request message `k`. */
function rowsOf({ turns: T, labels }: RequestRows, k: number): string[] {
  const out: string[] = [];
  for (let s = T.start[k] as number; s < (T.start[k + 1] as number); s++)
    out.push(labels.of((T.msgs[s] as Message).index));
  return out;
}

/** `#1 and #2`, `#1, #2 and #4`; a longer run as `#1–#9`. */
function listRows(rows: readonly string[]): string {
  if (rows.length > 3) return `${rows[0]}–${rows[rows.length - 1]}`;
  return rows.length === 1
    ? (rows[0] as string)
    : `${rows.slice(0, -1).join(', ')} and ${rows[rows.length - 1]}`;
}

/** Where the numbers part, at request message `k` (every one before it alike). */
function apartLater(request: RequestRows, k: number): string {
  const rows = rowsOf(request, k);
  return rows.length > 1
    ? `(${COUNTS}: as the rows do up to here, but it sends rows ${listRows(rows)} (consecutive, one role) as one message, its message ${k}, so later numbers differ)`
    : `(${COUNTS}: as the rows do up to here; from its message ${k} on they differ)`;
}

/**
 * The note beside a provider's error text whose path names a request index.
 * @param providerPath `Violation.providerPath`
 * @param rowLabel the row the path names (the cause's, or `pathIndex`'s), or null
 * @param request how the provider's request is made of rows, when known (else the note says only
 *   what the numbers show)
 * @returns null when the path names no index or no row holds the cause
 * @example
 * // Anthropic, rows #1 and #2 both assistant: one request message.
 * requestIndexText('messages.1', '#1', rows) // { note: 'request message 1 = rows #1 and #2', … }
 */
export function requestIndexText(
  providerPath: string | null,
  rowLabel: string | null,
  request: RequestRows | null,
): RequestIndexText | null {
  const n = requestIndexOf(providerPath);
  if (n === null || rowLabel === null) return null;
  // Known only when the request's message n holds the row (a path another check numbered, such
  // as Claude's own on a Bedrock body, may count otherwise).
  const rows = request && n < request.turns.count ? rowsOf(request, n) : [];
  const known = request !== null && rows.includes(rowLabel);
  if (known && rows.length > 1) {
    const list = listRows(rows);
    return {
      note: `request message ${n} = rows ${list}`,
      explain: `(${COUNTS}, and sends consecutive rows of one role as one message: rows ${list} are its message ${n})`,
    };
  }
  const note = `request message ${n} = row ${rowLabel}`;
  if (rowLabel !== `#${n}`)
    return {
      note,
      explain: `(${COUNTS}, where consecutive same-role rows are one message; a row number counts the messages as read)`,
    };
  if (!known) return { note, explain: `(${COUNTS}; here that is the row number)` };
  const apart = firstApart(request);
  if (apart >= request.turns.count) return { note, explain: `(${COUNTS}, as the rows do)` };
  return {
    note,
    explain:
      apart > n
        ? apartLater(request, apart)
        : `(${COUNTS}: here that is the row number, but not for every row before it)`,
  };
}
