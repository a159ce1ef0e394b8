/**
 * Claude Code session logs (`~/.claude/projects/<cwd>/<sessionId>.jsonl`).
 * Source of the shape: what Claude Code writes (no published schema; docs/formats.md#claude-code-jsonl).
 *
 * - Lines are put in `parentUuid` order (a line is placed after its parent even when it was
 *   written first), otherwise file order.
 * - The lines of one assistant reply (same `message.id`, one content block per line) become one
 *   message, at the position of its first line; tool results written between them stay after it.
 *   Its `path` names every line it came from (`lines 4–5`); its raw index is its number among the
 *   messages read (the row `#N`), its first line's record position is `rawLine` (the writer's).
 * - Usage is counted once per reply (the line with the largest `output_tokens`).
 * - `toolUseResult` (the UI's copy of a tool result) is ignored: only `message.content` went to
 *   the model.
 * - Sidechain lines (old sub-agent layout) are marked `meta.sidechain` and listed after the main
 *   thread, one thread after another.
 * - `isCompactSummary` user lines get `meta.compactSummary`; `compact_boundary` and `summary`
 *   lines become warnings.
 */
import type { Block, Message, MessageMeta, Result, Transcript, UsageRecord } from '../../types.ts';
import type { JsonlLine, SourceDoc } from '../json.ts';
import { anthropicBlock } from '../anthropicMessages/anthropicMessages.ts';
import { type Entry, inParentOrder, parentOrder, threads } from './claudeCodeOrder.ts';
import { sourceLines } from '../../messageLabels.ts';
import { writeClaudeCode } from './claudeCodeWrite.ts';
import { claudeCodeSlimmer } from './claudeCodeSlim.ts';
import { claudeCodeCalls } from './claudeCodeCalls.ts';
import type { FormatParser } from '../registry.ts';
import { isObject, type Json, shapeError, str } from '../util.ts';

const LINE_TYPES = new Set([
  'user',
  'assistant',
  'system',
  'summary',
  'attachment',
  'progress',
  'file-history-snapshot',
  'queue-operation',
  'ai-title',
  'last-prompt',
  'permission-mode',
  'agent-setting',
  'pr-link',
  'custom-title',
  'tag',
]);

/**
 * Sniff: most lines are objects with a known `type`, and the message lines carry `uuid` and
 * `sessionId` (a Codex rollout has `payload` instead).
 */
function sniff(v: unknown): number {
  if (!Array.isArray(v) || v.length === 0) return 0;
  const sample = v.slice(0, 50);
  let known = 0;
  let msgLines = 0;
  for (const l of sample) {
    if (!isObject(l) || 'payload' in l) continue;
    const type = str(l.type);
    if (type === undefined || !LINE_TYPES.has(type)) continue;
    known++;
    if (
      (type === 'user' || type === 'assistant') &&
      isObject(l.message) &&
      typeof l.uuid === 'string' &&
      typeof l.sessionId === 'string'
    )
      msgLines++;
  }
  if (msgLines === 0) return 0;
  return known / sample.length >= 0.6 ? 0.95 : 0.5;
}

/** A line's `message.content` as blocks (a string content is one text block: `stringContent`). */
function contentBlocks(c: unknown): Block[] {
  if (typeof c === 'string') return [{ type: 'text', text: c }];
  if (Array.isArray(c)) return c.map(anthropicBlock);
  if (c === undefined || c === null) return [];
  return [{ type: 'other', label: 'content', raw: c }];
}

/** The blocks of a message from its raw: one line's value, or the lines of one reply (joinReply). */
function blocksOf(raw: unknown): Block[] {
  const lines = Array.isArray(raw) ? raw : [raw];
  const out: Block[] = [];
  for (const v of lines)
    if (isObject(v) && isObject(v.message)) out.push(...contentBlocks(v.message.content));
  return out;
}

/** A line's usage (`usageOf`): a `UsageRecord` whose `messageIndex` is set once it is listed. */
type Usage = UsageRecord & { messageIndex: number };

/**
 * A line's usage as the record the transcript lists, its `messageIndex` set when the reply's
 * usage is chosen (`transcriptOf`): made with the key first, so no copy is made per reply.
 * @returns null when the line counts no tokens
 */
function usageOf(u: unknown): Usage | null {
  if (!isObject(u)) return null;
  // Plain assignments, no per-call tables: this runs once per assistant line of big logs.
  const rec: Usage = { messageIndex: -1 };
  let any = false;
  if (typeof u.input_tokens === 'number') {
    rec.inputTokens = u.input_tokens;
    any = true;
  }
  if (typeof u.output_tokens === 'number') {
    rec.outputTokens = u.output_tokens;
    any = true;
  }
  if (typeof u.cache_read_input_tokens === 'number') {
    rec.cacheReadTokens = u.cache_read_input_tokens;
    any = true;
  }
  if (typeof u.cache_creation_input_tokens === 'number') {
    rec.cacheWriteTokens = u.cache_creation_input_tokens;
    any = true;
  }
  return any ? rec : null;
}

