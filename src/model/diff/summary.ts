/**
 * The one sentence on top of a diff: what the right request did to the left one, and what it
 * broke. E.g. "Request 14 dropped messages 3–9 (2 exchanges, 11,240 tokens) and split the
 * exchange at #10: its tool_result is orphaned → Anthropic Messages 400 (A1)."
 */
import { groupExchanges } from '../exchanges.ts';
import { messageLabels } from '../messageLabels.ts';
import type { Transcript } from '../types.ts';
import { validatorFor, type Validation, type Violation } from '../validate/index.ts';
import type { DiffRow, TranscriptDiff } from './types.ts';

const fmt = (n: number) => Math.round(n).toLocaleString('en-US');
const plural = (n: number, word: string) => `${fmt(n)} ${word}${n === 1 ? '' : 's'}`;

/** Consecutive numbers as ranges: [3,4,5,9] → [[3,5],[9,9]]. */
export function ranges(list: readonly number[]): [number, number][] {
  const out: [number, number][] = [];
  for (const x of list) {
    const last = out[out.length - 1];
    if (last && x === last[1] + 1) last[1] = x;
    else out.push([x, x]);
  }
  return out;
}

/**
 * How a side's messages are named: by position (a request's messages), or by the rows the view
 * labels them with (the sides of one transcript's cuts keep the timeline's numbers, `#10`, `#3.2`:
 * `messageLabels`), without the `#`.
 */
type Name = (position: number) => string;
const byPosition: Name = (i) => String(i);
const byRowLabel = (t: Transcript): Name => {
  const labels = messageLabels(t.messages);
  return (i) => labels.of(i).slice(1);
};

/**
 * "messages 3–9", "message 3", "messages 3–5 and 9", "40 messages in 6 spans".
 * @param list positions, ascending; @param name how a position is written (default: itself)
 */
export function messageRanges(list: readonly number[], name: Name = byPosition): string {
  const rs = ranges(list);
  const one = ([a, b]: [number, number]) => (a === b ? name(a) : `${name(a)}–${name(b)}`);
  if (list.length === 1) return `message ${name(list[0] as number)}`;
  if (rs.length <= 3)
    return `messages ${rs.length === 1 ? one(rs[0] as [number, number]) : `${rs.slice(0, -1).map(one).join(', ')} and ${one(rs[rs.length - 1] as [number, number])}`}`;
  return `${plural(list.length, 'message')} in ${rs.length} spans`;
}

/** Exchanges of `t` every message of which is in `gone`. */
function wholeExchanges(t: Transcript, gone: ReadonlySet<number>): number {
  let n = 0;
  for (const x of groupExchanges(t.messages).exchanges)
    if (x.messages.length > 0 && x.messages.every((i) => gone.has(i))) n++;
  return n;
}

function joinAnd(parts: string[]): string {
  if (parts.length <= 1) return parts[0] ?? '';
  return `${parts.slice(0, -1).join(', ')} and ${parts[parts.length - 1]}`;
}

/** What a broken pairing's rule means, in a few words about the exchange. */
function brokenWords(v: Violation): string {
  switch (v.rule) {
    case 'orphan_tool_result':
      return 'its tool_result is orphaned';
    case 'unanswered_tool_use':
    case 'trailing_tool_use':
      return 'its tool_use is unanswered';
    case 'partial_answer':
      return 'its tool calls are answered in part';
    case 'tool_result_not_first':
      return 'its tool_result no longer comes first';
    default:
      return v.title.charAt(0).toLowerCase() + v.title.slice(1);
  }
}

/**
 * Where a pairing broke, in words: an exchange the change split, at the left message number of
 * a message that was there before; or a new message (numbered on the right) that broke it.
 */
function wherePairBroke(rows: readonly DiffRow[], right: number, names: Names): string {
  const row = rows.find((r) => r.right === right);
  return row?.left !== null && row?.left !== undefined
    ? `split the exchange at #${names.left(row.left)}`
    : `broke the pairing at new message #${names.right(right)}`;
}

/** How each side's messages are named (`Name`). */
interface Names {
  left: Name;
  right: Name;
}

