/**
 * Anthropic Messages API validator.
 *
 * Rules A1–A17 and T1–T6 of the rule catalogue (docs/rules.md). The API merges consecutive same-role messages before it checks pairing
 * (see docs/rules.md, Anthropic), so provider paths (`messages.N.content.M`) are computed after merging, while
 * `messageIndex`/`blockIndex` still point at the message and block as pasted.
 */
import { isPinned } from '../exchanges.ts';
import type { Block, Message, ThinkingBlock, Transcript } from '../types.ts';
import { anthropicEnvelope, ruleSpec, ruleText } from './catalogue/index.ts';
import { isClientToolUse, violation, type ViolationInput } from './common.ts';
import { emptyRequest } from './shared.ts';
import type {
  ProviderValidator,
  RenderedItem,
  RenderedMessage,
  ValidateOptions,
  Validation,
  Violation,
} from './types.ts';

export { anthropicEnvelope };

/** Formats that record finished sessions rather than one request body. */
const LOG_FORMATS = new Set<Transcript['format']>(['claude-code-jsonl', 'codex-jsonl']);

const DOCS_THINKING = 'https://docs.claude.com/en/docs/build-with-claude/extended-thinking';

/**
 * Models that reject any trailing assistant message (A12, Anthropic errors page): Opus 4.6 and
 * later, Sonnet 4.6 and later, and the 5.x families.
 */
export function rejectsPrefill(model: string | undefined): boolean {
  if (!model) return false;
  const m = /claude-(opus|sonnet|haiku|fable|mythos)-(\d+)(?:-(\d+))?/.exec(model);
  if (!m) return /fable|mythos/.test(model);
  const family = m[1] as string;
  const major = Number(m[2]);
  const minor = m[3] !== undefined && m[3].length <= 2 ? Number(m[3]) : 0;
  if (family === 'fable' || family === 'mythos') return true;
  if (major >= 5) return true;
  return major === 4 && minor >= 6 && family !== 'haiku';
}

/**
 * Render normalised messages as the Anthropic API sees them: system/developer messages leave the
 * list (they go to `system`), role `tool` becomes `user`, and consecutive same-role messages are
 * merged into one (A9). An item object per block: for the eviction model's per-turn lookups;
 * the validator itself walks the same turns without them (`anthropicTurns`).
 */
export function renderAnthropic(messages: readonly Message[]): RenderedMessage[] {
  const T = anthropicTurns(messages);
  const out: RenderedMessage[] = new Array<RenderedMessage>(T.count);
  for (let n = 0; n < T.count; n++) {
    const items = turnItems(T, n);
    out[n] = {
      role: turnRole(T, n),
      items,
      sources: T.msgs.slice(T.start[n], T.start[n + 1]),
      emptyString: turnEmptyString(T, n, items.length),
    };
  }
  return out;
}

function allEmptyText(blocks: readonly Block[]): boolean {
  for (const b of blocks) if (b.type !== 'text' || b.text !== '') return false;
  return true;
}

/** True when a text starts with a character that is not whitespace (`/^\S/`), ASCII fast path. */
function startsVisible(text: string): boolean {
  const c = text.charCodeAt(0);
  if (c > 32 && c < 127) return true;
  return /^\S/.test(text);
}

/**
 * The merged turns of a request as ranges of its messages: turn `n` is
 * `msgs[start[n]] … msgs[start[n + 1] - 1]`, its content the blocks of those messages in order.
 * The same merging as `renderAnthropic`, without an object per block: the validator runs over
 * every block of 100k-message transcripts, and an item object per block was a tenth of the whole
 * load's allocation. Items are built only for the few turns a check looks at in depth.
 */
interface Turns {
  /** The request's messages without the pinned (system/developer) ones. */
  msgs: readonly Message[];
  /** First message of each turn; `start[count]` is `msgs.length`. */
  start: Int32Array;
  count: number;
}

