/**
 * The Anthropic validator's walk over a request's turns (anthropic.ts): every check of one turn,
 * and the state the walk carries from one turn to the next, shared by the whole validation and
 * by the chain that resumes it (anthropic.chain.ts).
 */
import type { Block, Message, Transcript } from '../types.ts';
import { missingId, wordPairs } from './anthropic.pairing.ts';
import { checkSignature, type Signatures } from './anthropic.thinking.ts';
import { anthropicEnvelope, ruleSpec, ruleText } from './catalogue/index.ts';
import { violation, type Push, type ViolationInput } from './rules/common.ts';
import {
  isClientResult,
  pairCallTurn,
  pairResultTurn,
  type CallTurnStats,
  type PairFinding,
  type PairingSpec,
} from './rules/pairing.ts';
import { turnEmptyString, turnHead, turnRole, turnSize, type Turns } from './rules/turns.ts';
import { badIdsInTurn, idShapeOf } from './rules/toolIds.ts';
import { startsVisible } from './rules/blank.ts';
import type { RenderedItem, Violation } from './types.ts';

/** Anthropic's pairing: results open the next (merged) message, by id, once each; calls last. */
const PAIRING: PairingSpec = {
  answers: 'leading',
  match: 'id',
  orphans: 'each',
  duplicateResults: true,
  callsLast: true,
};

/** Where findings go (made here, not as a closure per check: see bedrock.ts `pushInto`). */
export function pushInto(out: Violation[]): (v: ViolationInput) => void {
  return (v) => void out.push(violation(v, anthropicEnvelope));
}

/** What the turn-by-turn scan carries from one turn to the next. */
export interface Walk {
  /** A6's id set; null when the caller knows the ids are unique. */
  seen: Set<string> | null;
  /** A4: server tool calls deferred to the next assistant turn (client tools in the same batch). */
  deferred: Set<string>;
  /** T6/T5 findings of thinking blocks (see `checkThinking`). */
  sig: Signatures;
  /** The pairing functions' findings of one call (an array, not a callback: issue 17). */
  pairs: PairFinding[];
  /** When set, the ids `seen` gains are listed here (a chain's last turns, undone after). */
  added: string[] | null;
}

export function newWalk(t: Transcript, seen: Set<string> | null): Walk {
  return {
    seen,
    deferred: new Set(),
    sig: { on: t.settings.thinking === true, any: false, found: [], foundTurn: [] },
    pairs: [],
    added: null,
  };
}

/** Every check of turn `n` (A10, A11, A18, the pairing rules, A6, A15/A16/A4, T5/T6). */
export function checkTurn(T: Turns, n: number, w: Walk, push: Push, pushId: Push): void {
  if (!checkContent(T, n, n === T.count - 1, push)) return;
  checkIds(T, n, pushId);
  if (turnRole(T, n) === 'user') {
    pairResultTurn(T, n, PAIRING, w.pairs);
    wordPairs(w.pairs, push);
  } else {
    const stats = checkAssistantTurn(T, n, w, push);
    pairCallTurn(T, n, PAIRING, stats, w.pairs);
    wordPairs(w.pairs, push);
  }
}

/** A7 (tool blocks without tool definitions) of the first message holding one, or its note. */
export function checkToolsDefined(
  toolBlocks: Message | null | 'unknown',
  push: Push,
  notes: string[],
): void {
  if (toolBlocks === 'unknown')
    notes.push(
      'Tool definitions were not given, so A7 (tool blocks without `tools`) was not checked.',
    );
  else if (toolBlocks !== null)
    push({
      rule: 'tools_not_defined',
      code: 'A7',
      messageIndex: toolBlocks.rawIndex,
      index: toolBlocks.index,
      blockIndex: null,
      ids: [],
      providerPath: null,
      message: ruleText('A7', {}),
      title: 'Tool blocks without tool definitions',
      why: 'The history holds tool_use or tool_result blocks but the request defines no tools, and Anthropic refuses tool blocks it cannot relate to a tool definition.',
      confidence: 'V',
    });
}

/**
 * A10 (an empty message, allowed only as the optional final assistant message) and A11 (empty or
 * whitespace-only text blocks) of turn `n`.
 * @returns false when the turn is empty (nothing else of it is checked)
 */
