/**
 * Anthropic's pairing findings in its own words: A17 (a tool_use or tool_result without its id),
 * A1 (orphan result), A6b (two results for one call), A2/A3/A5 (calls left open). The scan
 * itself is the shared one (rules/pairing.ts).
 */
import type { Message } from '../types.ts';
import { ruleText } from './catalogue/index.ts';
import type { Push, ViolationInput } from './rules/common.ts';
import type { RuleId } from './types.ts';
import { idOf, idsOf, type PairFinding, type PairFindings } from './rules/pairing.ts';

/** A tool_use without `id` or a tool_result without `tool_use_id`: the API's schema error. */
export function missingId(
  msg: Message,
  bi: number,
  path: string,
  [title, why]: [string, string],
): ViolationInput {
  return {
    rule: 'missing_tool_id',
    code: 'A17',
    messageIndex: msg.rawIndex,
    index: msg.index,
    blockIndex: bi,
    ids: [],
    providerPath: path,
    message: ruleText('A17', { path }),
    title,
    why,
    confidence: 'I',
  };
}

/**
 * The findings of the shared pairing scan in Anthropic's words: A17 (result without an id), A1
 * (orphan result), A6b (two results for one call: only the first such id, at its second result),
 * and A2/A3/A5 for the calls a turn leaves open.
 */
/**
 * Word the findings a rules/pairing.ts function appended to `pairs` as Anthropic does, then empty
 * it (an array, not a callback: no closure per turn on every check, issue 17).
 */
export function wordPairs(pairs: PairFindings, push: Push): void {
  for (const f of pairs) pairingFinding(f, push);
  pairs.length = 0;
}

export function pairingFinding(f: PairFinding, push: Push): void {
  if (f.kind === 'result_without_id') {
    const { msg, blockIndex, pos } = f.at;
    push(
      missingId(msg, blockIndex, `messages.${f.n}.content.${pos}.tool_use_id`, [
        'tool_result without a tool_use_id',
        'Every tool_result must name the tool_use it answers.',
      ]),
    );
  } else if (f.kind === 'orphan') {
    const { msg, blockIndex, pos } = f.at;
    const id = idOf(f.at.block) as string;
    push({
      rule: 'orphan_tool_result',
      code: 'A1',
      messageIndex: msg.rawIndex,
      index: msg.index,
      blockIndex,
      ids: [id],
      providerPath: `messages.${f.n}.content.${pos}`,
      message: ruleText('A1', { n: f.n, m: pos, id }),
      title: 'Tool result with no matching call in the previous message',
      why: 'Anthropic requires every tool_result to answer a tool_use in the immediately previous assistant message; a trim that dropped the call, or a result placed after a later turn, leaves it orphaned.',
      confidence: 'V',
    });
  } else if (f.kind === 'duplicate_result') {
    // The path names the block where the duplicate is found: the second result with that id.
    const { msg, blockIndex, pos } = f.at;
    push({
      rule: 'duplicate_tool_result',
      code: 'A6b',
      messageIndex: msg.rawIndex,
      index: msg.index,
      blockIndex,
      ids: [f.id],
      providerPath: `messages.${f.n}.content.${pos}`,
      message: ruleText('A6b', { n: f.n, m: pos, id: f.id }),
      title: 'Two results for one call',
      why: 'Each tool_use must be answered by exactly one tool_result; a retry or compaction that appended the results again sends two.',
      confidence: 'V',
    });
  } else if (f.kind === 'open') reportOpen(f, push);
}

const UNANSWERED_TEXT: Partial<Record<RuleId, [string, string]>> = {
  trailing_tool_use: [
    'The request ends on tool calls with no results',
    'The last message calls tools, and nothing after it answers them; Anthropic needs every tool_use answered in the next message.',
  ],
  tool_result_not_first: [
    'Text placed before the tool results',
    'Anthropic requires the tool_result blocks to come first in the user message; content before them makes the calls count as unanswered.',
  ],
  partial_answer: [
    'Only some parallel calls were answered',
    'Every tool_use in an assistant turn needs a tool_result in the very next message; the error lists only the calls left without one.',
  ],
  unanswered_tool_use: [
    'Tool calls not answered in the next message',
    'The message after a tool_use turn must begin with a tool_result for each call; here the next message does not answer them.',
  ],
  content_after_tool_use: [
    'Content after a tool_use in the same assistant message',
    'A tool_use must be the last thing in its assistant message, so that its tool_result follows it immediately; text, thinking or a server tool block after it (often an interrupted turn, or two assistant messages merged) makes Anthropic count the call as unanswered even though the next message answers it.',
  ],
};

/**
 * A2/A3/A5: the calls of assistant turn `n` that are not answered at the start of the next turn,
 * or that other content follows inside the turn (A5: the result cannot come "immediately after").
 */
function reportOpen(f: Extract<PairFinding, { kind: 'open' }>, push: Push): void {
  const ids = idsOf(f.calls);
  const [title, why] = UNANSWERED_TEXT[f.rule] as [string, string];
  push({
    rule: f.rule,
    code: f.followedOnly ? 'A5' : f.rule === 'tool_result_not_first' ? 'A3' : 'A2',
    messageIndex: f.at.msg.rawIndex,
    index: f.at.msg.index,
    blockIndex: f.at.blockIndex,
    ids,
    providerPath: `messages.${f.n}`,
    message: ruleText('A2', { n: f.n, ids }),
    title,
    why,
    confidence: f.followedOnly ? 'I' : 'V',
  });
}