function anthropicTurns(source: readonly Message[]): Turns {
  let msgs = source;
  for (let i = 0; i < source.length; i++)
    if (isPinned(source[i] as Message)) {
      msgs = source.filter((m) => !isPinned(m));
      break;
    }
  const start = new Int32Array(msgs.length + 1);
  let count = 0;
  let lastRole = '';
  for (let i = 0; i < msgs.length; i++) {
    const role = turnRoleOf(msgs[i] as Message);
    if (role !== lastRole) start[count++] = i;
    lastRole = role;
  }
  start[count] = msgs.length;
  return { msgs, start, count };
}

function turnRoleOf(m: Message): 'user' | 'assistant' {
  return m.role === 'assistant' ? 'assistant' : 'user';
}

function turnRole(T: Turns, n: number): 'user' | 'assistant' {
  return turnRoleOf(T.msgs[T.start[n] as number] as Message);
}

/** The first message of turn `n` (the one its A10/A12 findings point at). */
function turnHead(T: Turns, n: number): Message {
  return T.msgs[T.start[n] as number] as Message;
}

/** Number of content blocks in turn `n`. */
function turnSize(T: Turns, n: number): number {
  let size = 0;
  for (let s = T.start[n] as number; s < (T.start[n + 1] as number); s++)
    size += (T.msgs[s] as Message).blocks.length;
  return size;
}

/**
 * True when turn `n` is an empty string as the API sees it: its first message gave no blocks or
 * `content: ""` (an empty text block from a string), and no later message of the turn adds any.
 */
function turnEmptyString(T: Turns, n: number, size: number): boolean {
  const head = turnHead(T, n);
  if (size !== head.blocks.length) return false;
  return size === 0 || (head.stringContent === true && allEmptyText(head.blocks));
}

/** The items of turn `n` ({block, msg, blockIndex} per block), for checks of a single turn. */
function turnItems(T: Turns, n: number): RenderedItem[] {
  const items: RenderedItem[] = [];
  for (let s = T.start[n] as number; s < (T.start[n + 1] as number); s++) {
    const msg = T.msgs[s] as Message;
    for (let bi = 0; bi < msg.blocks.length; bi++)
      items.push({ block: msg.blocks[bi] as Block, msg, blockIndex: bi });
  }
  return items;
}

function validate(t: Transcript, opts: ValidateOptions = {}): Validation {
  const source = opts.messages ?? t.messages;
  const T = anthropicTurns(source);
  const found: Violation[] = [];
  const notes: string[] = [];
  const push = (v: ViolationInput) => found.push(violation(v, anthropicEnvelope));
  const empty = emptyRequest(source, 'A14', 'beside', anthropicEnvelope);
  if (empty) found.push(empty);

  if (t.tools === null)
    notes.push(
      'Tool definitions were not given, so A7 (tool blocks without `tools`) was not checked.',
    );
  else if (t.tools.length === 0) {
    const hasToolBlock = (m: Message) =>
      m.blocks.some((b) => b.type === 'tool_use' || b.type === 'tool_result');
    if (source.some((m) => !isPinned(m) && hasToolBlock(m))) {
      const first = source.find(hasToolBlock);
      push({
        rule: 'tools_not_defined',
        code: 'A7',
        messageIndex: first?.rawIndex ?? 0,
        index: first?.index ?? -1,
        blockIndex: null,
        ids: [],
        providerPath: null,
        message: 'Requests which include `tool_use` or `tool_result` blocks must define tools.',
        title: 'Tool blocks without tool definitions',
        why: 'The history holds tool_use or tool_result blocks but the request defines no tools, and Anthropic refuses tool blocks it cannot relate to a tool definition.',
        confidence: 'V',
      });
    }
  }

  // A6's id set; null when the caller already knows the ids are unique.
  const seenToolUse = opts.uniqueToolUseIds === true ? null : new Set<string>();
  // A4: server tool calls deferred to the next assistant turn (client tools called in the same batch).
  const deferredServer = new Set<string>();
  // The ids answered at the start of the next user turn (reused from turn to turn).
  const answerIds: (string | null)[] = [];
  const sig: Signatures = {
    on: t.settings.thinking === true,
    any: false,
    found: [],
    foundTurn: [],
  };
  const lastIdx = T.count - 1;
  for (let n = 0; n < T.count; n++) {
    const role = turnRole(T, n);
    const isFinal = n === lastIdx;
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
      continue;
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

    if (role === 'user') {
      checkUserTurn(T, n, push);
    } else {
      checkAssistantTurn(T, n, seenToolUse, push, deferredServer, answerIds, sig);
    }
  }

  checkTrailing(t, T, opts, push, notes);
  checkThinking(t, T, sig, push, notes);
  return {
    provider: 'anthropic',
    valid: !found.some((v) => v.severity === 'error'),
    violations: found,
    notes,
  };
}

