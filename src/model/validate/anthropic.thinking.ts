/**
 * Anthropic extended thinking (T1–T6): signatures on every thinking block sent back, no thinking
 * block last, none in the final message while thinking is off, and the open tool loop's first
 * assistant turn still starting with its thinking.
 */
import type { Message, ThinkingBlock, Transcript } from '../types.ts';
import type { Push, ViolationInput } from './rules/common.ts';
import { parserFor } from '../parse/registry.ts';
import { isCompaction } from './compaction.ts';
import { isSessionLog } from './rules/request.ts';
import { isClientCall, isClientResult } from './rules/pairing.ts';
import { turnItems, turnRole, type Turns } from './rules/turns.ts';

const DOCS_THINKING = 'https://docs.claude.com/en/docs/build-with-claude/extended-thinking';

/**
 * T6/T5 findings, gathered while the assistant turns are scanned (one pass over the blocks) and
 * pushed by `checkThinking` in the order of a turn-by-turn scan.
 */
export interface Signatures {
  /** Thinking is enabled: the signatures are checked. */
  on: boolean;
  /** Some assistant turn holds a thinking block. */
  any: boolean;
  found: ViolationInput[];
  /** The turn of each finding. */
  foundTurn: number[];
}

/**
 * T6/T5: every thinking block sent back must carry the signature Anthropic gave it. A missing one
 * is a schema error; an empty one cannot be valid. A signature from another model or
 * conversation cannot be told from the request (noted in `checkThinking`).
 */
export function checkSignature(
  b: ThinkingBlock,
  msg: Message,
  bi: number,
  n: number,
  mIdx: number,
  sig: Signatures,
): void {
  sig.any = true;
  if (b.signature === undefined) {
    sig.foundTurn.push(n);
    sig.found.push({
      rule: 'invalid_signature',
      code: 'T6',
      messageIndex: msg.rawIndex,
      index: msg.index,
      blockIndex: bi,
      ids: [],
      providerPath: `messages.${n}.content.${mIdx}.thinking.signature`,
      message: `messages.${n}.content.${mIdx}.thinking.signature: Field required`,
      title: 'Thinking block without its signature',
      why: 'Thinking blocks sent back must carry the signature the model returned with them; a converter that rebuilt the block without it breaks the request.',
      confidence: 'V',
    });
  } else if (b.signature.length === 0) {
    sig.foundTurn.push(n);
    sig.found.push({
      rule: 'invalid_signature',
      code: 'T5',
      messageIndex: msg.rawIndex,
      index: msg.index,
      blockIndex: bi,
      ids: [],
      providerPath: `messages.${n}.content.${mIdx}`,
      message: `messages.${n}.content.${mIdx}: Invalid \`signature\` in \`thinking\` block`,
      title: 'Thinking block with an empty signature',
      why: 'The signature proves the thinking came from this model in this conversation; an empty one never verifies.',
      confidence: 'V',
    });
  }
}

/**
 * What a chain of requests knows of its first turns (`anthropicChain`): `last` is the last turn
 * before `upTo` that is a user turn without a client tool_result (−1 when none), so the walk back
 * to the open tool loop's start stops there without reading those turns again.
 */
export interface LoopFloor {
  upTo: number;
  last: number;
}

/**
 * T1–T4: extended thinking rules for the final assistant turn (T1–T4).
 * @param floor what a chain knows of the turns before `floor.upTo` (none: every turn is read)
 */
export function checkThinking(
  t: Transcript,
  T: Turns,
  sig: Signatures,
  push: Push,
  notes: string[],
  floor?: LoopFloor,
): void {
  const lastN = T.count - 1;
  // The order of a scan turn by turn: the signature findings of the turns before the last, then
  // T3 on the last turn, then the last turn's signature findings.
  let i = 0;
  while (i < sig.found.length && (sig.foundTurn[i] as number) < lastN)
    push(sig.found[i++] as ViolationInput);
  const lastItem =
    lastN >= 0 && turnRole(T, lastN) === 'assistant' ? turnItems(T, lastN).at(-1) : undefined;
  if (lastItem && lastItem.block.type === 'thinking') {
    push({
      rule: 'thinking_last',
      code: 'T3',
      messageIndex: lastItem.msg.rawIndex,
      index: lastItem.msg.index,
      blockIndex: lastItem.blockIndex,
      ids: [],
      providerPath: `messages.${lastN}`,
      message: `messages.${lastN}: The final block in an assistant message cannot be \`thinking\`.`,
      title: 'Assistant message ends with a thinking block',
      why: 'A thinking block must be followed by the text or tool calls it led to.',
      confidence: 'V',
    });
  }
  while (i < sig.found.length) push(sig.found[i++] as ViolationInput);
  if (sig.on && sig.any) {
    notes.push(
      'A thinking signature from another model, provider or conversation (T5) cannot be detected from the request; only missing or empty signatures were checked.',
    );
  }
  if (lastN < 0) return;
  if (t.settings.thinking === undefined) {
    notes.push(
      `Whether thinking is enabled is unknown (${thinkingUnknownWhy(t)}), so T1, T2 and T4 were not checked.`,
    );
    return;
  }
  if (t.settings.thinking === false) return checkDisabled(T, lastN, push);
  checkOpenLoop(T, lastN, push, floor);
}

