/**
 * Bedrock Converse B10: a `toolUseId` the request schema refuses (ToolUseBlock and
 * ToolResultBlock: 1–64 letters, digits, `_` and `-`), in AWS's constraint wording.
 */
import { ruleText } from './catalogue/index.ts';
import type { ViolationInput } from './rules/common.ts';
import { badIdsInTurn, idShapeOf } from './rules/toolIds.ts';
import type { Turns } from './rules/turns.ts';

const ID_SHAPE = idShapeOf('bedrock');

/** Where a Bedrock finding goes (the validator adds the title, why and confidence). */
export type FindingPush = (v: Omit<ViolationInput, 'title' | 'why' | 'confidence'>) => void;

/** B10: ids of turn `n` the schema refuses, in block order. */
export function checkIds(T: Turns, n: number, push: FindingPush): void {
  for (const b of badIdsInTurn(T, n, ID_SHAPE) ?? []) {
    const field = b.kind === 'call' ? 'toolUse' : 'toolResult';
    const variant =
      b.fault.pattern && b.fault.long ? 'both' : b.fault.pattern ? 'pattern' : 'length';
    push({
      rule: 'malformed_tool_id',
      code: 'B10',
      messageIndex: b.msg.rawIndex,
      index: b.msg.index,
      blockIndex: b.blockIndex,
      ids: [b.id],
      providerPath: `messages.${n}.member.content.${b.pos}.member.${field}.toolUseId`,
      message: ruleText('B10', { n, m: b.pos, id: b.id, type: field, variant }),
    });
  }
}
