/**
 * What a Chat Completions message is, for the sniff (`openaiChat.ts`) and for the diagnostic of a
 * near miss (`nearMiss.ts`): the first thing in a message that stops it reading as one.
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

/** Chat's roles (legacy `function` is a tool message with no id). */
export const CHAT_ROLES: ReadonlyMap<string, Role> = nameTable({
  system: 'system',
  developer: 'developer',
  user: 'user',
  assistant: 'assistant',
  tool: 'tool',
  function: 'tool',
});

/** Chat's content part types. */
export const CHAT_PARTS = new Set(['text', 'image_url', 'refusal', 'input_audio', 'file']);

const ROLES = "'system' | 'developer' | 'user' | 'assistant' | 'tool'";

/** A part of another API in a Chat message's content, or null. */
function foreignPart(c: unknown[]): Problem {
  for (let i = 0; i < c.length; i++) {
    const p = c[i];
    if (!isObject(p) || typeof p.type !== 'string' || CHAT_PARTS.has(p.type)) continue;
    return {
      key: ['content', i, 'type'],
      problem: `content part ${i} has type ${describeValue(p.type)}, not a Chat Completions part (text, image_url, …)`,
    };
  }
  return null;
}

/** What stops a value reading as a Chat Completions message (null: nothing). */
export function chatProblem(m: unknown): Problem {
  if (!isObject(m)) return notAMessage(m);
  const head = roleProblem(m, ROLES);
  if (head) return head;
  const role = m.role as string;
  if (!CHAT_ROLES.has(role)) return unknownRole(role, ROLES);
  const c = m.content;
  if (Array.isArray(c)) return foreignPart(c);
  if (c === null || c === undefined || typeof c === 'string') return null;
  return {
    key: ['content'],
    problem: `content must be a string, null or an array of parts, got ${describeValue(c)}`,
  };
}

/** What only Chat has: a function tool, or a message field or role no other format uses. */
function marked(v: unknown, list: unknown[]): boolean {
  if (isObject(v) && Array.isArray(v.tools))
    for (const t of v.tools as unknown[]) if (isObject(t) && t.type === 'function') return true;
  for (const m of list)
    if (
      isObject(m) &&
      ('tool_calls' in m ||
        'tool_call_id' in m ||
        'function_call' in m ||
        m.role === 'developer' ||
        m.role === 'function')
    )
      return true;
  return false;
}

/** The near miss of a value as a Chat Completions request (`FormatParser.nearMiss`). */
export function chatNearMiss(v: unknown): NearMiss | null {
  return listMiss(v, chatProblem, marked);
}
