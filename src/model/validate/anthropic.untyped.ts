/**
 * Anthropic A20: a content block with no `type` in an Anthropic request body (a Bedrock Converse
 * `{"text": …}` block, another client's part sent as it is). The API's schema wants every block
 * tagged, and answers `messages.N.content.M.type: Field required` before any other check.
 */
import type { Block, Message, Transcript } from '../types.ts';
import { ruleText } from './catalogue/index.ts';
import type { Push } from './rules/common.ts';
import { isUntyped } from './rules/partTypes.ts';

/**
 * A20: each block without `type` of the request's messages, in message and block order. Only a
 * body read as Anthropic Messages is judged so: another format's blocks are its own, or rendered
 * by a client into typed blocks before sending.
 * @param t the transcript (its format decides whether the rule applies)
 * @param source the request's messages as sent (a subset when eviction validates one): N counts
 *   them, before any merging (the schema is checked on the body as sent)
 * @param push where the findings go
 */
export function checkUntyped(t: Transcript, source: readonly Message[], push: Push): void {
  if (t.format !== 'anthropic-messages') return;
  for (let n = 0; n < source.length; n++) {
    const m = source[n] as Message;
    for (let bi = 0; bi < m.blocks.length; bi++) {
      if (!isUntyped(m.blocks[bi] as Block)) continue;
      push({
        rule: 'untyped_part',
        code: 'A20',
        messageIndex: m.rawIndex,
        index: m.index,
        blockIndex: bi,
        ids: [],
        providerPath: `messages.${n}.content.${bi}.type`,
        message: ruleText('A20', { n, m: bi }),
        title: 'A content block without a type',
        why: 'Every content block of an Anthropic message must say its `type` (`{"type": "text", "text": …}`). A block with no type, such as a Bedrock Converse block (`{"text": …}`), is refused before anything else is checked.',
        confidence: 'V',
      });
    }
  }
}
