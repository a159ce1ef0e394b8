/**
 * Claude Code session logs (`~/.claude/projects/<cwd>/<sessionId>.jsonl`).
 * Source of the shape: what Claude Code writes (no published schema; docs/formats.md#claude-code-jsonl).
 *
 * - Lines are put in `parentUuid` order (a line is placed after its parent even when it was
 *   written first), otherwise file order.
 * - The lines of one assistant reply (same `message.id`, one content block per line) become one
 *   message, at the position of its first line; tool results written between them stay after it.
 * - Usage is counted once per reply (the line with the largest `output_tokens`).
 * - `toolUseResult` (the UI's copy of a tool result) is ignored: only `message.content` went to
 *   the model.
 * - Sidechain lines (old sub-agent layout) are marked `meta.sidechain` and listed after the main
 *   thread, one thread after another.
 * - `isCompactSummary` user lines get `meta.compactSummary`; `compact_boundary` and `summary`
 *   lines become warnings.
 */
import type { Block, Message, MessageMeta, Result, Transcript, UsageRecord } from '../types.ts';
import type { JsonlLine, SourceDoc } from './json.ts';
import { anthropicBlock } from './anthropicMessages.ts';
import { writeClaudeCode } from './claudeCodeWrite.ts';
import type { FormatParser } from './registry.ts';
import { isObject, type Json, shapeError, str } from './util.ts';

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

interface Entry {
  /** Index among parsed lines. */
  pos: number;
  line: number;
  value: Json;
}

/**
 * True when every line's parent (by `parentUuid`, at the first line with that `uuid`) comes
 * before it in the file, or is not in the file at all: the usual log, kept in file order.
 * Most lines name the line just before them as parent, so only the other lines' parents are
 * looked up (a map of every uuid would cost more than the rest of the parse of a 50 MB log).
 * @param lines the parsed lines (their `value`: objects), in file order. O(n), allocation
 *   O(exceptions).
 */
export function inParentOrder(lines: readonly { value: unknown }[]): boolean {
  const field = (i: number, key: 'uuid' | 'parentUuid'): string | undefined => {
    const v = (lines[i] as { value: unknown }).value;
    return isObject(v) ? str(v[key]) : undefined;
  };
  const exceptions: number[] = [];
  let prev: string | undefined;
  for (let i = 0; i < lines.length; i++) {
    const p = field(i, 'parentUuid');
    if (p !== undefined && p !== prev) exceptions.push(i);
    const u = field(i, 'uuid');
    if (u !== undefined) prev = u;
  }
  if (exceptions.length === 0) return true;
  // First position of each parent an exception names (-1: not in the file).
  const firstPos = new Map<string, number>();
  for (const i of exceptions) firstPos.set(field(i, 'parentUuid') as string, -1);
  for (let i = 0; i < lines.length; i++) {
    const u = field(i, 'uuid');
    if (u !== undefined && firstPos.get(u) === -1) firstPos.set(u, i);
  }
  for (const i of exceptions)
    if ((firstPos.get(field(i, 'parentUuid') as string) ?? -1) >= i) return false;
  return true;
}

/** File order, except that a line whose parent comes later in the file is placed after it. */
function parentOrder(entries: Entry[]): Entry[] {
  if (inParentOrder(entries)) return entries;
  const known = new Set<string>();
  for (const e of entries) {
    const u = str(e.value.uuid);
    if (u !== undefined) known.add(u);
  }
  const emitted = new Set<string>();
  const pending = new Map<string, Entry[]>();
  const out: Entry[] = [];
  const emit = (first: Entry) => {
    const stack = [first];
    while (stack.length > 0) {
      const e = stack.pop() as Entry;
      out.push(e);
      const u = str(e.value.uuid);
      if (!u) continue;
      emitted.add(u);
      const kids = pending.get(u);
      if (kids) {
        pending.delete(u);
        for (let k = kids.length - 1; k >= 0; k--) stack.push(kids[k] as Entry);
      }
    }
  };
  for (const e of entries) {
    const p = str(e.value.parentUuid);
    if (p && known.has(p) && !emitted.has(p) && p !== str(e.value.uuid)) {
      const list = pending.get(p) ?? [];
      list.push(e);
      pending.set(p, list);
    } else emit(e);
  }
  // Cycles or parents that never got emitted: keep what is left in file order.
  const placed = new Set(out);
  const rest = [...pending.values()].flat().sort((a, b) => a.pos - b.pos);
  for (const e of rest) if (!placed.has(e)) out.push(e);
  return out;
}

