/**
 * Near misses: JSON that no format's sniff takes, though most of it reads as one format's message
 * list (an Anthropic or Chat body with one message whose `role` is `123`, a `tool` role among
 * Anthropic blocks, a Gemini content of role `assistant`, a Converse block not in an array, a
 * Responses item of a type the API does not have). Detection stays as strict as it is; a failed
 * detection asks each format that can say so (`FormatParser.nearMiss`) how much of the value it
 * reads and where it first stops, and the parse error names the closest format, the message and
 * what was expected, with the line and column when the input's text is at hand (`locatePath`).
 */
import { visit } from 'jsonc-parser';
import type { FormatId, SourceLocation } from '../types.ts';
import { locate } from './json.ts';
import { isObject } from './util.ts';

/** Where one format stops reading a value, and how much of it it reads before and after. */
export interface NearMiss {
  /** How many of the messages this format reads as its own, and of how many. */
  read: number;
  total: number;
  /** True when the value has what only this format has (its blocks, fields or top-level keys). */
  marked: boolean;
  /** Keys from the value's root to the first offending value (`['messages', 3, 'role']`). */
  path: (string | number)[];
  /** The message it is in (0-based in the list), or null for a top-level field. */
  message: number | null;
  /** What was expected and what was found: `role must be a string ('user' | 'assistant'), got 123`. */
  problem: string;
}

/** The closest format of a value no format takes (`ParseError.closest`). */
export interface ClosestFormat extends NearMiss {
  format: FormatId;
  label: string;
}

/** A value in a few words for a message (`123`, `'tool'`, `an object`, `null`), bounded. */
export function describeValue(v: unknown): string {
  if (v === null) return 'null';
  if (v === undefined) return 'nothing';
  if (Array.isArray(v)) return 'an array';
  if (typeof v === 'object') return 'an object';
  if (typeof v === 'string') return v.length > 40 ? `'${v.slice(0, 40)}…'` : `'${v}'`;
  return String(v);
}

/** The first thing in a message that stops it reading as a format's, or null (nothing). */
export type Problem = { key: (string | number)[]; problem: string } | null;

/**
 * A value that is not a message object, said so.
 * @param what what a message of the format is (`an object with role and parts`)
 */
export function notAMessage(m: unknown, what = 'an object with role and content'): Problem {
  return { key: [], problem: `must be ${what}, got ${describeValue(m)}` };
}

/** A message whose `role` is missing or not a string, said so with the format's `roles`; else null. */
export function roleProblem(m: Record<string, unknown>, roles: string): Problem {
  if (!('role' in m)) return { key: [], problem: `role is missing (${roles})` };
  if (typeof m.role !== 'string')
    return {
      key: ['role'],
      problem: `role must be a string (${roles}), got ${describeValue(m.role)}`,
    };
  return null;
}

/**
 * A message whose role is a string but not one of the format's, said so: `roles` the format's,
 * `hint` where another API's role goes in it (` (Converse sends toolResult blocks …)`).
 */
export function unknownRole(role: string, roles: string, hint = ''): Problem {
  return {
    key: ['role'],
    problem: `role must be one of ${roles}, got ${describeValue(role)}${hint}`,
  };
}

/**
 * A value's message list and its key: a bare array, or an object's list under `key`
 * (`messages`; Gemini's `contents`, the Responses `input`).
 */
export function messageList(
  v: unknown,
  key = 'messages',
): { list: unknown[]; base: (string | number)[] } | null {
  if (Array.isArray(v)) return { list: v, base: [] };
  const list = isObject(v) ? v[key] : undefined;
  return Array.isArray(list) ? { list, base: [key] } : null;
}

/**
 * A format's near miss over a message list, from a per-message check.
 * @param problemOf null for a message the format reads, else the offending key (under the
 *   message) and what is wrong with it
 * @param marked whether the value (or its list) has what only this format has
 * @param key the list's key in an object (`messages`, `contents`, `input`)
 * @returns null when every message reads, or fewer than half do, nothing only this format has is
 *   there and some message is not an object with a `role` (with the mark, no message need read: a
 *   body with `max_tokens` whose one message has role 123 is still Anthropic's near miss; without
 *   it, a list of such objects is still a message list, only a value inside one is off:
 *   `{"messages":[{"role":123}]}` is every such format's near miss, `marked` false)
 */
export function listMiss(
  v: unknown,
  problemOf: (m: unknown) => Problem,
  marked: (v: unknown, list: unknown[]) => boolean,
  key = 'messages',
): NearMiss | null {
  const found = messageList(v, key);
  if (!found || found.list.length === 0) return null;
  const { list, base } = found;
  let first: { path: (string | number)[]; message: number; problem: string } | null = null;
  let read = 0;
  for (let i = 0; i < list.length; i++) {
    const p = problemOf(list[i]);
    if (p === null) read++;
    else first ??= { path: [...base, i, ...p.key], message: i, problem: p.problem };
  }
  if (first === null) return null;
  const mark = marked(v, list);
  if ((read === 0 || read * 2 < list.length) && !mark && !list.every(hasRole)) return null;
  return { ...first, read, total: list.length, marked: mark };
}

/** True for an object with a `role` key, whatever its value: the outline of every format's message. */
function hasRole(m: unknown): boolean {
  return isObject(m) && 'role' in m;
}

/** The longest text `locatePath` reads again for a position (a failed load only). */
const LOCATE_CHARS = 32 << 20;

/** True when `p` is `path` (`prefix`: or leads into it). */
function onPath(
  p: readonly (string | number)[],
  path: readonly (string | number)[],
  prefix: boolean,
) {
  if (prefix ? p.length > path.length : p.length !== path.length) return false;
  for (let i = 0; i < p.length; i++) if (p[i] !== path[i]) return false;
  return true;
}

/**
 * Where a value at `path` starts in JSON text: its line and column, or null when the text is not
 * that JSON (a curl command, an SSE dump: the value was unwrapped from it) or is too long. One
 * scan that visits only what leads to the path (no tree is built).
 * @param value the value expected there: a literal must be equal, an object or array of its kind
 */
export function locatePath(
  text: string,
  path: readonly (string | number)[],
  value: unknown,
): SourceLocation | null {
  if (text.length > LOCATE_CHARS) return null;
  // A byte order mark is not part of the JSON (`readSource` drops it), nor a column an editor shows.
  const json = text.charCodeAt(0) === 0xfeff ? text.slice(1) : text;
  let at = -1;
  let failed = false;
  const open =
    (kind: 'object' | 'array') =>
    (offset: number, _l: number, _sl: number, _sc: number, where: () => (string | number)[]) => {
      const p = where();
      if (at < 0 && onPath(p, path, false))
        at =
          kind === (Array.isArray(value) ? 'array' : 'object') && isObjectLike(value) ? offset : -2;
      return at === -1 && onPath(p, path, true);
    };
  visit(
    json,
    {
      onObjectBegin: open('object'),
      onArrayBegin: open('array'),
      // Given, though empty: jsonc-parser resumes the callbacks after a skipped object or array
      // only through its end callback.
      onObjectEnd: () => undefined,
      onArrayEnd: () => undefined,
      onLiteralValue: (v: unknown, offset, _l, _sl, _sc, where) => {
        if (at === -1 && onPath(where(), path, false)) at = v === value ? offset : -2;
      },
      onError: () => {
        failed = true;
      },
    },
    { disallowComments: true },
  );
  return failed || at < 0 ? null : locate(json, at);
}

function isObjectLike(v: unknown): boolean {
  return typeof v === 'object' && v !== null;
}