/** A message's meta from its log line (plain assignments: this runs once per line of big logs). */
function lineMeta(
  v: Json,
  side: boolean,
  sourceId: string | undefined,
  usageOutputTokens: number | undefined,
): MessageMeta {
  const meta: MessageMeta = {};
  if (side) meta.sidechain = true;
  if (sourceId) meta.sourceId = sourceId;
  const ts = str(v.timestamp);
  if (ts) meta.timestamp = ts;
  if (usageOutputTokens !== undefined) meta.usageOutputTokens = usageOutputTokens;
  return meta;
}

/** What the parse loop carries from line to line (one object per parse). */
interface ReadState {
  messages: Message[];
  /** Per message index (an array, not a Map: a Map growing to 10^4 entries costs milliseconds). */
  usageByMsg: (Usage | undefined)[];
  warnings: string[];
  model: string | undefined;
  synthetic: number;
  sidechains: number;
  /** The open assistant reply (its `message.id` and message): later lines with that id join it. */
  replyId: string | undefined;
  reply: Message | null;
  /**
   * The open reply's lines, kept aside until it closes (`endReply`): its file lines (1-based) and
   * raw values (the first line's at 0, then the `joined` lines joined to it), and the blocks those
   * add (the first `joinedBlocks`). Scratch arrays reused from reply to reply: the reply's path,
   * raw list and blocks are made once, at their final size, not again for every line of it.
   */
  replyLines: number[];
  replyRaws: unknown[];
  replyBlocks: Block[];
  joined: number;
  joinedBlocks: number;
  lastSide: boolean | null;
}

/**
 * The parsed lines in reading order. The usual log (every line an object, parents before
 * children, no sidechains) is read in file order straight from the parsed lines (`fast`);
 * otherwise entries are reordered (parentOrder, threads). No per-line wrapper objects on the fast
 * path: 40,000-line logs are common.
 */
function readingOrder(lines: JsonlLine[]): {
  ordered: readonly (JsonlLine | Entry)[];
  fast: boolean;
} {
  // One pass for both per-line tests (every line an object, none a sidechain's), then the order.
  let plain = true;
  for (let i = 0; i < lines.length && plain; i++) {
    const v = (lines[i] as JsonlLine).value;
    plain = isObject(v) && v.isSidechain !== true;
  }
  const fast = plain && inParentOrder(lines);
  if (fast) return { ordered: lines, fast };
  const entries: Entry[] = [];
  lines.forEach((l: JsonlLine, pos) => {
    if (isObject(l.value)) entries.push({ pos, line: l.line, value: l.value });
  });
  return { ordered: threads(parentOrder(entries)), fast };
}

/**
 * A `summary` or `compact_boundary` line becomes a warning (a compaction also closes the open
 * reply). True when the line was one of them.
 */
function markerLine(s: ReadState, v: Json, type: string | undefined, line: number): boolean {
  if (type === 'summary') {
    s.warnings.push(`Line ${line}: session summary "${str(v.summary) ?? ''}".`);
    return true;
  }
  if (type === 'system' && v.subtype === 'compact_boundary') {
    const cm = isObject(v.compactMetadata) ? v.compactMetadata : {};
    const pre = typeof cm.preTokens === 'number' ? `, ${cm.preTokens} tokens before` : '';
    s.warnings.push(
      `Line ${line}: the conversation was compacted (${str(cm.trigger) ?? 'unknown'} trigger${pre}); messages before the summary that follows were no longer in the model's context.`,
    );
    endReply(s);
    return true;
  }
  return false;
}

/**
 * Close the open reply, if any: the lines joined to it go into its message (blocks, raw list,
 * path), as if each had been added as it was read. No later line joins it.
 */
function endReply(s: ReadState): void {
  const target = s.reply;
  s.reply = null;
  if (target === null || s.joined === 0) return;
  const n = s.joined + 1;
  target.blocks = target.blocks.concat(s.replyBlocks.slice(0, s.joinedBlocks));
  target.raw = s.replyRaws.slice(0, n);
  target.path = sourceLines(s.replyLines.slice(0, n));
  s.joined = 0;
  s.joinedBlocks = 0;
}

/**
 * Another line of the open reply: its blocks and raw line join the reply's message (when it
 * closes, `endReply`), and its usage replaces the reply's when it counts at least as many output
 * tokens.
 */
function joinReply(
  s: ReadState,
  target: Message,
  blocks: Block[],
  v: Json,
  usage: Usage | null,
  line: number,
) {
  for (let i = 0; i < blocks.length; i++) s.replyBlocks[s.joinedBlocks++] = blocks[i] as Block;
  const k = ++s.joined;
  s.replyLines[k] = line;
  s.replyRaws[k] = v;
  const prev = s.usageByMsg[target.index];
  if (usage && (!prev || (usage.outputTokens ?? 0) >= (prev.outputTokens ?? 0)))
    s.usageByMsg[target.index] = usage;
  if (target.meta)
    target.meta.usageOutputTokens =
      s.usageByMsg[target.index]?.outputTokens ?? target.meta.usageOutputTokens;
}