/**
 * Why a transcript does not say whether Anthropic's extended thinking is on (its
 * `settings.thinking` is undefined): a session log keeps no request settings, a bare message list
 * has no body, and another API's body has no Anthropic `thinking` setting.
 */
export function thinkingUnknownWhy(t: Transcript): string {
  if (isSessionLog(t)) return 'a session log keeps no request settings';
  const body = t.raw !== null && typeof t.raw === 'object' && !Array.isArray(t.raw);
  if (!body) return 'no request body: a message list alone';
  const label = parserFor(t.format)?.label ?? t.format;
  return `the request body is ${label}, which has no Anthropic \`thinking\` setting`;
}

/** True when turn `n` is a user turn holding a client tool_result. */
export function isResultTurn(T: Turns, n: number): boolean {
  if (turnRole(T, n) !== 'user') return false;
  for (let s = T.start[n] as number; s < (T.start[n + 1] as number); s++)
    if ((T.msgs[s] as Message).blocks.some(isClientResult)) return true;
  return false;
}

/** T1/T2: with thinking on, the assistant turn that opened the open tool loop starts with thinking. */
function checkOpenLoop(T: Turns, lastN: number, push: Push, floor?: LoopFloor): void {
  // Thinking enabled: if the request continues a tool loop, the first assistant message of that
  // loop must start with thinking or redacted_thinking.
  if (!isResultTurn(T, lastN)) return;
  let start = -1;
  for (let k = lastN - 1; k >= 0; k--) {
    if (floor !== undefined && k < floor.upTo) {
      // Turns floor.last + 1 … k are assistant or result turns: the walk back would end at
      // floor.last with the first assistant turn after it as the loop's start.
      for (let j = floor.last + 1; j <= k; j++)
        if (turnRole(T, j) === 'assistant') {
          start = j;
          break;
        }
      break;
    }
    if (turnRole(T, k) === 'assistant') start = k;
    else if (!isResultTurn(T, k)) break;
  }
  if (start < 0) return;
  const firstItems = turnItems(T, start);
  // A compaction block opens the response it came in (the API drops what precedes it): the
  // thinking rule reads the blocks after it.
  let h = 0;
  while (isCompaction(firstItems[h]?.block)) h++;
  const head = firstItems[h];
  if (!head || head.block.type === 'thinking' || head.block.type === 'redacted_thinking') return;
  const ids = firstItems.flatMap((it) =>
    isClientCall(it.block) && it.block.id !== null ? [it.block.id] : [],
  );
  push({
    rule: 'thinking_missing',
    code: head.block.type === 'tool_use' ? 'T1' : 'T2',
    messageIndex: head.msg.rawIndex,
    index: head.msg.index,
    blockIndex: head.blockIndex,
    ids,
    providerPath: `messages.${start}.content.${h}.type`,
    message: `messages.${start}.content.${h}.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${head.block.type === 'tool_use' ? 'tool_use' : head.block.type}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block (preceeding the lastmost set of \`tool_use\` and \`tool_result\` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable \`thinking\`. Please consult our documentation at ${DOCS_THINKING}`,
    title: 'Thinking block stripped from the open tool loop',
    why: 'With thinking enabled, the assistant turn that opened the current tool loop must still start with its thinking block; a converter or trim that dropped it breaks the request.',
    confidence: 'V',
  });
}

/** T4: thinking in the final assistant turn while thinking is off. */
function checkDisabled(T: Turns, lastN: number, push: Push): void {
  if (turnRole(T, lastN) === 'assistant') {
    const lastItems = turnItems(T, lastN);
    const idx = lastItems.findIndex(
      (it) => it.block.type === 'thinking' || it.block.type === 'redacted_thinking',
    );
    const it = lastItems[idx];
    if (it) {
      push({
        rule: 'thinking_when_disabled',
        code: 'T4',
        messageIndex: it.msg.rawIndex,
        index: it.msg.index,
        blockIndex: it.blockIndex,
        ids: [],
        providerPath: `messages.${lastN}.content.${idx}`,
        message: `messages.${lastN}.content.${idx}: When thinking is disabled, an \`assistant\` message in the final position cannot contain \`thinking\`. To use thinking blocks, enable \`thinking\` in your request.`,
        title: 'Thinking block in the final assistant message while thinking is off',
        why: 'With thinking disabled, the final assistant message may not carry thinking blocks.',
        confidence: 'V',
      });
    }
  }
}
