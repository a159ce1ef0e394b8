/**
 * What an Anthropic message is, for the sniff (`anthropicMessages.ts`) and for the diagnostic of
 * a near miss (`nearMiss.ts`): the first thing in a message that stops it reading as one.
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
import { isObject } from '../util.ts';

/** Part types of other APIs: a message holding one is another format's. */
export const FOREIGN_PARTS = new Set([
  'input_text',
  'output_text',
  'image_url',
  'input_image',
  'input_audio',
  'function_call',
  'function_call_output',
  'tool-call',
  'tool-result',
]);

/** Fields of other formats' messages (Chat, Gemini, Responses items). */
const FOREIGN_FIELDS = ['tool_calls', 'tool_call_id', 'function_call', 'parts', 'type'] as const;

const ROLES = "'user' | 'assistant'";

/** The first content block of another API, or null. */
function foreignBlock(c: unknown[]): Problem {
  for (let i = 0; i < c.length; i++) {
    const b = c[i];
    if (!isObject(b)) continue;
    if (FOREIGN_PARTS.has(b.type as string))
      return {
        key: ['content', i, 'type'],
        problem: `content block ${i} has type ${describeValue(b.type)}, not an Anthropic block (text, image, tool_use, tool_result, thinking, …)`,
      };
    if ('toolUse' in b || 'toolResult' in b)
      return {
        key: ['content', i],
        problem: `content block ${i} is a Bedrock ${'toolUse' in b ? 'toolUse' : 'toolResult'}, not an Anthropic tool_use or tool_result block`,
      };
  }
  return null;
}

/** What stops a value reading as an Anthropic message (null: nothing). */
export function anthropicProblem(m: unknown): Problem {
  if (!isObject(m)) return notAMessage(m);
  for (const k of FOREIGN_FIELDS)
    if (k in m) return { key: [k], problem: `has \`${k}\`, which an Anthropic message does not` };
  const head = roleProblem(m, ROLES);
  if (head) return head;
  const role = m.role as string;
  if (role !== 'user' && role !== 'assistant' && role !== 'system')
    return unknownRole(
      role,
      ROLES,
      role === 'tool' ? ' (Anthropic sends tool_result blocks in a user message)' : '',
    );
  const c = m.content;
  if (typeof c === 'string') return null;
  if (Array.isArray(c)) return foreignBlock(c);
  return c === undefined
    ? { key: [], problem: 'content is missing (a string or an array of content blocks)' }
    : {
        key: ['content'],
        problem: `content must be a string or an array of content blocks, got ${describeValue(c)}`,
      };
}

const MARK_BLOCKS = new Set(['tool_use', 'tool_result', 'thinking', 'redacted_thinking']);

/** What only Anthropic has: its top-level fields, or its tool and thinking blocks. */
function marked(v: unknown, list: unknown[]): boolean {
  if (isObject(v) && ('anthropic_version' in v || 'max_tokens' in v || 'system' in v)) return true;
  for (const m of list) {
    if (!isObject(m)) continue;
    // A block given on its own (not in an array) is still Anthropic's.
    const blocks = Array.isArray(m.content) ? (m.content as unknown[]) : [m.content];
    for (const b of blocks) if (isObject(b) && MARK_BLOCKS.has(b.type as string)) return true;
  }
  return false;
}

/** The near miss of a value as an Anthropic request (`FormatParser.nearMiss`). */
export function anthropicNearMiss(v: unknown): NearMiss | null {
  return listMiss(v, anthropicProblem, marked);
}
