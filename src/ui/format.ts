/** Small display helpers for the timeline (text only, never HTML). */
import type { Block } from '../model/types.ts';
import { sourceName, type Source } from '../state/store.ts';
import { jsonBidiEscaped, visibleBidi } from '../model/displayName.ts';

export { visibleBidi };

const INT = new Intl.NumberFormat('en-US', { maximumFractionDigits: 0 });

/** `1234` → `1,234`. (One shared formatter: `toLocaleString` builds one per call, ~100× slower.) */
export function fmtInt(n: number): string {
  return INT.format(Math.round(n));
}

/**
 * A count and its noun, singular for one: `1 id`, `2 ids`, `1,234 ids`.
 * @param plural the noun for any other count (default: `singular` + `s`)
 */
export function fmtCount(n: number, singular: string, plural = `${singular}s`): string {
  return `${fmtInt(n)} ${countNoun(n, singular, plural)}`;
}

/**
 * The noun `fmtCount` puts after a count, alone (for a count drawn apart, e.g. in bold): `file`
 * for one, `files` for any other.
 * @param plural the noun for any other count (default: `singular` + `s`)
 */
export function countNoun(n: number, singular: string, plural = `${singular}s`): string {
  return Math.round(n) === 1 ? singular : plural;
}

/**
 * A violation's tool call ids as the verdict prints them (`ids: …`), or null when none of them
 * is an id: a request whose calls carry none (Gemini's `functionCall` without `id`) has empty
 * ids, and printed them as `ids: ,` (newcomer). An empty id among real ones reads `(no id)`, as
 * the timeline's chips say. Bidi controls are shown as code points.
 * @param ids the violation's `ids`, in order
 */
export function idListText(ids: readonly string[]): string | null {
  if (!ids.some((id) => id !== '')) return null;
  return ids.map((id) => (id === '' ? '(no id)' : visibleBidi(id))).join(', ');
}

/** First `max` characters of a text on one line, with an ellipsis when cut. */
export function excerpt(text: string, max = 60): string {
  const one = text.replace(/\s+/g, ' ').trim();
  return visibleBidi(one.length > max ? `${one.slice(0, max - 1)}…` : one);
}

/** Plain text of a block for the expanded view. */
export function blockText(b: Block): string {
  switch (b.type) {
    case 'text':
      return b.text;
    case 'thinking':
      return b.thinking;
    case 'tool_use':
      return typeof b.input === 'string' ? b.input : (JSON.stringify(b.input, null, 2) ?? '');
    case 'tool_result':
      return b.content.map(blockText).join('\n');
    case 'redacted_thinking':
      return `(encrypted reasoning, ${fmtInt(b.bytes)} bytes)`;
    case 'image':
    case 'document':
      return `(${b.type}${b.mediaType ? `, ${b.mediaType}` : ''}${b.bytes !== undefined ? `, ${fmtInt(b.bytes)} bytes` : ''})`;
    case 'other':
      return JSON.stringify(b.raw, null, 2) ?? '';
  }
}

/** Pretty JSON for the raw view; never throws (cycles or BigInt fall back to String). */
export function prettyJson(v: unknown): string {
  let json: string;
  try {
    json = JSON.stringify(v, null, 2) ?? String(v);
  } catch {
    json = String(v);
  }
  // As JSON escapes (`\u202E`): still the same JSON, but shown as it is (`visibleBidi`).
  return jsonBidiEscaped(json);
}

/**
 * What a source is, in words, for notes that name the transcript on screen: "the sample
 * invoice.json", "the file run.jsonl", "the text pasted earlier", "the linked transcript".
 * @param s the source shown (null: none known)
 */
export function describeSource(s: Pick<Source, 'origin' | 'name' | 'fileName'> | null): string {
  if (!s) return 'the last transcript that parsed';
  switch (s.origin) {
    case 'sample':
      return s.name ? `the sample ${s.name}` : 'the sample';
    case 'file':
      return s.name ? `the file ${sourceName(s)}` : 'the file opened earlier';
    case 'paste':
      return 'the text pasted earlier';
    case 'link':
      return 'the linked transcript';
  }
}

/** Most marks drawn in one block: a one-letter query in a 1 MB text would mount a million nodes. */
const MAX_MARKS = 500;

/**
 * Where the find query occurs in a text (case-insensitive, as `selectMatches` matches): sorted,
 * non-overlapping [start, end) character ranges, at most `max` of them. The query is trimmed; an
 * empty one gives none.
 * @example findRanges('Read the README', 'read') // [[0, 4], [9, 13]]
 */
export function findRanges(text: string, query: string, max = MAX_MARKS): [number, number][] {
  const q = query.trim();
  if (q.length === 0) return [];
  const re = new RegExp(q.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'giu');
  const out: [number, number][] = [];
  for (const m of text.matchAll(re)) {
    if (out.length >= max) break;
    out.push([m.index, m.index + m[0].length]);
  }
  return out;
}