type Push = (v: ViolationInput) => void;

/**
 * Does turn `n`, an assistant turn, call this tool_use id? A linear scan: a turn holds a handful
 * of calls, and a Set per user turn costs more on 100k-message transcripts.
 */
function callsId(T: Turns, n: number, id: string): boolean {
  if (n < 0 || turnRole(T, n) !== 'assistant') return false;
  for (let s = T.start[n] as number; s < (T.start[n + 1] as number); s++) {
    const blocks = (T.msgs[s] as Message).blocks;
    for (let bi = 0; bi < blocks.length; bi++) {
      const b = blocks[bi] as Block;
      if (isClientToolUse(b) && b.id === id) return true;
    }
  }
  return false;
}

/** A tool_use without `id` or a tool_result without `tool_use_id`: the API's schema error. */
function missingId(
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

/** Scratch lists of `checkUserTurn` (ids answered in the turn, their content index). */
const ANSWERED: string[] = [];
const ANSWERED_AT: number[] = [];

/**
 * A1 (orphan result), missing ids, and A6b (two results for one call: only the first such id is
 * named, at its first result block).
 */
function checkUserTurn(T: Turns, n: number, push: Push): void {
  let mIdx = 0;
  // A6b: the ids answered so far in this turn (module scratch: no allocation per user turn).
  let answeredCount = 0;
  let duplicateFound = false;
  for (let s = T.start[n] as number; s < (T.start[n + 1] as number); s++) {
    const msg = T.msgs[s] as Message;
    for (let bi = 0; bi < msg.blocks.length; bi++, mIdx++) {
      const b = msg.blocks[bi] as Block;
      if (b.type !== 'tool_result' || b.server !== undefined) continue;
      if (b.toolUseId === null) {
        push(
          missingId(msg, bi, `messages.${n}.content.${mIdx}.tool_use_id`, [
            'tool_result without a tool_use_id',
            'Every tool_result must name the tool_use it answers.',
          ]),
        );
        continue;
      }
      if (!callsId(T, n - 1, b.toolUseId)) {
        push({
          rule: 'orphan_tool_result',
          code: 'A1',
          messageIndex: msg.rawIndex,
          index: msg.index,
          blockIndex: bi,
          ids: [b.toolUseId],
          providerPath: `messages.${n}.content.${mIdx}`,
          message: `messages.${n}.content.${mIdx}: unexpected \`tool_use_id\` found in \`tool_result\` blocks: ${b.toolUseId}. Each \`tool_result\` block must have a corresponding \`tool_use\` block in the previous message.`,
          title: 'Tool result with no matching call in the previous message',
          why: 'Anthropic requires every tool_result to answer a tool_use in the immediately previous assistant message; a trim that dropped the call, or a result placed after a later turn, leaves it orphaned.',
          confidence: 'V',
        });
        continue;
      }
      if (duplicateFound) continue;
      let k = 0;
      while (k < answeredCount && ANSWERED[k] !== b.toolUseId) k++;
      if (k === answeredCount) {
        ANSWERED[answeredCount] = b.toolUseId;
        ANSWERED_AT[answeredCount++] = mIdx;
        continue;
      }
      duplicateFound = true;
      const first = ANSWERED_AT[k] as number;
      const id = b.toolUseId;
      push({
        rule: 'duplicate_tool_result',
        code: 'A6b',
        messageIndex: msg.rawIndex,
        index: msg.index,
        blockIndex: bi,
        ids: [id],
        providerPath: `messages.${n}.content.${first}`,
        message: ruleText('A6b', { n, m: first, id }),
        title: 'Two results for one call',
        why: 'Each tool_use must be answered by exactly one tool_result; a retry or compaction that appended the results again sends two.',
        confidence: 'V',
      });
    }
  }
}

/** True for a result block of a client tool (not an Anthropic server tool's result). */
function isClientResult(b: Block): boolean {
  return b.type === 'tool_result' && b.server === undefined;
}

/**
 * A2/A3 (missing results in the next message), A6 (duplicate ids), server tool pairing (A15, A16)
 * and A4 (a server call deferred because client tools were called in the same batch: its result
 * may come in the next assistant turn, but only if the user message in between holds nothing but
 * tool_result blocks).
 * A5 (content after a client tool_use in the same turn) is an error: see `reportUnanswered` and
 * the catalogue entry for the evidence. Text before a tool_use, and parallel calls, are fine.
 * @param sig where the T6/T5 findings of thinking blocks go (see `checkThinking`)
 * @param answerIds scratch list for the ids answered by the next turn (its first entries are
 *   overwritten; a plain loop over them, not `includes`, which costs a builtin call per call)
 */
function checkAssistantTurn(
  T: Turns,
  n: number,
  seen: Set<string> | null,
  push: Push,
  deferred: Set<string>,
  answerIds: (string | null)[],
  sig: Signatures,
): void {
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
          if (seen !== null && seen.size === before) {
            push({
              rule: 'duplicate_tool_use_id',
              code: 'A6',
              messageIndex: msg.rawIndex,
              index: msg.index,
              blockIndex: bi,
              ids: [b.id],
              providerPath: `messages.${n}.content.${mIdx}`,
              message: `messages.${n}.content.${mIdx}: \`tool_use\` ids must be unique`,
              title: 'The same tool_use id used twice',
              why: 'Tool ids must be unique across the whole request; a replayed or retried assistant turn repeats them.',
              confidence: 'V',
            });
          }
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
    for (const [id, { it, answered }] of serverCalls) {
      if (answered || it.block.type !== 'tool_use') continue;
      if (callCount > 0 && onlyResultsNext) {
        deferred.add(id);
        continue;
      }
      const name = it.block.name;
      push({
        rule: 'server_tool_unanswered',
        code: callCount > 0 && nextIsUser ? 'A4' : 'A15',
        messageIndex: it.msg.rawIndex,
        index: it.msg.index,
        blockIndex: it.blockIndex,
        ids: [id],
        providerPath: `messages.${n}`,
        message: `messages.${n}: \`${name}\` tool use with id \`${id}\` was found without a corresponding \`${name}_tool_result\` block`,
        title: 'Server tool call without its result in the same turn',
        why: 'A server_tool_use must be followed by its result inside the same (merged) assistant turn.',
        confidence: ruleSpec(callCount > 0 && nextIsUser ? 'A4' : 'A15').confidence,
      });
    }
  }
  if (callCount === 0) return;

  // The client tool_result blocks at the start of the next user turn answer the calls; a linear
  // scan, since a turn holds a handful of calls (no Set per turn).
  let answers = 0;
  let anyAnswer = false;
  let textFirst = false;
  if (nextIsUser) {
    let inRun = true;
    for (let s = T.start[n + 1] as number; s < (T.start[n + 2] as number) && !textFirst; s++) {
      const blocks = (T.msgs[s] as Message).blocks;
      for (let bi = 0; bi < blocks.length; bi++) {
        const b = blocks[bi] as Block;
        if (inRun) {
          if (b.type === 'tool_result' && b.server === undefined) {
            answerIds[answers++] = b.toolUseId;
            if (b.toolUseId !== null) anyAnswer = true;
            continue;
          }
          inRun = false;
          continue; // A3: anything before a tool_result ends the "at the start" run.
        }
        if (isClientResult(b)) {
          textFirst = true;
          break;
        }
      }
    }
  }
  reportUnanswered(
    T,
    n,
    { answers, anyAnswer, textFirst, hasNext, callCount, lastOther },
    answerIds,
    push,
  );
}

