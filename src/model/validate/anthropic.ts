/**
 * Anthropic Messages API validator.
 *
 * Rules A1–A17 and T1–T6 of the rule catalogue (docs/rules.md). The API merges consecutive same-role messages before it checks pairing
 * (see docs/rules.md, Anthropic), so provider paths (`messages.N.content.M`) are computed after merging, while
 * `messageIndex`/`blockIndex` still point at the message and block as pasted.
 */
import type { Block, Message, Transcript } from '../types.ts';
import { checkTrailing, rejectsPrefill } from './anthropic.prefill.ts';
import { missingId, wordPairs } from './anthropic.pairing.ts';
import {
  checkSignature,
  checkThinking,
  isResultTurn,
  type LoopFloor,
  type Signatures,
} from './anthropic.thinking.ts';
import {
  checkAnthropicCompaction,
  checkCompactionBlocks,
  checkCompactionHead,
} from './compaction.ts';
import { anthropicEnvelope, ruleSpec, ruleText } from './catalogue/index.ts';
import { hasError, violation, type Push, type ViolationInput } from './rules/common.ts';
import {
  isClientResult,
  pairCallTurn,
  pairResultTurn,
  type CallTurnStats,
  type PairFinding,
  type PairingSpec,
} from './rules/pairing.ts';
import {
  buildTurns,
  renderTurnList,
  roleOf,
  turnEmptyString,
  turnHead,
  turnRole,
  turnSize,
  type Turns,
} from './rules/turns.ts';
import { badIdsInTurn, idShapeOf } from './rules/toolIds.ts';
import { startsVisible } from './rules/blank.ts';
import { emptyRequest, hasToolBlock, toolsGiven, toolsNotDefined } from './rules/request.ts';
import { isPinned } from '../exchanges.ts';
import type {
  ChainValidate,
  ProviderValidator,
  RenderedItem,
  RenderedMessage,
  ValidateOptions,
  Validation,
  Violation,
} from './types.ts';

export { rejectsPrefill };
export { anthropicEnvelope };

/**
 * Render normalised messages as the Anthropic API sees them: system/developer messages leave the
 * list (they go to `system`), role `tool` becomes `user`, and consecutive same-role messages are
 * merged into one (A9). An item object per block: for the eviction model's per-turn lookups;
 * the validator itself walks the same turns without them.
 */
export function renderAnthropic(messages: readonly Message[]): RenderedMessage[] {
  return renderTurnList(buildTurns(messages, true), 'assistant');
}

/** Anthropic's pairing: results open the next (merged) message, by id, once each; calls last. */
const PAIRING: PairingSpec = {
  answers: 'leading',
  match: 'id',
  orphans: 'each',
  duplicateResults: true,
  callsLast: true,
};

/** Where findings go (made here, not as a closure per check: see bedrock.ts `pushInto`). */
function pushInto(out: Violation[]): (v: ViolationInput) => void {
  return (v) => void out.push(violation(v, anthropicEnvelope));
}

