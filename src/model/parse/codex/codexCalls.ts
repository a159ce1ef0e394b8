/**
 * The model calls of a Codex rollout and of a Gemini CLI session (`sessionCalls.ts`).
 *
 * Codex: a call's reply is a run of output items (reasoning, assistant message, function or
 * custom tool calls) after input items; its context is every item before the run, less what
 * was taken back: a `thread_rolled_back` event removes its last turns (from `task_started` /
 * `turn_context`, as the parse does), a `compacted` line starts the context again at its summary.
 * The rollout is parsed without its rollback events, so a rolled-back turn's calls keep their
 * messages (`SessionCalls.transcript` holds them).
 *
 * Gemini CLI: every `gemini` line is one call; its context is every message before it.
 */
import type { Message, Transcript } from '../../types.ts';
import type { JsonlLine, SourceDoc } from '../json.ts';
import type { CompactionEvent, SessionCall, SessionCalls, Span } from '../sessionCalls.ts';
import { isObject, type Json, str } from '../util.ts';

const OUTPUT_ITEMS = new Set([
  'reasoning',
  'function_call',
  'custom_tool_call',
  'local_shell_call',
  'web_search_call',
  'image_generation_call',
]);

/** True for a rollout line that is a model output item (part of a reply). */
export function isCodexOutput(v: unknown): boolean {
  if (!isObject(v) || v.type !== 'response_item' || !isObject(v.payload)) return false;
  const p = v.payload;
  const t = str(p.type);
  return (t !== undefined && OUTPUT_ITEMS.has(t)) || (t === 'message' && p.role === 'assistant');
}

function eventType(v: Json): string | undefined {
  return v.type === 'event_msg' && isObject(v.payload) ? str(v.payload.type) : undefined;
}

/** The rollout without its rollback events (what `codexCalls` parses). */
export function withoutRollbacks(doc: SourceDoc): SourceDoc {
  if (doc.kind !== 'jsonl') return doc;
  const lines = doc.lines.filter(
    (l) => !(isObject(l.value) && eventType(l.value) === 'thread_rolled_back'),
  );
  return lines.length === doc.lines.length ? doc : { ...doc, lines };
}

/** The context: closed spans, and the start of the open one (up to the current message). */
interface Context {
  spans: Span[];
  from: number;
}

const spansAt = (c: Context, at: number): Span[] =>
  at > c.from ? [...c.spans, [c.from, at]] : [...c.spans];

/** The context with every message from `cut` on removed (`now`: the messages read so far). */
function cutBack(c: Context, cut: number, now: number): Context {
  const spans: Span[] = [];
  for (const [a, b] of spansAt(c, now)) {
    if (a >= cut) break;
    spans.push([a, Math.min(b, cut)]);
  }
  return { spans, from: now };
}

/**
 * The calls of a Codex rollout.
 * @param doc the rollout's lines; @param all its transcript parsed from `withoutRollbacks(doc)`
 * @returns one call per run of output items, in file order. O(lines + messages).
 */
export function codexCalls(doc: SourceDoc, all: Transcript): SessionCalls {
  const calls: SessionCall[] = [];
  if (doc.kind !== 'jsonl') return { transcript: all, calls };
  let ctx: Context = { spans: [], from: 0 };
  let next = 0; // the next message of `all` to be read
  let kept = 0; // lines kept in `withoutRollbacks` so far (its positions are the messages' rawLine)
  let turnStarts: number[] = [];
  let pendingTurn = false;
  let inRun = false;
  let pending: CompactionEvent | null = null;
  for (const l of doc.lines as JsonlLine[]) {
    const v = l.value;
    const ev = isObject(v) ? eventType(v) : undefined;
    if (ev === 'thread_rolled_back') {
      const p = (v as Json).payload as Json;
      const n = typeof p.num_turns === 'number' ? p.num_turns : 1;
      const cut = turnStarts.length >= n ? (turnStarts[turnStarts.length - n] as number) : 0;
      turnStarts = turnStarts.slice(0, Math.max(0, turnStarts.length - n));
      pending = {
        kind: 'rollback',
        trigger: `${n} turn${n === 1 ? '' : 's'} rolled back`,
        tokensBefore: null,
        tokensAfter: null,
        removed: [cut, next],
        summary: null,
        line: l.line,
      };
      ctx = cutBack(ctx, cut, next);
      continue;
    }
    const pos = kept++;
    if (ev === 'task_started') {
      turnStarts.push(next);
      pendingTurn = true;
    } else if (isObject(v) && v.type === 'turn_context') {
      if (!pendingTurn) turnStarts.push(next);
      pendingTurn = false;
    }
    const compacted = isObject(v) && v.type === 'compacted';
    while (next < all.messages.length && (all.messages[next] as Message).rawLine === pos) {
      if (compacted) {
        pending = {
          kind: 'compaction',
          trigger: 'unknown',
          tokensBefore: null,
          tokensAfter: null,
          removed: [ctx.spans[0]?.[0] ?? ctx.from, next],
          summary: next,
          line: l.line,
        };
        ctx = { spans: [], from: next };
      }
      const out = isCodexOutput(v);
      if (out && !inRun) {
        calls.push({ spans: spansAt(ctx, next), reply: next, thread: 'main', compaction: pending });
        pending = null;
      }
      inRun = out;
      next++;
    }
  }
  return { transcript: all, calls };
}

/**
 * The calls of a Gemini CLI session: one per `gemini` line, its context every message before.
 * @param t the session's transcript. O(messages).
 */
export function geminiCliCalls(t: Transcript): SessionCalls {
  const usage = new Map<number, number>();
  for (const u of t.usage)
    if (u.messageIndex !== undefined && u.inputTokens !== undefined)
      usage.set(u.messageIndex, u.inputTokens + (u.cacheReadTokens ?? 0));
  const calls: SessionCall[] = [];
  t.messages.forEach((m, i) => {
    if (m.role !== 'assistant' || m.raw === undefined) return;
    const call: SessionCall = {
      spans: i > 0 ? [[0, i]] : [],
      reply: i,
      thread: 'main',
      compaction: null,
    };
    const used = usage.get(i);
    if (used !== undefined) call.usageTokens = used;
    calls.push(call);
  });
  return { transcript: t, calls };
}