/** What `checkAssistantTurn` learnt of a turn's calls and the next turn's answers. */
interface AnswerScan {
  /** Number of tool_result ids at the start of the next turn (in `answerIds`). */
  answers: number;
  anyAnswer: boolean;
  /** A3: a tool_result came after other content in the next turn. */
  textFirst: boolean;
  hasNext: boolean;
  callCount: number;
  /** Content index of the turn's last block that is not a client tool_use (A5), or −1. */
  lastOther: number;
}

const UNANSWERED_TEXT: Record<string, [string, string]> = {
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
function reportUnanswered(
  T: Turns,
  n: number,
  scan: AnswerScan,
  answerIds: readonly (string | null)[],
  push: Push,
): void {
  let missing: RenderedItem[] | null = null;
  let unanswered = 0;
  let followedOnly = 0;
  let pos = 0;
  for (let s = T.start[n] as number; s < (T.start[n + 1] as number); s++) {
    const msg = T.msgs[s] as Message;
    for (let bi = 0; bi < msg.blocks.length; bi++, pos++) {
      const b = msg.blocks[bi] as Block;
      if (!isClientToolUse(b) || b.id === null) continue;
      let k = 0;
      while (k < scan.answers && answerIds[k] !== b.id) k++;
      const open = k === scan.answers;
      const followed = pos < scan.lastOther;
      if (!open && !followed) continue;
      (missing ??= []).push({ block: b, msg, blockIndex: bi });
      if (open) unanswered++;
      else followedOnly++;
    }
  }
  if (missing === null) return;
  const ids = missing.map((it) => (it.block.type === 'tool_use' ? (it.block.id as string) : ''));
  const first = missing[0] as RenderedItem;
  const rule = !scan.hasNext
    ? 'trailing_tool_use'
    : unanswered === 0
      ? 'content_after_tool_use'
      : scan.textFirst
        ? 'tool_result_not_first'
        : scan.anyAnswer && unanswered < scan.callCount
          ? 'partial_answer'
          : 'unanswered_tool_use';
  const [title, why] = UNANSWERED_TEXT[rule] as [string, string];
  push({
    rule,
    code: followedOnly > 0 ? 'A5' : scan.textFirst ? 'A3' : 'A2',
    messageIndex: first.msg.rawIndex,
    index: first.msg.index,
    blockIndex: first.blockIndex,
    ids,
    providerPath: `messages.${n}`,
    message: ruleText('A2', { n, ids }),
    title,
    why,
    confidence: followedOnly > 0 ? 'I' : 'V',
  });
}

/** A12: a trailing assistant message (prefill), model-dependent. */
function checkTrailing(
  t: Transcript,
  T: Turns,
  opts: ValidateOptions,
  push: Push,
  notes: string[],
): void {
  const lastN = T.count - 1;
  if (lastN < 0 || turnRole(T, lastN) !== 'assistant') return;
  const lastItems = turnItems(T, lastN);
  if (lastItems.some((it) => isClientToolUse(it.block))) return; // reported as A2 (trailing_tool_use)
  if (LOG_FORMATS.has(t.format)) {
    // A session log ends on the assistant's reply; the next request appends the user's next
    // input, so the trailing assistant message is history, not a prefill.
    notes.push(
      'This is a session log: its last assistant message is history, not a prefill, so A12 was not checked.',
    );
    return;
  }
  const src = turnHead(T, lastN);
  const base = {
    rule: 'trailing_assistant' as const,
    code: 'A12',
    messageIndex: src.rawIndex,
    index: src.index,
    blockIndex: null,
    ids: [],
    providerPath: 'messages',
    confidence: 'V' as const,
  };
  if (t.settings.toolChoiceForced || t.settings.outputFormat) {
    const what = t.settings.toolChoiceForced ? 'When using tools' : 'When using output format';
    push({
      ...base,
      message: `Your API request included an \`assistant\` message in the final position, which would pre-fill the \`assistant\` response. ${what}, pre-filling the \`assistant\` response is not supported.`,
      title: 'Prefill with forced tools or output format',
      why: 'A trailing assistant message asks the model to continue it, which forced tool use and structured output do not allow.',
    });
    return;
  }
  const prefill = opts.prefill ?? (rejectsPrefill(t.settings.model) ? 'rejected' : 'allowed');
  if (opts.prefill === undefined)
    notes.push(
      `A trailing assistant message is ${prefill === 'rejected' ? 'rejected' : 'accepted as prefill'} for model ${t.settings.model ?? '(unknown: older models assumed)'} (A12).`,
    );
  if (prefill === 'rejected') {
    push({
      ...base,
      providerPath: null,
      message: 'Prefilling assistant messages is not supported for this model.',
      title: 'Trailing assistant message (prefill) on a model that rejects it',
      why: 'Newer Claude models refuse a request whose last message is from the assistant.',
    });
    return;
  }
  const lastText = [...lastItems].reverse().find((it) => it.block.type === 'text');
  if (lastText && lastText.block.type === 'text' && /\s$/.test(lastText.block.text)) {
    push({
      ...base,
      message: 'messages: final assistant content cannot end with trailing whitespace',
      title: 'Prefill ends with whitespace',
      why: 'A prefilled assistant message must not end in whitespace.',
    });
  }
}

/**
 * T6/T5 findings, gathered while the assistant turns are scanned (one pass over the blocks) and
 * pushed by `checkThinking` in the order of a turn-by-turn scan.
 */
interface Signatures {
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
function checkSignature(
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

/** T1–T4: extended thinking rules for the final assistant turn (T1–T4). */
function checkThinking(
  t: Transcript,
  T: Turns,
  sig: Signatures,
  push: Push,
  notes: string[],
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
      'Whether thinking is enabled is unknown (no request body), so T1, T2 and T4 were not checked.',
    );
    return;
  }
  if (t.settings.thinking === false) {
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
    return;
  }
  // Thinking enabled: if the request continues a tool loop, the first assistant message of that
  // loop must start with thinking or redacted_thinking.
  const isResultTurn = (n: number) =>
    turnRole(T, n) === 'user' && turnItems(T, n).some((it) => isClientResult(it.block));
  if (!isResultTurn(lastN)) return;
  let start = -1;
  for (let k = lastN - 1; k >= 0; k--) {
    if (turnRole(T, k) === 'assistant') start = k;
    else if (!isResultTurn(k)) break;
  }
  if (start < 0) return;
  const firstItems = turnItems(T, start);
  const head = firstItems[0];
  if (!head || head.block.type === 'thinking' || head.block.type === 'redacted_thinking') return;
  const ids = firstItems.flatMap((it) =>
    isClientToolUse(it.block) && it.block.id !== null ? [it.block.id] : [],
  );
  push({
    rule: 'thinking_missing',
    code: head.block.type === 'tool_use' ? 'T1' : 'T2',
    messageIndex: head.msg.rawIndex,
    index: head.msg.index,
    blockIndex: head.blockIndex,
    ids,
    providerPath: `messages.${start}.content.0.type`,
    message: `messages.${start}.content.0.type: Expected \`thinking\` or \`redacted_thinking\`, but found \`${head.block.type === 'tool_use' ? 'tool_use' : head.block.type}\`. When \`thinking\` is enabled, a final \`assistant\` message must start with a thinking block (preceeding the lastmost set of \`tool_use\` and \`tool_result\` blocks). We recommend you include thinking blocks from previous turns. To avoid this requirement, disable \`thinking\`. Please consult our documentation at ${DOCS_THINKING}`,
    title: 'Thinking block stripped from the open tool loop',
    why: 'With thinking enabled, the assistant turn that opened the current tool loop must still start with its thinking block; a converter or trim that dropped it breaks the request.',
    confidence: 'V',
  });
}

export const anthropicValidator: ProviderValidator = {
  id: 'anthropic',
  label: 'Anthropic Messages',
  cuts: { kind: 'merged-turns', render: renderAnthropic },
  validate,
};