/** What the turn-by-turn scan carries from one turn to the next. */
interface Walk {
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

function newWalk(t: Transcript, seen: Set<string> | null): Walk {
  return {
    seen,
    deferred: new Set(),
    sig: { on: t.settings.thinking === true, any: false, found: [], foundTurn: [] },
    pairs: [],
    added: null,
  };
}

/** Every check of turn `n` (A10, A11, A18, the pairing rules, A6, A15/A16/A4, T5/T6). */
function checkTurn(T: Turns, n: number, w: Walk, push: Push, pushId: Push): void {
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
function checkToolsDefined(
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

function validate(t: Transcript, opts: ValidateOptions = {}): Validation {
  const source = opts.messages ?? t.messages;
  const T = buildTurns(source, true);
  const found: Violation[] = [];
  const notes: string[] = [];
  const push = pushInto(found);
  // A18 is a schema error: met before every other check, so its findings go first.
  const ids: Violation[] = [];
  const pushId = pushInto(ids);
  const empty = emptyRequest(source, 'A14', 'beside', anthropicEnvelope);
  if (empty) found.push(empty);
  checkToolsDefined(toolsNotDefined(t, source), push, notes);

  const w = newWalk(t, opts.uniqueToolUseIds === true ? null : new Set<string>());
  for (let n = 0; n < T.count; n++) checkTurn(T, n, w, push, pushId);

  checkTrailing(t, T, opts, push, notes);
  checkThinking(t, T, w.sig, push, notes);
  checkAnthropicCompaction(t, source, push);
  const violations = ids.length > 0 ? [...ids, ...found] : found;
  return {
    provider: 'anthropic',
    valid: !hasError(violations),
    violations,
    notes,
  };
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

export const anthropicValidator: ProviderValidator = {
  id: 'anthropic',
  label: 'Anthropic Messages',
  cuts: { kind: 'merged-turns', render: renderAnthropic },
  requestTurns: (_t, messages) => buildTurns(messages, true),
  validate,
  chain: anthropicChain,
};

/** A chain's state (`anthropicChain`): what the requests it saw settled. */
interface Chain {
  /** The fields every request of the chain shares (the same objects). */
  settings: Transcript['settings'];
  tools: Transcript['tools'];
  raw: unknown;
  format: Transcript['format'];
  toolsUnrecorded: boolean | undefined;
  /** The last request's messages (not copied: a caller never changes a list it passed). */
  src: readonly Message[];
  /** Per message of `src`: how many of `msgs` and of `comp` come before it. */
  msgAt: number[];
  compAt: number[];
  /** The turns of those messages (`buildTurns`, grown as messages come): `start` has spare room. */
  msgs: Message[];
  start: Int32Array;
  count: number;
  /** A7: where in `src` the first message with a tool block is (−1: none), and the first unpinned. */
  firstTool: number;
  firstUnpinnedTool: number;
  /** Turns 0 … sealed − 1 are checked for good (neither they nor the turn after can change). */
  sealed: number;
  /** Their findings: A18 (`ids`) and the others, in turn order; AC1–AC3 of every message seen. */
  ids: Violation[];
  loop: Violation[];
  comp: Violation[];
  walk: Walk;
  /** The walk back to the open tool loop stops at the sealed turns (`checkThinking`). */
  floor: LoopFloor;
  /** Per sealed turn, what it changed, so it can be undone (`rewind`). */
  undo: TurnUndo[];
}

/** The state before a sealed turn was checked, and the ids it added to the walk's set. */
interface TurnUndo {
  ids: number;
  loop: number;
  sig: number;
  sigAny: boolean;
  floorLast: number;
  deferred: Set<string> | null;
  added: string[];
}

function newChain(t: Transcript): Chain {
  return {
    settings: t.settings,
    tools: t.tools,
    raw: t.raw,
    format: t.format,
    toolsUnrecorded: t.toolsUnrecorded,
    src: [],
    msgAt: [0],
    compAt: [0],
    msgs: [],
    start: new Int32Array(64),
    count: 0,
    firstTool: -1,
    firstUnpinnedTool: -1,
    sealed: 0,
    ids: [],
    loop: [],
    comp: [],
    walk: newWalk(t, new Set()),
    floor: { upTo: 0, last: -1 },
    undo: [],
  };
}

/** True when the request's fields but its messages are the chain's own (the same objects). */
function sameFields(c: Chain, t: Transcript): boolean {
  return (
    t.settings === c.settings &&
    t.tools === c.tools &&
    t.raw === c.raw &&
    t.format === c.format &&
    t.toolsUnrecorded === c.toolsUnrecorded
  );
}

/**
 * How many first messages of `source` are the chain's last request's (the same objects): every
 * one is compared (a rewritten request may share its first and last message with the last one
 * and not one in between), a pointer comparison per message.
 */
function commonPrefix(c: Chain, source: readonly Message[]): number {
  const n = Math.min(c.src.length, source.length);
  let p = 0;
  while (p < n && source[p] === c.src[p]) p++;
  return p;
}

/** Forget every message from `src[p]` on: the turns they touched and what those settled. */
function rewind(c: Chain, p: number): void {
  if (p >= c.src.length) return;
  const q = c.msgAt[p] as number;
  c.msgAt.length = p + 1;
  c.compAt.length = p + 1;
  c.comp.length = c.compAt[p] as number;
  if (c.firstTool >= p) c.firstTool = -1;
  if (c.firstUnpinnedTool >= p) c.firstUnpinnedTool = -1;
  c.msgs.length = q;
  while (c.count > 0 && (c.start[c.count - 1] as number) >= q) c.count--;
  c.start[c.count] = q;
  // A turn stays settled while neither it nor the turn after it changed.
  const keep = Math.min(c.sealed, Math.max(0, c.count - 2));
  const w = c.walk;
  while (c.sealed > keep) {
    const u = c.undo.pop() as TurnUndo;
    c.sealed--;
    for (const id of u.added) w.seen?.delete(id);
    w.deferred = new Set(u.deferred ?? []);
    w.sig.found.length = u.sig;
    w.sig.foundTurn.length = u.sig;
    w.sig.any = u.sigAny;
    c.ids.length = u.ids;
    c.loop.length = u.loop;
    c.floor.last = u.floorLast;
    c.floor.upTo = c.sealed;
  }
}

/** Adds the request's new messages to the chain's turns, A7's and AC1–AC3's records. */
function growChain(c: Chain, source: readonly Message[]): void {
  const pushComp = pushInto(c.comp);
  let lastRole = c.msgs.length > 0 ? roleOf(c.msgs[c.msgs.length - 1] as Message) : '';
  for (let i = c.msgAt.length - 1; i < source.length; i++) {
    const m = source[i] as Message;
    if (hasToolBlock(m)) {
      if (c.firstTool < 0) c.firstTool = i;
      if (c.firstUnpinnedTool < 0 && !isPinned(m)) c.firstUnpinnedTool = i;
    }
    checkCompactionBlocks(m, pushComp);
    if (!isPinned(m)) {
      const role = roleOf(m);
      if (role !== lastRole) {
        if (c.count + 2 > c.start.length) {
          const grown = new Int32Array(c.start.length * 2);
          grown.set(c.start);
          c.start = grown;
        }
        c.start[c.count++] = c.msgs.length;
      }
      lastRole = role;
      c.msgs.push(m);
    }
    c.msgAt.push(c.msgs.length);
    c.compAt.push(c.comp.length);
  }
  c.start[c.count] = c.msgs.length;
  c.src = source;
}

/** Checks turn `n` for good, keeping what it changes in `c.undo`. */
function sealTurn(c: Chain, T: Turns, n: number, pushLoop: Push, pushIds: Push): void {
  const w = c.walk;
  const added: string[] = [];
  c.undo.push({
    ids: c.ids.length,
    loop: c.loop.length,
    sig: w.sig.found.length,
    sigAny: w.sig.any,
    floorLast: c.floor.last,
    deferred: w.deferred.size > 0 ? new Set(w.deferred) : null,
    added,
  });
  w.added = added;
  checkTurn(T, n, w, pushLoop, pushIds);
  w.added = null;
  if (turnRole(T, n) === 'user' && !isResultTurn(T, n)) c.floor.last = n;
  c.floor.upTo = n + 1;
}

/**
 * The Anthropic validator along a chain of requests (`ChainValidate`): a turn is checked once for
 * good when neither it nor the turn after it can change (every turn but the last two, since the
 * last turn may still grow by merging); the last two turns and the end-of-request rules (A12,
 * T1–T4, AC4) are checked on each request, with what they add to the walk's state undone after.
 * A request that shares only its first messages with the last one (a rewritten tail) undoes the
 * turns from the first message that differs. A request costs its new messages, its last two
 * turns and a copy of the findings (and, when it does not simply extend the last one, a
 * comparison of its messages with the last one's).
 */
export function anthropicChain(): ChainValidate {
  let c: Chain | null = null;
  return (t, opts = {}) => {
    const source = opts.messages ?? t.messages;
    if (c === null || !sameFields(c, t)) c = newChain(t);
    rewind(c, commonPrefix(c, source));
    growChain(c, source);
    const T: Turns = { msgs: c.msgs, start: c.start, count: c.count };
    const w = c.walk;
    const pushLoop = pushInto(c.loop);
    const pushIds = pushInto(c.ids);
    for (; c.sealed < T.count - 2; c.sealed++) sealTurn(c, T, c.sealed, pushLoop, pushIds);

    const notes: string[] = [];
    const head: Violation[] = [];
    const empty =
      c.msgs.length > 0 ? null : emptyRequest(source, 'A14', 'beside', anthropicEnvelope);
    if (empty) head.push(empty);
    const given = toolsGiven(t);
    checkToolsDefined(
      given === 'unknown'
        ? 'unknown'
        : given === 'some' || c.firstUnpinnedTool < 0
          ? null
          : (source[c.firstTool] as Message),
      pushInto(head),
      notes,
    );

    // The last turns, their changes to the walk's state undone after.
    const deferred = new Set(w.deferred);
    const sigFound = w.sig.found.length;
    const sigAny = w.sig.any;
    const added: string[] = [];
    w.added = added;
    const tail: Violation[] = [];
    const tailIds: Violation[] = [];
    const pushTail = pushInto(tail);
    const pushTailIds = pushInto(tailIds);
    for (let n = c.sealed; n < T.count; n++) checkTurn(T, n, w, pushTail, pushTailIds);
    w.added = null;
    const end: Violation[] = [];
    const pushEnd = pushInto(end);
    checkTrailing(t, T, opts, pushEnd, notes);
    checkThinking(t, T, w.sig, pushEnd, notes, c.floor);
    checkCompactionHead(t, source, pushEnd);
    for (const id of added) w.seen?.delete(id);
    w.deferred = deferred;
    w.sig.found.length = sigFound;
    w.sig.foundTurn.length = sigFound;
    w.sig.any = sigAny;

    const violations = [...c.ids, ...tailIds, ...head, ...c.loop, ...tail, ...end, ...c.comp];
    return { provider: 'anthropic', valid: !hasError(violations), violations, notes };
  };
}