/** An assistant line: a new message, or one more content block of the open reply. */
function assistantLine(s: ReadState, v: Json, msg: Json, pos: number, line: number, side: boolean) {
  const blocks = contentBlocks(msg.content);
  const id = str(msg.id);
  const m = str(msg.model);
  if (m === '<synthetic>' || v.isApiErrorMessage === true) s.synthetic++;
  else if (m) s.model = m;
  const usage = usageOf(msg.usage);
  if (id && s.reply && s.replyId === id) {
    joinReply(s, s.reply, blocks, v, usage, line);
    return;
  }
  const index = s.messages.length;
  const out: Message = {
    index,
    rawIndex: index,
    rawLine: pos,
    path: sourceLines([line]),
    role: 'assistant',
    blocks,
    raw: v,
    meta: lineMeta(v, side, id, usage?.outputTokens),
  };
  if (typeof msg.content === 'string') out.stringContent = true;
  s.messages.push(out);
  if (usage) s.usageByMsg[index] = usage;
  endReply(s);
  s.replyId = id;
  s.reply = id ? out : null;
  s.replyLines[0] = line;
  s.replyRaws[0] = v;
  if (side) s.sidechains++;
}

/** A user line: a prompt, tool results, injected text, or a compaction summary. */
function userLine(s: ReadState, v: Json, msg: Json, pos: number, line: number, side: boolean) {
  const blocks = contentBlocks(msg.content);
  const out: Message = {
    index: s.messages.length,
    rawIndex: s.messages.length,
    rawLine: pos,
    path: sourceLines([line]),
    role: 'user',
    blocks,
    raw: v,
    meta: lineMeta(v, side, str(v.uuid), undefined),
  };
  if (v.isCompactSummary === true) (out.meta as MessageMeta).compactSummary = true;
  if (typeof msg.content === 'string') out.stringContent = true;
  s.messages.push(out);
  if (side) s.sidechains++;
}

/** The transcript from the loop's state: usage records, and the log-wide warnings around the others. */
function transcriptOf(s: ReadState, doc: { lines: JsonlLine[] }): Transcript {
  const usage: UsageRecord[] = [];
  const byMsg = s.usageByMsg;
  for (let messageIndex = 0; messageIndex < byMsg.length; messageIndex++) {
    const u = byMsg[messageIndex];
    if (u === undefined) continue;
    u.messageIndex = messageIndex;
    usage.push(u);
  }
  const warnings = s.warnings;
  warnings.unshift(
    'Claude Code logs hold neither the system prompt nor the tool definitions: the usage figures include them, the messages do not (see the usage gap).',
  );
  if (s.sidechains > 0)
    warnings.push(
      `${s.sidechains} sidechain message(s) (sub-agent threads) are listed after the main thread; each thread was its own request.`,
    );
  if (s.synthetic > 0)
    warnings.push(
      `${s.synthetic} assistant line(s) were written by Claude Code itself (model "<synthetic>", e.g. an API error), not by the model.`,
    );
  return {
    format: 'claude-code-jsonl',
    system: [],
    tools: null,
    settings: s.model ? { model: s.model } : {},
    usage,
    messages: s.messages,
    warnings,
    listKey: 'lines',
    raw: doc.lines.map((l) => l.value),
  };
}

function parse(doc: SourceDoc): Result<Transcript> {
  if (doc.kind !== 'jsonl')
    return shapeError(
      'A Claude Code session log is JSON Lines (one object per line), not one JSON document.',
    );
  const { ordered, fast } = readingOrder(doc.lines);
  const s: ReadState = {
    messages: [],
    usageByMsg: [],
    warnings: [],
    model: undefined,
    synthetic: 0,
    sidechains: 0,
    replyId: undefined,
    reply: null,
    replyLines: [],
    replyRaws: [],
    replyBlocks: [],
    joined: 0,
    joinedBlocks: 0,
    lastSide: null,
  };
  for (let k = 0; k < ordered.length; k++) {
    const e = ordered[k] as JsonlLine | Entry;
    // Index among parsed lines (the raw index): the loop index on the fast path.
    const pos = fast ? k : (e as Entry).pos;
    const v = e.value as Json;
    const type = str(v.type);
    const side = v.isSidechain === true;
    if (s.lastSide !== side) endReply(s);
    if (markerLine(s, v, type, e.line)) continue;
    if ((type !== 'user' && type !== 'assistant') || !isObject(v.message)) continue;
    s.lastSide = side;
    if (type === 'assistant') assistantLine(s, v, v.message, pos, e.line, side);
    else userLine(s, v, v.message, pos, e.line, side);
  }
  endReply(s);
  return { ok: true, value: transcriptOf(s, doc) };
}

export const claudeCodeJsonlParser: FormatParser = {
  id: 'claude-code-jsonl',
  label: 'Claude Code session log',
  provider: 'anthropic',
  category: 'log',
  resultStyle: 'user',
  usageCacheApart: true,
  expected:
    'JSON Lines with `type` user/assistant/system/summary, `uuid`, `parentUuid`, `sessionId`, and `message` holding Anthropic content blocks',
  jsonl: true,
  sniff,
  parse,
  blocksOf,
  slimmer: claudeCodeSlimmer,
  write: writeClaudeCode,
  sessionCalls: claudeCodeCalls,
};
