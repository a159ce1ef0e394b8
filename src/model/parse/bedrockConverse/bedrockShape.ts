/**
 * What a Converse message is, for the sniff (`bedrockConverse.ts`) and for the diagnostic of a
 * near miss (`nearMiss.ts`): the first thing in a message that stops it reading as one.
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

/** Keys of a Converse `ContentBlock` (exactly one is present). */
export const BLOCK_KEYS = new Set([
  'text',
  'image',
  'document',
  'video',
  'audio',
  'toolUse',
  'toolResult',
  'reasoningContent',
  'cachePoint',
  'citationsContent',
  'searchResult',
  'guardContent',
  'toolAddition',
  'toolRemoval',
]);

const ROLES = "'user' | 'assistant'";
const BLOCKS = 'an object with one key: text, toolUse, toolResult, …';

/** Where another API's roles go in Converse. */
function roleHint(role: string): string {
  if (role === 'tool') return ' (Converse sends toolResult blocks in a user message)';
  if (role === 'system') return ' (Converse takes the system prompt in the top-level `system`)';
  return '';
}

/** What stops one content block reading as a Converse block (null: nothing). */
function blockProblem(b: unknown, i: number): Problem {
  const at = `content block ${i}`;
  if (!isObject(b))
    return { key: ['content', i], problem: `${at} must be ${BLOCKS}, got ${describeValue(b)}` };
  if ('type' in b)
    return {
      key: ['content', i, 'type'],
      problem: `${at} has \`type\` ${describeValue(b.type)}, which a Converse block does not (${BLOCKS})`,
    };
  let keys = 0;
  for (const k in b) {
    if (!Object.prototype.hasOwnProperty.call(b, k)) continue;
    keys++;
    if (!BLOCK_KEYS.has(k))
      return {
        key: ['content', i, k],
        problem: `${at} has key \`${k}\`, not a Converse block key (${BLOCKS})`,
      };
  }
  if (keys === 0 || keys > 2)
    return { key: ['content', i], problem: `${at} has ${keys} keys, not ${BLOCKS}` };
  return null;
}

/** What stops a value reading as a Converse message (null: nothing). */
export function bedrockProblem(m: unknown): Problem {
  if (!isObject(m)) return notAMessage(m);
  const head = roleProblem(m, ROLES);
  if (head) return head;
  const role = m.role as string;
  if (role !== 'user' && role !== 'assistant') return unknownRole(role, ROLES, roleHint(role));
  const c = m.content;
  if (c === undefined)
    return { key: [], problem: 'content is missing (an array of content blocks)' };
  if (!Array.isArray(c)) {
    // One block given alone, not in an array.
    const alone = isObject(c) && blockProblem(c, 0) === null ? ' (one block, not in an array)' : '';
    return {
      key: ['content'],
      problem: `content must be an array of content blocks, got ${describeValue(c)}${alone}`,
    };
  }
  for (let i = 0; i < c.length; i++) {
    const p = blockProblem(c[i], i);
    if (p) return p;
  }
  return null;
}

const MARK_KEYS = ['toolUse', 'toolResult', 'reasoningContent', 'cachePoint'];

/** What only Converse has: its top-level fields, or its tool and reasoning blocks. */
function marked(v: unknown, list: unknown[]): boolean {
  if (isObject(v) && ('toolConfig' in v || 'inferenceConfig' in v || 'modelId' in v)) return true;
  for (const m of list) {
    if (!isObject(m)) continue;
    // A block given on its own (not in an array) is still Converse's.
    const blocks = Array.isArray(m.content) ? (m.content as unknown[]) : [m.content];
    for (const b of blocks) if (isObject(b) && MARK_KEYS.some((k) => k in b)) return true;
  }
  return false;
}

/** The near miss of a value as a Converse request (`FormatParser.nearMiss`). */
export function bedrockNearMiss(v: unknown): NearMiss | null {
  return listMiss(v, bedrockProblem, marked);
}