/** Main thread first, then each sidechain thread (grouped by its root), in order of appearance. */
function threads(ordered: Entry[]): Entry[] {
  if (!ordered.some((e) => e.value.isSidechain === true)) return ordered;
  const parentOf = new Map<string, string>();
  for (const e of ordered) {
    const u = str(e.value.uuid);
    const p = str(e.value.parentUuid);
    if (u && p) parentOf.set(u, p);
  }
  const sideUuids = new Set(
    ordered
      .filter((e) => e.value.isSidechain === true)
      .map((e) => str(e.value.uuid))
      .filter((u): u is string => u !== undefined),
  );
  // Memoised walk to the thread's root: O(n) over the whole log, not O(depth) per line.
  const rootMemo = new Map<string, string>();
  const rootOf = (e: Entry): string => {
    const start = str(e.value.uuid) ?? `#${e.pos}`;
    const path: string[] = [];
    let u = start;
    for (let guard = 0; guard < 100000; guard++) {
      const known = rootMemo.get(u);
      if (known !== undefined) {
        u = known;
        break;
      }
      path.push(u);
      const p = parentOf.get(u);
      if (!p || !sideUuids.has(p)) break;
      u = p;
    }
    for (const x of path) rootMemo.set(x, u);
    return u;
  };
  const main: Entry[] = [];
  const side = new Map<string, Entry[]>();
  for (const e of ordered) {
    if (e.value.isSidechain !== true) main.push(e);
    else {
      const r = rootOf(e);
      const list = side.get(r) ?? [];
      list.push(e);
      side.set(r, list);
    }
  }
  return [...main, ...[...side.values()].flat()];
}

function contentBlocks(c: unknown): { blocks: Block[]; stringContent: boolean } {
  if (typeof c === 'string') return { blocks: [{ type: 'text', text: c }], stringContent: true };
  if (Array.isArray(c)) return { blocks: c.map(anthropicBlock), stringContent: false };
  if (c === undefined || c === null) return { blocks: [], stringContent: false };
  return { blocks: [{ type: 'other', label: 'content', raw: c }], stringContent: false };
}

