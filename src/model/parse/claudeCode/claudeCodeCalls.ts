/**
 * The model calls of a Claude Code session log (`sessionCalls.ts`): one call per assistant reply
 * (one `message.id`; Claude Code's own lines, model `<synthetic>`, are no call unless they record
 * an API error: that call was made and failed). A call's context is its thread's messages
 * before the reply, from the last compaction on: a `system`/`compact_boundary` line (trigger and
 * tokens before → after in its `compactMetadata`) starts the context again at the summary
 * (`isCompactSummary`) that follows it. Sub-agent threads (sidechain lines, listed after the main
 * thread) are conversations of their own; a thread starts at a line with no `parentUuid`.
 */
import type { Message, Transcript } from '../../types.ts';
import type { SourceDoc } from '../json.ts';
import type { CompactionEvent, SessionCall, SessionCalls } from '../sessionCalls.ts';
import { isObject, type Json, str } from '../util.ts';

/** The first log line of a message (a reply joined from several lines is an array of them). */
function firstLine(m: Message): Json | null {
  const raw = Array.isArray(m.raw) ? (m.raw as unknown[])[0] : m.raw;
  return isObject(raw) ? raw : null;
}

/** The API error a synthetic assistant line records, or undefined for any other message. */
function apiErrorOf(m: Message): string | undefined {
  const v = firstLine(m);
  if (!v || v.isApiErrorMessage !== true) return undefined;
  const b = m.blocks.find((x) => x.type === 'text');
  return b && b.type === 'text' ? b.text : 'API error';
}

/** True for Claude Code's own assistant lines that record no call (model `<synthetic>`). */
function syntheticOnly(m: Message): boolean {
  const v = firstLine(m);
  const model = v && isObject(v.message) ? str(v.message.model) : undefined;
  return model === '<synthetic>' && v?.isApiErrorMessage !== true;
}

interface Boundary {
  pos: number;
  line: number;
  trigger: string;
  pre: number | null;
  post: number | null;
}

function boundaries(doc: SourceDoc): Boundary[] {
  if (doc.kind !== 'jsonl') return [];
  const out: Boundary[] = [];
  doc.lines.forEach((l, pos) => {
    const v = l.value;
    if (!isObject(v) || v.type !== 'system' || v.subtype !== 'compact_boundary') return;
    const cm = isObject(v.compactMetadata) ? v.compactMetadata : {};
    out.push({
      pos,
      line: l.line,
      trigger: str(cm.trigger) ?? 'unknown',
      pre: typeof cm.preTokens === 'number' ? cm.preTokens : null,
      post: typeof cm.postTokens === 'number' ? cm.postTokens : null,
    });
  });
  return out;
}

/** Input tokens of each reply, from the log's usage (input + cache reads + cache writes). */
function usageByReply(t: Transcript): Map<number, number> {
  const out = new Map<number, number>();
  for (const u of t.usage) {
    if (u.messageIndex === undefined || u.inputTokens === undefined) continue;
    out.set(
      u.messageIndex,
      (u.inputTokens ?? 0) + (u.cacheReadTokens ?? 0) + (u.cacheWriteTokens ?? 0),
    );
  }
  return out;
}

interface Thread {
  id: string;
  start: number;
  pending: CompactionEvent | null;
}

/**
 * The calls of a parsed Claude Code log.
 * @param doc the log's lines, as parsed; @param t its transcript (`claudeCodeJsonlParser.parse`)
 * @returns every call in the order of the transcript's messages. O(lines + messages).
 */
export function claudeCodeCalls(doc: SourceDoc, t: Transcript): SessionCalls {
  const marks = boundaries(doc);
  const usage = usageByReply(t);
  const calls: SessionCall[] = [];
  const main: Thread = { id: 'main', start: 0, pending: null };
  let side: Thread | null = null;
  let sides = 0;
  let b = 0;
  for (let i = 0; i < t.messages.length; i++) {
    const m = t.messages[i] as Message;
    const isSide = m.meta?.sidechain === true;
    if (isSide && (side === null || firstLine(m)?.parentUuid == null)) {
      sides++;
      side = { id: `side-${sides}`, start: i, pending: null };
    }
    const thread = isSide ? (side as Thread) : main;
    // Compaction boundaries read before this message (main thread only: file order).
    while (!isSide && b < marks.length && (marks[b] as Boundary).pos < (m.rawLine ?? -1)) {
      const mark = marks[b++] as Boundary;
      thread.pending = {
        kind: 'compaction',
        trigger: mark.trigger,
        tokensBefore: mark.pre,
        tokensAfter: mark.post,
        removed: [thread.start, i],
        summary: m.meta?.compactSummary === true ? i : null,
        line: mark.line,
      };
      thread.start = i;
    }
    if (m.role !== 'assistant' || syntheticOnly(m)) continue;
    const call: SessionCall = {
      spans: i > thread.start ? [[thread.start, i]] : [],
      reply: i,
      thread: thread.id,
      compaction: thread.pending,
    };
    thread.pending = null;
    const err = apiErrorOf(m);
    if (err !== undefined) call.apiError = err;
    // An API error line's usage is Claude Code's zeros, not the call's input.
    const used = usage.get(i);
    if (used !== undefined && err === undefined) call.usageTokens = used;
    calls.push(call);
  }
  return { transcript: t, calls };
}