function checkContent(T: Turns, n: number, isFinal: boolean, push: Push): boolean {
  const role = turnRole(T, n);
  const size = turnSize(T, n);
  const emptyString = turnEmptyString(T, n, size);
  // A10: empty content (allowed only for the optional final assistant message).
  if ((size === 0 || emptyString) && !(isFinal && role === 'assistant')) {
    const src = turnHead(T, n);
    push({
      rule: 'empty_content',
      code: 'A10',
      messageIndex: src.rawIndex,
      index: src.index,
      blockIndex: null,
      ids: [],
      providerPath: `messages.${n}`,
      message: `messages.${n}: all messages must have non-empty content except for the optional final assistant message`,
      title: 'Empty message',
      why: 'Every message except a final assistant prefill must carry at least one content block.',
      confidence: 'V',
    });
    return false;
  }
  // A11: empty or whitespace-only text blocks.
  let mIdx = 0;
  for (let s = T.start[n] as number; s < (T.start[n + 1] as number); s++) {
    const msg = T.msgs[s] as Message;
    for (let bi = 0; bi < msg.blocks.length; bi++, mIdx++) {
      const b = msg.blocks[bi] as Block;
      if (b.type !== 'text') continue;
      if (startsVisible(b.text)) continue; // fast path: starts with a visible character
      if (emptyString && b.text === '') continue;
      if (isFinal && role === 'assistant') continue;
      const empty = b.text === '';
      if (!empty && /\S/.test(b.text)) continue;
      const path = `messages.${n}.content.${mIdx}.text`;
      push({
        rule: 'empty_text',
        code: 'A11',
        messageIndex: msg.rawIndex,
        index: msg.index,
        blockIndex: bi,
        ids: [],
        providerPath: empty ? path : 'messages',
        message: empty
          ? `${path}: text content blocks must be non-empty`
          : 'messages: text content blocks must contain non-whitespace text',
        title: empty ? 'Empty text block' : 'Whitespace-only text block',
        why: empty
          ? 'Anthropic rejects text blocks with no text.'
          : 'Anthropic rejects text blocks that hold only whitespace.',
        confidence: 'V',
      });
    }
  }

  return true;
}

const ID_SHAPE = idShapeOf('anthropic');

/** A18: ids of turn `n` outside the schema's pattern (`functions.Bash:0`), in block order. */
function checkIds(T: Turns, n: number, push: Push): void {
  const bad = badIdsInTurn(T, n, ID_SHAPE);
  for (const b of bad ?? []) {
    const variant = b.kind === 'call' ? 'tool_use.id' : 'tool_result.tool_use_id';
    push({
      rule: 'malformed_tool_id',
      code: 'A18',
      messageIndex: b.msg.rawIndex,
      index: b.msg.index,
      blockIndex: b.blockIndex,
      ids: [b.id],
      providerPath: `messages.${n}.content.${b.pos}.${variant}`,
      message: ruleText('A18', { n, m: b.pos, variant }),
      title:
        b.kind === 'call'
          ? 'A tool_use id Anthropic refuses'
          : 'A tool_result id Anthropic refuses',
      why: 'Anthropic accepts tool ids made of letters, digits, _ and - only; an id made by another provider (dots, colons, spaces) is refused before anything else is checked. Renaming it in the call and its result together keeps the pair.',
      confidence: 'V',
    });
  }
}

/**
 * A2/A3 (missing results in the next message), A6 (duplicate ids), server tool pairing (A15, A16)
 * and A4 (a server call deferred because client tools were called in the same batch: its result
 * may come in the next assistant turn, but only if the user message in between holds nothing but
 * tool_result blocks).
 * A5 (content after a client tool_use in the same turn) is an error: see `reportUnanswered` and
 * the catalogue entry for the evidence. Text before a tool_use, and parallel calls, are fine.
 * @param w the walk's state: the id set, deferred server calls, thinking findings
 * @returns the turn's client calls and last other block, for its pairing with the next turn
 */