/** The changes in words: dropped, summarised, inserted, rewritten, merged, sealed, reordered. */
function changeParts(d: TranscriptDiff, left: Transcript, name: Name): string[] {
  const dropped: number[] = [];
  const sealed: number[] = [];
  let summaries = 0;
  for (const r of d.rows) {
    if (r.change === 'dropped' && r.left !== null) dropped.push(r.left);
    if (r.change === 'sealed' && r.left !== null) sealed.push(r.left);
    if (r.change === 'rewritten' && r.left === null) summaries++;
  }
  const parts: string[] = [];
  if (dropped.length > 0) {
    const x = wholeExchanges(left, new Set(dropped));
    const what = x > 0 ? `${plural(x, 'exchange')}, ` : '';
    const verb = summaries > 0 ? 'replaced' : 'dropped';
    const by =
      summaries === 1 ? ' with a summary' : summaries > 1 ? ` with ${summaries} summaries` : '';
    parts.push(
      `${verb} ${messageRanges(dropped, name)} (${what}${plural(d.counts.droppedTokens, 'token')})${by}`,
    );
  } else if (summaries > 0)
    parts.push(`added ${summaries === 1 ? 'a summary' : `${summaries} summaries`}`);
  if (sealed.length > 0) parts.push(`sealed ${messageRanges(sealed, name)} in a compaction`);
  const c = d.counts;
  if (c.inserted > 0)
    parts.push(`added ${plural(c.inserted, 'message')} (${plural(c.insertedTokens, 'token')})`);
  const rewritten = c.rewritten - summaries;
  if (rewritten > 0) parts.push(`rewrote ${plural(rewritten, 'message')}`);
  if (c.merged > 0) parts.push(`merged ${plural(c.merged, 'message')}`);
  if (c.reordered > 0) parts.push(`moved ${plural(c.reordered, 'message')}`);
  return parts;
}

/** What broke, with the 400 it causes; empty when nothing did. */
function brokePart(d: TranscriptDiff, right: Validation, names: Names): string {
  const provider = validatorFor(d.provider)?.label ?? d.provider;
  const firstBroken = d.broken.find((b) => b.severity === 'error');
  if (firstBroken) {
    const v = right.violations.find(
      (x) => x.rule === firstBroken.rule && x.ids.includes(firstBroken.id),
    );
    if (v) {
      const more = d.broken.filter((b) => b.severity === 'error').length - 1;
      return `${wherePairBroke(d.rows, v.index, names)}: ${brokenWords(v)} → ${provider} ${v.status ?? 400} (${v.code})${more > 0 ? `, and ${plural(more, 'more pairing')} broke` : ''}`;
    }
  }
  const intro = d.introduced.find((x) => x.severity === 'error');
  if (intro) {
    const v = right.violations.find((x) => x.rule === intro.rule && x.ids.length === 0);
    if (v)
      return `made the request invalid: ${brokenWords(v)} → ${provider} ${v.status ?? 400} (${v.code})`;
  }
  return '';
}

/**
 * The summary sentence of a diff.
 * @param d the diff (rows, counts, broken, introduced, sides)
 * @param sides the two transcripts as diffed and the right side's validation; `rowLabels`: name
 *   messages as the view's rows do when both sides are cuts of one transcript (`briefsOf`)
 */
export function diffSummary(
  d: TranscriptDiff,
  sides: { left: Transcript; right: Transcript; validation: Validation; rowLabels?: boolean },
): string {
  const subject = d.right.label;
  const names: Names = sides.rowLabels
    ? { left: byRowLabel(sides.left), right: byRowLabel(sides.right) }
    : { left: byPosition, right: byPosition };
  const parts = changeParts(d, sides.left, names.left);
  const broke = brokePart(d, sides.validation, names);
  const through =
    sides.left.format !== sides.right.format
      ? ` (compared through the model: ${sides.left.format} and ${sides.right.format})`
      : '';
  if (parts.length === 0 && !broke) {
    const verdict = d.right.valid
      ? d.left.valid
        ? ''
        : `; it is valid, the left was not (${d.left.firstRule?.code ?? ''})`
      : d.left.valid
        ? `; it is invalid, the left was not (${d.right.firstRule?.code ?? ''})`
        : `; both are invalid (${d.right.firstRule?.code ?? ''})`;
    return `${subject} is the same as ${d.left.label.charAt(0).toLowerCase() + d.left.label.slice(1)} (${plural(d.right.messages, 'message')})${through}${verdict}.`;
  }
  const what = parts.length > 0 ? joinAnd(parts) : 'changed no message';
  // The verdict against the left's: still valid, now valid, now invalid, invalid as before.
  const tail = broke
    ? ` and ${broke}`
    : d.right.valid
      ? d.left.valid
        ? '; it is still valid'
        : `; it is now valid (the left was invalid: ${d.left.firstRule?.code ?? ''})`
      : d.left.valid
        ? `; it is now invalid (${d.right.firstRule?.code ?? ''})`
        : `; it is invalid as before (${d.right.firstRule?.code ?? ''})`;
  return `${subject} ${what}${tail}${through}.`;
}
