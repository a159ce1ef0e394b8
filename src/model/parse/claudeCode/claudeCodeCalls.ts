/**
 * The model calls of a Claude Code session log (`sessionCalls.ts`): one call per assistant reply
 * (one `message.id`; Claude Code's own lines, model `<synthetic>`, are no call unless they record
 * an API error: that call was made and failed). A call's context is its thread's messages
 * before the reply, from the last compaction on: a `system`/`compact_boundary` line (trigger and
 * tokens before → after in its `compactMetadata`) starts the context again at the summary
 * (`isCompactSummary`) that follows it. Sub-agent threads (sidechain lines, listed after the main
 * thread) are conversations of their own; a thread starts at a line with no `parentUuid`.
 *
 * Claude Code sends a reply's context along its `parentUuid` chain, so a branch it left is not
 * sent again: a prompt (a user line with no tool result) or a new reply whose parent is not the
 * message before it goes on from that earlier message, and the messages between (an interrupted
 * reply and its unanswered tool call, a reply that failed and was retried) leave the context of
 * every later call — a `rollback` event (the log: "Continue from where you left off." on the line
 * before an unanswered `tool_use`, in a real session whose later calls all got answers).
 */
import type { Message, Transcript } from '../../types.ts';
import type { SourceDoc } from '../json.ts';
import type { CompactionEvent, SessionCall, SessionCalls, Span } from '../sessionCalls.ts';
import { isObject, type Json, str } from '../util.ts';

/** The first log line of a message (a reply joined from several lines is an array of them). */
function firstLine(m: Message): Json | null {
  const raw = Array.isArray(m.raw) ? (m.raw as unknown[])[0] : m.raw;
  return isObject(raw) ? raw : null;
}

/** The file line (1-based) of a message's first log line, from its `path` (`line 12`, `lines 4–5`). */
function lineOf(m: Message): number | null {
  const n = /\d+/.exec(m.path);
  return n ? Number(n[0]) : null;
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
  /** Messages taken out of the context after `start` (branches left), in order, not overlapping. */
  cut: Span[];
}

/** The context of a call at message `at`: the thread's messages from its start, less its cuts. */
function contextSpans(th: Thread, at: number): Span[] {
  const out: Span[] = [];
  let from = th.start;
  for (const [a, b] of th.cut) {
    if (a > from) out.push([from, a]);
    from = Math.max(from, b);
  }
  if (at > from) out.push([from, at]);
  return out;
}

/** The uuids of a message's log lines (a reply joined from several lines has several). */
function lineUuids(m: Message): string[] {
  const raws = Array.isArray(m.raw) ? (m.raw as unknown[]) : [m.raw];
  const out: string[] = [];
  for (const v of raws) {
    const u = isObject(v) ? str(v.uuid) : undefined;
    if (u !== undefined) out.push(u);
  }
  return out;
}

/**
 * True for a message that goes on a conversation rather than answering tool calls: a user line
 * without a `tool_result` block, or an assistant reply (a new one: its first line).
 */
function startsBranch(m: Message): boolean {
  if (m.role === 'assistant') return true;
  return !m.blocks.some((b) => b.type === 'tool_result');
}

/**
 * Where the log's lines sit, for following a line's `parentUuid` to the message that holds it:
 * built on the first line that needs it (most logs never do). A line that is no message
 * (`system`, `attachment`, …) leads on to its own parent.
 */
class LineIndex {
  private readonly parentOf = new Map<string, string | null>();
  private readonly lineOf = new Map<string, number>();
  private readonly messageOf = new Map<string, number>();
  constructor(doc: SourceDoc, t: Transcript) {
    if (doc.kind === 'jsonl')
      for (const l of doc.lines) {
        const v = l.value;
        const u = isObject(v) ? str(v.uuid) : undefined;
        if (u === undefined || this.lineOf.has(u)) continue;
        this.lineOf.set(u, l.line);
        this.parentOf.set(u, str((v as Json).parentUuid) ?? null);
      }
    t.messages.forEach((m, i) => {
      for (const u of lineUuids(m)) if (!this.messageOf.has(u)) this.messageOf.set(u, i);
    });
  }
  /**
   * The message that holds line `uuid`, or the nearest one up its chain of parents; the file line
   * (1-based) of the line found. null when the chain leaves the file.
   */
  messageAt(uuid: string): { message: number; line: number } | null {
    let u: string | null = uuid;
    for (let hops = 0; u !== null && hops < 64; hops++) {
      const m = this.messageOf.get(u);
      if (m !== undefined) return { message: m, line: this.lineOf.get(u) ?? -1 };
      u = this.parentOf.get(u) ?? null;
    }
    return null;
  }
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
  const main: Thread = { id: 'main', start: 0, pending: null, cut: [] };
  let side: Thread | null = null;
  let sides = 0;
  let b = 0;
  let index: LineIndex | null = null;
  for (let i = 0; i < t.messages.length; i++) {
    const m = t.messages[i] as Message;
    const isSide = m.meta?.sidechain === true;
    if (isSide && (side === null || firstLine(m)?.parentUuid == null)) {
      sides++;
      side = { id: `side-${sides}`, start: i, pending: null, cut: [] };
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
      thread.cut = [];
    }
    // A branch left: this message goes on from an earlier one than the message before it.
    const parent =
      i > thread.start + 1 && startsBranch(m) ? str(firstLine(m)?.parentUuid) : undefined;
    if (parent !== undefined && !lineUuids(t.messages[i - 1] as Message).includes(parent)) {
      index ??= new LineIndex(doc, t);
      const from = index.messageAt(parent);
      const prev = i - 1;
      if (from && from.message >= thread.start && from.message < prev) {
        const removed: Span = [from.message + 1, i];
        // Cuts end before `i`: any that reach into this one join it (a branch left from further back).
        const kept = thread.cut.filter(([, z]) => z < removed[0]);
        const joined = thread.cut.find(([a, z]) => a < removed[0] && z >= removed[0]);
        thread.cut = [...kept, [joined ? joined[0] : removed[0], i]];
        thread.pending ??= {
          kind: 'rollback',
          trigger: `went on from line ${from.line}`,
          tokensBefore: null,
          tokensAfter: null,
          removed,
          summary: null,
          line: lineOf(m),
        };
      }
    }
    if (m.role !== 'assistant' || syntheticOnly(m)) continue;
    const call: SessionCall = {
      spans: contextSpans(thread, i),
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