function checkAssistantTurn(T: Turns, n: number, w: Walk, push: Push): CallTurnStats {
  const { seen, deferred, sig } = w;
  // Allocated only when the turn holds server tool calls (most turns hold none).
  let serverCalls: Map<string, { it: RenderedItem; answered: boolean }> | null = null;
  let callCount = 0;
  let lastOther = -1;
  let mIdx = 0;
  for (let s = T.start[n] as number; s < (T.start[n + 1] as number); s++) {
    const msg = T.msgs[s] as Message;
    for (let bi = 0; bi < msg.blocks.length; bi++, mIdx++) {
      const b = msg.blocks[bi] as Block;
      if (b.type !== 'tool_use' || b.server === true) lastOther = mIdx;
      if (b.type === 'thinking') {
        if (sig.on) checkSignature(b, msg, bi, n, mIdx, sig);
      } else if (b.type === 'tool_use') {
        if (b.id !== null) {
          const before = seen?.size ?? 0;
          seen?.add(b.id);
          if (seen !== null && seen.size === before) push(duplicateToolUse(msg, bi, b.id, n, mIdx));
          else if (w.added !== null) w.added.push(b.id);
        } else if (!b.server) {
          push(
            missingId(msg, bi, `messages.${n}.content.${mIdx}.id`, [
              'tool_use without an id',
              'Every tool_use needs an id for its result to name.',
            ]),
          );
        }
        if (b.server) {
          if (b.id !== null)
            (serverCalls ??= new Map()).set(b.id, {
              it: { block: b, msg, blockIndex: bi },
              answered: false,
            });
        } else callCount++;
      } else if (b.type === 'tool_result' && b.server !== undefined) {
        const call = b.toolUseId !== null ? serverCalls?.get(b.toolUseId) : undefined;
        if (call) call.answered = true;
        else if (b.toolUseId !== null && deferred.has(b.toolUseId)) deferred.delete(b.toolUseId);
        else {
          push({
            rule: 'server_tool_orphan',
            code: 'A16',
            messageIndex: msg.rawIndex,
            index: msg.index,
            blockIndex: bi,
            ids: b.toolUseId ? [b.toolUseId] : [],
            providerPath: `messages.${n}.content.${mIdx}`,
            message: `messages.${n}.content.${mIdx}: unexpected \`tool_use_id\` found in \`${b.server}\` blocks: ${b.toolUseId ?? ''}. Each \`${b.server}\` block must have a corresponding \`server_tool_use\` block before it.`,
            title: 'Server tool result with no server_tool_use before it',
            why: 'Server tool results live in the assistant turn, right after their server_tool_use; this one has no call before it.',
            confidence: 'V',
          });
        }
      }
    }
  }
  const hasNext = n + 1 < T.count;
  const nextIsUser = hasNext && turnRole(T, n + 1) === 'user';
  if (serverCalls !== null) {
    let onlyResultsNext = nextIsUser && turnSize(T, n + 1) > 0;
    for (let s = T.start[n + 1] as number; onlyResultsNext && s < (T.start[n + 2] as number); s++)
      for (const b of (T.msgs[s] as Message).blocks)
        if (!isClientResult(b)) {
          onlyResultsNext = false;
          break;
        }
    reportServerCalls(n, serverCalls, callCount > 0, nextIsUser, onlyResultsNext, deferred, push);
  }
  return { callCount, lastOther };
}

/** A6: a tool_use id used before in the request (the later one is named). */
function duplicateToolUse(
  msg: Message,
  bi: number,
  id: string,
  n: number,
  mIdx: number,
): ViolationInput {
  return {
    rule: 'duplicate_tool_use_id',
    code: 'A6',
    messageIndex: msg.rawIndex,
    index: msg.index,
    blockIndex: bi,
    ids: [id],
    providerPath: `messages.${n}.content.${mIdx}`,
    message: `messages.${n}.content.${mIdx}: \`tool_use\` ids must be unique`,
    title: 'The same tool_use id used twice',
    why: 'Tool ids must be unique across the whole request; a replayed or retried assistant turn repeats them.',
    confidence: 'V',
  };
}

/**
 * A4/A15: server tool calls of turn `n` without their result in the turn. Deferred to the next
 * assistant turn (recorded in `deferred`) when the turn also calls client tools and the user turn
 * between holds only their results.
 */
function reportServerCalls(
  n: number,
  serverCalls: Map<string, { it: RenderedItem; answered: boolean }>,
  clientCalls: boolean,
  nextIsUser: boolean,
  onlyResultsNext: boolean,
  deferred: Set<string>,
  push: Push,
): void {
  for (const [id, { it, answered }] of serverCalls) {
    if (answered || it.block.type !== 'tool_use') continue;
    if (clientCalls && onlyResultsNext) {
      deferred.add(id);
      continue;
    }
    const name = it.block.name;
    push({
      rule: 'server_tool_unanswered',
      code: clientCalls && nextIsUser ? 'A4' : 'A15',
      messageIndex: it.msg.rawIndex,
      index: it.msg.index,
      blockIndex: it.blockIndex,
      ids: [id],
      providerPath: `messages.${n}`,
      message: `messages.${n}: \`${name}\` tool use with id \`${id}\` was found without a corresponding \`${name}_tool_result\` block`,
      title: 'Server tool call without its result in the same turn',
      why: 'A server_tool_use must be followed by its result inside the same (merged) assistant turn.',
      confidence: ruleSpec(clientCalls && nextIsUser ? 'A4' : 'A15').confidence,
    });
  }
}
