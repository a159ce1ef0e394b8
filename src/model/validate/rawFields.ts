/**
 * What the rules read of a message's source JSON (`Message.raw`): the Responses item `type`
 * (openaiResponses.render.ts), the Chat Completions `function` role (rules/toolRuns.ts) and the
 * Mistral `prefix` flag (reference.chat.ts, mistral.ts). Everything else in `raw` is for the raw
 * view and export. Lets a holder of many messages keep only this much of each (issue 20: the
 * worker of a long log, whose page reads the whole raw from the file's bytes).
 */
import { ownRecord } from '../own.ts';
import { isObject } from '../parse/util.ts';

const FIELDS = ['type', 'role', 'prefix'] as const;

/**
 * @param raw a message's raw value (one record)
 * @returns a new object with only the fields rules read; anything not an object unchanged.
 *   Validation of messages whose raws are replaced by this equals validation of the originals
 *   for every provider (a property test holds it).
 */
export function rawAsRulesRead(raw: unknown): unknown {
  if (!isObject(raw)) return raw;
  const out: Record<string, unknown> = ownRecord();
  for (const k of FIELDS) if (k in raw) out[k] = raw[k];
  return out;
}
