/**
 * What a Responses input item is, for the diagnostic of a near miss (`nearMiss.ts`): the first
 * thing in an item that stops it reading as one, as the sniff (`openaiResponses.ts`) refuses it.
 */
import {
  describeValue,
  listMiss,
  notAMessage,
  roleProblem,
  unknownRole,
  type NearMiss,
  type Problem,
} from '../nearMiss.ts';
import {
  CALL_TYPES,
  KNOWN_TYPES,
  MESSAGE_ROLES,
  OUTPUT_TYPES,
  PART_TYPES,
} from './openaiResponsesItems.ts';
import { isObject } from '../util.ts';

const ROLES = "'user' | 'assistant' | 'system' | 'developer'";
const ITEM = 'a message item, or a function_call / function_call_output item';
const ITEMS = 'message, function_call, function_call_output, reasoning, …';
const PARTS = 'input_text, output_text, input_image, …';

/** Chat fields a Responses message item does not have: a call or its output is an item. */
const CHAT_FIELDS = ['tool_calls', 'tool_call_id', 'function_call'] as const;

/** An item type the Responses API does not have, with the output type it likely means. */
function typeProblem(type: string): Problem {
  const output = type.replace(/_result$/, '_output');
  const what = OUTPUT_TYPES.has(output) ? `: a call's output is a ${output} item` : ` (${ITEMS})`;
  return {
    key: ['type'],
    problem: `type ${describeValue(type)} is not a Responses item type${what}`,
  };
}

/** The first content part of a message item that is not a Responses part, or null. */
function partProblem(c: unknown[]): Problem {
  for (let i = 0; i < c.length; i++) {
    const p = c[i];
    if (isObject(p) && typeof p.type === 'string' && PART_TYPES.has(p.type)) continue;
    const type = isObject(p) ? p.type : undefined;
    return type === undefined
      ? {
          key: ['content', i],
          problem: `content part ${i} must be an object with a type (${PARTS}), got ${describeValue(p)}`,
        }
      : {
          key: ['content', i, 'type'],
          problem: `content part ${i} has type ${describeValue(type)}, not a Responses part (${PARTS})`,
        };
  }
  return null;
}

/** What stops a value reading as a Responses input item (null: nothing). */
export function responsesProblem(m: unknown): Problem {
  if (!isObject(m)) return notAMessage(m, ITEM);
  const type = typeof m.type === 'string' ? m.type : undefined;
  if (type !== undefined && type !== 'message')
    return KNOWN_TYPES.has(type) ? null : typeProblem(type);
  const head = roleProblem(m, ROLES);
  if (head) return head;
  const role = m.role as string;
  if (!MESSAGE_ROLES.has(role))
    return unknownRole(
      role,
      ROLES,
      role === 'tool'
        ? ' (Responses answers a function_call with a function_call_output item by call_id)'
        : '',
    );
  for (const k of CHAT_FIELDS)
    if (k in m)
      return {
        key: [k],
        problem: `has \`${k}\`, which a Responses message item does not (a call is a function_call item)`,
      };
  const c = m.content;
  if (Array.isArray(c)) return partProblem(c);
  if (typeof c === 'string') return null;
  return c === undefined
    ? { key: [], problem: 'content is missing (a string or an array of parts)' }
    : {
        key: ['content'],
        problem: `content must be a string or an array of parts, got ${describeValue(c)}`,
      };
}

/** What only Responses has: its top-level fields, a call by `call_id`, its output or reasoning. */
function marked(v: unknown, list: unknown[]): boolean {
  if (isObject(v) && ('instructions' in v || 'previous_response_id' in v)) return true;
  for (const m of list) {
    if (!isObject(m) || typeof m.type !== 'string') continue;
    if (OUTPUT_TYPES.has(m.type) || m.type === 'reasoning') return true;
    if (CALL_TYPES.has(m.type) && 'call_id' in m) return true;
  }
  return false;
}

/** The near miss of a value as a Responses request (`FormatParser.nearMiss`). */
export function responsesNearMiss(v: unknown): NearMiss | null {
  return listMiss(v, responsesProblem, marked, 'input');
}
