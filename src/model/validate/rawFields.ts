/**
 * What the rules read of a message's source JSON (`Message.raw`): the Responses item `type`
 * (openaiResponses.render.ts), the Chat Completions `function` role (rules/toolRuns.ts), the
 * Mistral `prefix` flag (reference.chat.ts, mistral.ts), an empty Chat `tool_calls` list (O15)
 * and a Chat `content: null` (O16, openaiChat.ts). Everything else in `raw` is for the raw
 * view and export. Lets a holder of many messages keep only this much of each (issue 20: the
 * worker of a long log, whose page reads the whole raw from the file's bytes).
 */
import { isObject } from '../parse/util.ts';

/** The fields kept, each read by name (never a key taken from input). */
interface RulesRead {
  type?: unknown;
  role?: unknown;
  prefix?: unknown;
  /** Kept only when it is an empty array (O15): the calls themselves are blocks. */
  tool_calls?: unknown;
  /** Kept only when null (O16): the content itself is blocks. */
  content?: null;
}

/**
 * @param raw a message's raw value (one record)
 * @returns a new object with only the fields rules read; anything not an object unchanged.
 *   Validation of messages whose raws are replaced by this equals validation of the originals
 *   for every provider (a property test holds it).
 */
export function rawAsRulesRead(raw: unknown): unknown {
  if (!isObject(raw)) return raw;
  // A plain object with fixed keys, not a prototype-less one (its keys are the names above,
  // never one from input): V8 keeps an object made by Object.create(null) as a hash table, and
  // the worker holds one per record of a long log — 18 MiB for the 100,000 records of the 115 MB
  // bench log against 6 MiB as plain objects (issue 38).
  const out: RulesRead = {};
  if (Object.hasOwn(raw, 'type')) out.type = raw.type;
  if (Object.hasOwn(raw, 'role')) out.role = raw.role;
  if (Object.hasOwn(raw, 'prefix')) out.prefix = raw.prefix;
  if (isEmptyArray(raw.tool_calls)) out.tool_calls = [];
  if (raw.content === null) out.content = null;
  return out;
}

/** True for an empty array (`tool_calls: []`). */
function isEmptyArray(v: unknown): boolean {
  return Array.isArray(v) && v.length === 0;
}

/**
 * True when a message's source JSON (as sent, or as `rawAsRulesRead` keeps it) holds an empty
 * `tool_calls` list, which OpenAI's schema refuses (O15).
 */
export function hasEmptyToolCalls(raw: unknown): boolean {
  return isObject(raw) && isEmptyArray(raw.tool_calls);
}

/** True when a message's source JSON (as sent, or as `rawAsRulesRead` keeps it) has `content: null`. */
export function hasNullContent(raw: unknown): boolean {
  return isObject(raw) && raw.content === null;
}
