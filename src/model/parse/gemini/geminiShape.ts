/**
 * What a Gemini content is, for the sniff (`gemini.ts`) and for the diagnostic of a near miss
 * (`nearMiss.ts`): the first thing in a content that stops it reading as one.
 */
import type { Role } from '../../types.ts';
import {
  describeValue,
  listMiss,
  notAMessage,
  roleProblem,
  unknownRole,
  type NearMiss,
  type Problem,
} from '../nearMiss.ts';
import { isObject } from '../util.ts';
import { nameTable } from '../../own.ts';

/** Gemini's roles: `model` is the assistant; `function` and `tool` hold functionResponse parts. */
export const GEMINI_ROLES: ReadonlyMap<string, Role> = nameTable({
  user: 'user',
  model: 'assistant',
  function: 'user',
  tool: 'user',
  system: 'system',
});

const ROLES = "'user' | 'model'";
const PARTS = '{text}, {functionCall}, {functionResponse}, …';

/** The first part that is not a Gemini part (a string, a typed part of another API), or null. */
function partProblem(parts: unknown[]): Problem {
  for (let i = 0; i < parts.length; i++) {
    const p = parts[i];
    if (!isObject(p))
      return {
        key: ['parts', i],
        problem: `part ${i} must be an object (${PARTS}), got ${describeValue(p)}`,
      };
    if ('type' in p)
      return {
        key: ['parts', i, 'type'],
        problem: `part ${i} has \`type\` ${describeValue(p.type)}, which a Gemini part does not (${PARTS})`,
      };
  }
  return null;
}

/** What stops a value reading as a Gemini content (null: nothing). */
export function geminiProblem(m: unknown): Problem {
  if (!isObject(m)) return notAMessage(m, 'an object with role and parts');
  // A content may leave its role out (a user turn).
  const head = 'role' in m ? roleProblem(m, ROLES) : null;
  if (head) return head;
  const role = m.role as string | undefined;
  if (role !== undefined && !GEMINI_ROLES.has(role))
    return unknownRole(
      role,
      ROLES,
      role === 'assistant' ? " (Gemini's assistant role is 'model')" : '',
    );
  const parts = m.parts;
  if (Array.isArray(parts)) return partProblem(parts);
  if (parts !== undefined)
    return {
      key: ['parts'],
      problem: `parts must be an array of parts (${PARTS}), got ${describeValue(parts)}`,
    };
  return 'content' in m
    ? {
        key: ['content'],
        problem: 'has `content`, which a Gemini content does not: its text and calls go in `parts`',
      }
    : { key: [], problem: `parts is missing (an array of parts: ${PARTS})` };
}

const MARK_PARTS = ['functionCall', 'function_call', 'functionResponse', 'function_response'];

/** What only Gemini has: its `contents` and top-level fields, the `model` role, its call parts. */
function marked(v: unknown, list: unknown[]): boolean {
  if (isObject(v) && ('contents' in v || 'systemInstruction' in v || 'system_instruction' in v))
    return true;
  for (const m of list) {
    if (!isObject(m)) continue;
    if (m.role === 'model') return true;
    if (!Array.isArray(m.parts)) continue;
    for (const p of m.parts as unknown[])
      if (isObject(p) && MARK_PARTS.some((k) => k in p)) return true;
  }
  return false;
}

/** The near miss of a value as a Gemini request (`FormatParser.nearMiss`). */
export function geminiNearMiss(v: unknown): NearMiss | null {
  return listMiss(v, geminiProblem, marked, 'contents');
}
