/**
 * The Claude Code log parse as it was before issue 38 cut its allocations
 * (parse/claudeCode/claudeCodeJsonl.ts `parse`): each line joined to a reply rebuilt the reply's
 * blocks, raw list and path; usage records were copied with their `messageIndex`; the reading
 * order tested every line in three passes. The property tests hold the parse equal to this.
 */
import { anthropicBlock } from '../parse/anthropicMessages/anthropicMessages.ts';
import {
  type Entry,
  inParentOrder,
  parentOrder,
  threads,
} from '../parse/claudeCode/claudeCodeOrder.ts';
import type { JsonlLine } from '../parse/json.ts';
import { isObject, type Json, str } from '../parse/util.ts';
import type { Block, Message, MessageMeta, Transcript, UsageRecord } from '../types.ts';

type Usage = Omit<UsageRecord, 'messageIndex'>;

/** `sourceLines` (messageLabels.ts) as it was: runs joined, one line too. */
export function referenceSourceLines(lines: readonly number[]): string {
  const runs: string[] = [];
  for (let i = 0; i < lines.length; ) {
    let j = i;
    while (j + 1 < lines.length && (lines[j + 1] as number) === (lines[j] as number) + 1) j++;
    runs.push(j > i ? `${lines[i]}–${lines[j]}` : `${lines[i]}`);
    i = j + 1;
  }
  return `${lines.length === 1 ? 'line' : 'lines'} ${runs.join(', ')}`;
}

function contentBlocks(c: unknown): { blocks: Block[]; stringContent: boolean } {
  if (typeof c === 'string') return { blocks: [{ type: 'text', text: c }], stringContent: true };
  if (Array.isArray(c)) return { blocks: c.map(anthropicBlock), stringContent: false };
  if (c === undefined || c === null) return { blocks: [], stringContent: false };
  return { blocks: [{ type: 'other', label: 'content', raw: c }], stringContent: false };
}

function usageOf(u: unknown): Usage | null {
  if (!isObject(u)) return null;
  const rec: Usage = {};
  if (typeof u.input_tokens === 'number') rec.inputTokens = u.input_tokens;
  if (typeof u.output_tokens === 'number') rec.outputTokens = u.output_tokens;
  if (typeof u.cache_read_input_tokens === 'number')
    rec.cacheReadTokens = u.cache_read_input_tokens;
  if (typeof u.cache_creation_input_tokens === 'number')
    rec.cacheWriteTokens = u.cache_creation_input_tokens;
  for (const _ in rec) return rec;
  return null;
}

function lineMeta(v: Json, side: boolean, sourceId: string | undefined, out?: number) {
  const meta: MessageMeta = {};
  if (side) meta.sidechain = true;
  if (sourceId) meta.sourceId = sourceId;
  const ts = str(v.timestamp);
  if (ts) meta.timestamp = ts;
  if (out !== undefined) meta.usageOutputTokens = out;
  return meta;
}

interface State {
  messages: Message[];
  usageByMsg: (Usage | undefined)[];
  warnings: string[];
  model: string | undefined;
  synthetic: number;
  sidechains: number;
  replyId: string | undefined;
  reply: Message | null;
  replyLines: number[];
  lastSide: boolean | null;
}

function readingOrder(lines: JsonlLine[]): {
  ordered: readonly (JsonlLine | Entry)[];
  fast: boolean;
} {
  const fast =
    lines.every((l) => isObject(l.value)) &&
    inParentOrder(lines) &&
    !lines.some((l) => (l.value as Json).isSidechain === true);
  if (fast) return { ordered: lines, fast };
  const entries: Entry[] = [];
  lines.forEach((l: JsonlLine, pos) => {
    if (isObject(l.value)) entries.push({ pos, line: l.line, value: l.value });
  });
  return { ordered: threads(parentOrder(entries)), fast };
}

function markerLine(s: State, v: Json, type: string | undefined, line: number): boolean {
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
    s.reply = null;
    return true;
  }
  return false;
}

function joinReply(
  s: State,
  target: Message,
  blocks: Block[],
  v: Json,
  usage: Usage | null,
  line: number,
) {
  target.blocks.push(...blocks);
  s.replyLines.push(line);
  target.path = referenceSourceLines(s.replyLines);
  target.raw = Array.isArray(target.raw) ? [...(target.raw as unknown[]), v] : [target.raw, v];
  const prev = s.usageByMsg[target.index];
  if (usage && (!prev || (usage.outputTokens ?? 0) >= (prev.outputTokens ?? 0)))
    s.usageByMsg[target.index] = usage;
  if (target.meta)
    target.meta.usageOutputTokens =
      s.usageByMsg[target.index]?.outputTokens ?? target.meta.usageOutputTokens;
}

function assistantLine(s: State, v: Json, msg: Json, pos: number, line: number, side: boolean) {
  const { blocks, stringContent } = contentBlocks(msg.content);
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
    path: referenceSourceLines([line]),
    role: 'assistant',
    blocks,
    raw: v,
    meta: lineMeta(v, side, id, usage?.outputTokens),
  };
  if (stringContent) out.stringContent = true;
  s.messages.push(out);
  if (usage) s.usageByMsg[index] = usage;
  s.replyId = id;
  s.reply = id ? out : null;
  s.replyLines = [line];
  if (side) s.sidechains++;
}

function userLine(s: State, v: Json, msg: Json, pos: number, line: number, side: boolean) {
  const { blocks, stringContent } = contentBlocks(msg.content);
  const out: Message = {
    index: s.messages.length,
    rawIndex: s.messages.length,
    rawLine: pos,
    path: referenceSourceLines([line]),
    role: 'user',
    blocks,
    raw: v,
    meta: lineMeta(v, side, str(v.uuid), undefined),
  };
  if (v.isCompactSummary === true) (out.meta as MessageMeta).compactSummary = true;
  if (stringContent) out.stringContent = true;
  s.messages.push(out);
  if (side) s.sidechains++;
}

/** The transcript the parse gave for a JSON Lines document's lines (`claudeCodeJsonlParser.parse`). */
export function referenceClaudeCodeParse(lines: JsonlLine[]): Transcript {
  const { ordered, fast } = readingOrder(lines);
  const s: State = {
    messages: [],
    usageByMsg: [],
    warnings: [],
    model: undefined,
    synthetic: 0,
    sidechains: 0,
    replyId: undefined,
    reply: null,
    replyLines: [],
    lastSide: null,
  };
  for (let k = 0; k < ordered.length; k++) {
    const e = ordered[k] as JsonlLine | Entry;
    const pos = fast ? k : (e as Entry).pos;
    const v = e.value as Json;
    const type = str(v.type);
    const side = v.isSidechain === true;
    if (s.lastSide !== side) s.reply = null;
    if (markerLine(s, v, type, e.line)) continue;
    if ((type !== 'user' && type !== 'assistant') || !isObject(v.message)) continue;
    s.lastSide = side;
    if (type === 'assistant') assistantLine(s, v, v.message, pos, e.line, side);
    else userLine(s, v, v.message, pos, e.line, side);
  }
  const usage: UsageRecord[] = [];
  s.usageByMsg.forEach((u, messageIndex) => {
    if (u) usage.push({ messageIndex, ...u });
  });
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
    raw: lines.map((l) => l.value),
  };
}