function usageOf(u: unknown): Omit<UsageRecord, 'messageIndex'> | null {
  if (!isObject(u)) return null;
  // Plain assignments, no per-call tables: this runs once per assistant line of big logs.
  const rec: Omit<UsageRecord, 'messageIndex'> = {};
  if (typeof u.input_tokens === 'number') rec.inputTokens = u.input_tokens;
  if (typeof u.output_tokens === 'number') rec.outputTokens = u.output_tokens;
  if (typeof u.cache_read_input_tokens === 'number')
    rec.cacheReadTokens = u.cache_read_input_tokens;
  if (typeof u.cache_creation_input_tokens === 'number')
    rec.cacheWriteTokens = u.cache_creation_input_tokens;
  for (const _ in rec) return rec;
  return null;
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

function parse(doc: SourceDoc): Result<Transcript> {
  if (doc.kind !== 'jsonl')
    return shapeError(
      'A Claude Code session log is JSON Lines (one object per line), not one JSON document.',
    );
  // The usual log (every line an object, parents before children, no sidechains) is read in
  // file order straight from the parsed lines; otherwise entries are reordered (parentOrder,
  // threads). No per-line wrapper objects on the fast path: 40,000-line logs are common.
  const lines = doc.lines;
  const fast =
    lines.every((l) => isObject(l.value)) &&
    inParentOrder(lines) &&
    !lines.some((l) => (l.value as Json).isSidechain === true);
  let ordered: readonly (JsonlLine | Entry)[] = lines;
  if (!fast) {
    const entries: Entry[] = [];
    lines.forEach((l: JsonlLine, pos) => {
      if (isObject(l.value)) entries.push({ pos, line: l.line, value: l.value });
    });
    ordered = threads(parentOrder(entries));
  }
  const messages: Message[] = [];
  // Per message index (an array, not a Map: a Map growing to 10^4 entries costs milliseconds).
  const usageByMsg: (Omit<UsageRecord, 'messageIndex'> | undefined)[] = [];
  const warnings: string[] = [];
  let model: string | undefined;
  let synthetic = 0;
  let sidechains = 0;
  let lastAssistant: { id: string; msg: Message } | null = null;
  let lastSide: boolean | null = null;

  for (let k = 0; k < ordered.length; k++) {
    const e = ordered[k] as JsonlLine | Entry;
    // Index among parsed lines (the raw index): the loop index on the fast path.
    const pos = fast ? k : (e as Entry).pos;
    const v = e.value as Json;
    const type = str(v.type);
    const side = v.isSidechain === true;
    if (lastSide !== side) lastAssistant = null;
    if (type === 'summary') {
      warnings.push(`Line ${e.line}: session summary "${str(v.summary) ?? ''}".`);
      continue;
    }
    if (type === 'system' && v.subtype === 'compact_boundary') {
      const cm = isObject(v.compactMetadata) ? v.compactMetadata : {};
      const pre = typeof cm.preTokens === 'number' ? `, ${cm.preTokens} tokens before` : '';
      warnings.push(
        `Line ${e.line}: the conversation was compacted (${str(cm.trigger) ?? 'unknown'} trigger${pre}); messages before the summary that follows were no longer in the model's context.`,
      );
      lastAssistant = null;
      continue;
    }
    if ((type !== 'user' && type !== 'assistant') || !isObject(v.message)) continue;
    lastSide = side;
    const msg = v.message;
    const { blocks, stringContent } = contentBlocks(msg.content);
    if (type === 'assistant') {
      const id = str(msg.id);
      const m = str(msg.model);
      if (m === '<synthetic>' || v.isApiErrorMessage === true) synthetic++;
      else if (m) model = m;
      const usage = usageOf(msg.usage);
      if (id && lastAssistant && lastAssistant.id === id) {
        const target = lastAssistant.msg;
        target.blocks.push(...blocks);
        target.raw = Array.isArray(target.raw)
          ? [...(target.raw as unknown[]), v]
          : [target.raw, v];
        const prev = usageByMsg[target.index];
        if (usage && (!prev || (usage.outputTokens ?? 0) >= (prev.outputTokens ?? 0)))
          usageByMsg[target.index] = usage;
        if (target.meta)
          target.meta.usageOutputTokens =
            usageByMsg[target.index]?.outputTokens ?? target.meta.usageOutputTokens;
        continue;
      }
      const index = messages.length;
      const out: Message = {
        index,
        rawIndex: pos,
        path: `line ${e.line}`,
        role: 'assistant',
        blocks,
        raw: v,
        meta: lineMeta(v, side, id, usage?.outputTokens),
      };
      if (stringContent) out.stringContent = true;
      messages.push(out);
      if (usage) usageByMsg[index] = usage;
      lastAssistant = id ? { id, msg: out } : null;
      if (side) sidechains++;
      continue;
    }
    // A user line: a prompt, tool results, injected text, or a compaction summary.
    const out: Message = {
      index: messages.length,
      rawIndex: pos,
      path: `line ${e.line}`,
      role: 'user',
      blocks,
      raw: v,
      meta: lineMeta(v, side, str(v.uuid), undefined),
    };
    if (v.isCompactSummary === true) (out.meta as MessageMeta).compactSummary = true;
    if (stringContent) out.stringContent = true;
    messages.push(out);
    if (side) sidechains++;
  }

  const usage: UsageRecord[] = [];
  usageByMsg.forEach((u, messageIndex) => {
    if (u) usage.push({ messageIndex, ...u });
  });
  warnings.unshift(
    'Claude Code logs hold neither the system prompt nor the tool definitions: the usage figures include them, the messages do not (see the usage gap).',
  );
  if (sidechains > 0)
    warnings.push(
      `${sidechains} sidechain message(s) (sub-agent threads) are listed after the main thread; each thread was its own request.`,
    );
  if (synthetic > 0)
    warnings.push(
      `${synthetic} assistant line(s) were written by Claude Code itself (model "<synthetic>", e.g. an API error), not by the model.`,
    );
  return {
    ok: true,
    value: {
      format: 'claude-code-jsonl',
      system: [],
      tools: null,
      settings: model ? { model } : {},
      usage,
      messages,
      warnings,
      listKey: 'lines',
      raw: doc.lines.map((l) => l.value),
    },
  };
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
  write: writeClaudeCode,
};
