/**
 * Bedrock Converse's checks of what messages hold: B11 (a message with no content blocks) and
 * B12 (a text block that is empty or only whitespace), made for every model (Claude included:
 * the request never reaches the model); B5 (text next to tool results, model-dependent) and B6
 * (an error result with empty content).
 */
import type { Block, Message, Transcript } from '../types.ts';
import { ruleText } from './catalogue/index.ts';
import type { FindingPush } from './bedrock.ids.ts';
import type { ViolationInput } from './rules/common.ts';
import { isBlank } from './rules/blank.ts';
import { isClientResult } from './rules/pairing.ts';
import type { RenderedItem } from './types.ts';
import {
  turnEmptyString,
  turnHead,
  turnItems,
  turnRole,
  turnSize,
  type Turns,
} from './rules/turns.ts';

/** A violation at one block of the request. */
export function at(
  it: RenderedItem,
): Pick<ViolationInput, 'messageIndex' | 'index' | 'blockIndex'> {
  return { messageIndex: it.msg.rawIndex, index: it.msg.index, blockIndex: it.blockIndex };
}

/**
 * B11 and B12 of turn `n`. A final assistant message may be empty (as Anthropic's A10 allows;
 * not captured for Converse), its text blocks are judged as any other. The role and pairing
 * checks of the turn still run after it (an empty message can break those too).
 */
export function checkContent(T: Turns, n: number, isFinal: boolean, push: FindingPush): void {
  const size = turnSize(T, n);
  // A message sent as the empty string renders as no blocks (as Anthropic's A10 counts it).
  if (size === 0 || turnEmptyString(T, n, size)) {
    if (isFinal && turnRole(T, n) === 'assistant') return;
    const head = turnHead(T, n);
    push({
      rule: 'empty_content',
      code: 'B11',
      messageIndex: head.rawIndex,
      index: head.index,
      blockIndex: null,
      ids: [],
      providerPath: `messages.${n}.content`,
      message: ruleText('B11', { n }),
    });
    return;
  }
  let m = 0;
  for (let s = T.start[n] as number; s < (T.start[n + 1] as number); s++) {
    const msg = T.msgs[s] as Message;
    for (let bi = 0; bi < msg.blocks.length; bi++, m++) {
      const b = msg.blocks[bi] as Block;
      if (b.type !== 'text' || !isBlank(b.text)) continue;
      push({
        rule: 'empty_text',
        code: 'B12',
        messageIndex: msg.rawIndex,
        index: msg.index,
        blockIndex: bi,
        ids: [],
        providerPath: `messages.${n}.content.${m}.text`,
        message: ruleText('B12', { n, m }),
      });
    }
  }
}

/** B5 (text next to tool results, model-dependent) and B6 (empty error result) of user turn n. */
export function checkResultContent(
  t: Transcript,
  T: Turns,
  n: number,
  claude: boolean,
  push: FindingPush,
  notes: string[],
): void {
  // The turn's blocks read in place first (no item per block, no closures: this runs per user
  // turn of every check); the items are built only for a finding.
  let results = false;
  let text: RenderedItem | null = null;
  let emptyError = false;
  for (let s = T.start[n] as number; s < (T.start[n + 1] as number); s++) {
    const msg = T.msgs[s] as Message;
    for (let bi = 0; bi < msg.blocks.length; bi++) {
      const b = msg.blocks[bi] as Message['blocks'][number];
      if (isClientResult(b)) {
        results = true;
        if (b.type === 'tool_result' && b.isError && b.content.length === 0) emptyError = true;
      } else if (text === null && b.type === 'text') text = { block: b, msg, blockIndex: bi };
    }
  }
  if (!results) return;
  if (text) {
    // An error only for a known non-Claude Bedrock model id (a model named by another format is not one).
    const bedrockModel = t.format === 'bedrock-converse' && t.settings.model !== undefined;
    const severity = bedrockModel && !claude ? 'error' : 'warning';
    push({
      rule: 'mixed_result_and_text',
      code: 'B5',
      ...at(text),
      ids: [],
      providerPath: `messages.${n}.content`,
      message: ruleText('B5', { n }),
      severity,
    });
    if (severity === 'warning')
      notes.push(
        `B5 (text next to tool results in messages.${n}) is reported for some model families only; ${claude ? 'Claude models are not reported to raise it' : 'the Bedrock model is unknown'}, so it is a warning here.`,
      );
  }
  if (!emptyError) return;
  turnItems(T, n).forEach((it, m) => {
    const b = it.block;
    if (b.type !== 'tool_result' || b.server !== undefined || !b.isError) return;
    if (b.content.length > 0) return;
    push({
      rule: 'error_result_empty',
      code: 'B6',
      ...at(it),
      ids: b.toolUseId !== null ? [b.toolUseId] : [],
      providerPath: `messages.${n}.content.${m}.toolResult`,
      message: ruleText('B6', { n, m }),
    });
  });
}
