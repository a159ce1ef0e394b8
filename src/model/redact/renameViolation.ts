/**
 * A violation found on the transcript, told of its structure-only copy: the ids and (hidden) tool
 * names it quotes renamed as the copy renames them. For verdicts computed before the copy was
 * made (an eviction's), which would otherwise quote the originals.
 */
import type { Violation } from '../validate/types.ts';

/** The characters a tool name or id is made of: a rename must not start or end inside a word. */
const WORD = 'A-Za-z0-9_\\-';

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

/** `text` with every whole occurrence of a key of `renames` replaced, longest key first. */
function renameWords(text: string, renames: ReadonlyMap<string, string>): string {
  const keys = [...renames.keys()].filter((k) => k !== '' && renames.get(k) !== k);
  if (keys.length === 0) return text;
  keys.sort((a, b) => b.length - a.length);
  const re = new RegExp(`(?<![${WORD}])(?:${keys.map(escapeRegExp).join('|')})(?![${WORD}])`, 'g');
  return text.replace(re, (k) => renames.get(k) ?? k);
}

/** `value` with `from` replaced by `to` in every string it holds (the error body quotes the message). */
function replaceInStrings(value: unknown, from: string, to: string): unknown {
  if (typeof value === 'string') return value.split(from).join(to);
  if (Array.isArray(value)) return value.map((v) => replaceInStrings(v, from, to));
  if (value !== null && typeof value === 'object')
    return Object.fromEntries(
      Object.entries(value).map(([k, v]) => [k, replaceInStrings(v, from, to)]),
    );
  return value;
}

/**
 * The violation as the structure-only copy would have it: its ids, message and error body quote
 * renamed ids and names. Only the message's text is searched for names, so a tool named like a
 * key or a fixed word of the body (`error`, `messages`) leaves the rest of the body alone.
 * @param ids original id → renamed id (`Redaction.ids`)
 * @param names original tool name → shown name (`Redaction.names`; identity when kept)
 */
export function renameViolation(
  v: Violation,
  ids: ReadonlyMap<string, string>,
  names: ReadonlyMap<string, string>,
): Violation {
  const all = new Map([...names, ...ids]);
  const message = renameWords(v.message, all);
  if (message === v.message && v.ids.every((id) => !ids.has(id))) return v;
  return {
    ...v,
    ids: v.ids.map((id) => ids.get(id) ?? id),
    message,
    error: v.message === '' ? v.error : replaceInStrings(v.error, v.message, message),
  };
}
