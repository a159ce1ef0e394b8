/**
 * Corpus suite (issue 33, "done when"): on every real session log in the corpus with more than one
 * model call, `check --requests` lists the calls and compactions the log records, counted here
 * from the log lines themselves. Every real file is read; any whose format reads model calls
 * (`FormatParser.sessionCalls`) must have a count of its own below, so a new kind of session log
 * in the corpus fails here until it is counted. The listing is the CLI's own (`check FILE
 * --requests --json`, run in-process), checked call for call and compaction for compaction (its
 * kind, trigger, tokens and the log line that records it). Test input only: nothing is copied
 * from the files.
 */
import { describe, expect, it } from 'vitest';
import { cli } from '../../cli/testing/index.ts';
import { readReal, realFiles } from '../../testing/corpus.ts';
import { parserFor } from '../parse/registry.ts';
import type { FormatId } from '../types.ts';
import { listFileRequests, type RequestListing } from './requests.ts';

type Line = Record<string, unknown>;
const obj = (v: unknown): Line => (v !== null && typeof v === 'object' ? (v as Line) : {});
/** A JSON Lines file's records, each with its 1-based line number. */
const records = (text: string): { line: number; v: Line }[] =>
  text.split('\n').flatMap((l, i) => (l.trim() ? [{ line: i + 1, v: JSON.parse(l) as Line }] : []));

/** A compaction or rollback as the log records it. */
interface Event {
  kind: 'compaction' | 'rollback';
  line: number;
  trigger?: unknown;
  tokensBefore?: unknown;
  tokensAfter?: unknown;
}
/** What a log's own lines say: its model calls, compactions and failed calls. */
interface Want {
  calls: number;
  events: Event[];
  apiErrors?: number;
}

/**
 * Claude Code's branches left, on the main thread: a prompt (a user line with no tool result) or
 * the first line of a new reply whose parent — followed through lines that are no message — is
 * a message line earlier than the message before it, after the last compaction.
 */
function branchesLeft(lines: { line: number; v: Line }[]): Event[] {
  const parent = new Map<string, string>();
  for (const { v } of lines)
    if (typeof v.uuid === 'string' && typeof v.parentUuid === 'string')
      parent.set(v.uuid, v.parentUuid);
  // Reading order: a line written before its parent is read right after the parent.
  const src: { line: number; v: Line }[] = [];
  const seen = new Set<string>();
  const waiting = new Map<string, { line: number; v: Line }[]>();
  const read = (r: { line: number; v: Line }) => {
    src.push(r);
    if (typeof r.v.uuid !== 'string') return;
    seen.add(r.v.uuid);
    const kids = waiting.get(r.v.uuid) ?? [];
    waiting.delete(r.v.uuid);
    kids.forEach(read);
  };
  for (const r of lines) {
    const p = r.v.parentUuid;
    if (typeof p === 'string' && !seen.has(p) && lines.some((x) => x.v.uuid === p)) {
      waiting.set(p, [...(waiting.get(p) ?? []), r]);
      continue;
    }
    read(r);
  }
  // Message lines in file order, numbered by message (a reply's lines share its number).
  const messageOf = new Map<string, number>();
  const out: Event[] = [];
  let n = -1;
  let replyId: unknown;
  let start = 0;
  for (const { line, v } of src) {
    if (v.type === 'system' && v.subtype === 'compact_boundary') start = n + 1;
    if ((v.type !== 'user' && v.type !== 'assistant') || v.isSidechain === true) continue;
    const m = obj(v.message);
    if (typeof v.uuid !== 'string') continue;
    if (v.type === 'assistant' && m.id !== undefined && m.id === replyId) {
      messageOf.set(v.uuid, n);
      continue;
    }
    replyId = v.type === 'assistant' ? m.id : undefined;
    n++;
    messageOf.set(v.uuid, n);
    const results =
      Array.isArray(m.content) && m.content.some((b) => obj(b).type === 'tool_result');
    if (v.type === 'user' && results) continue;
    let p = typeof v.parentUuid === 'string' ? v.parentUuid : undefined;
    while (p !== undefined && !messageOf.has(p)) p = parent.get(p);
    const at = p === undefined ? undefined : messageOf.get(p);
    if (at !== undefined && at >= start && at < n - 1 && n > start + 1)
      out.push({ kind: 'rollback', line });
  }
  return out;
}

/**
 * Claude Code: distinct reply ids (its own `<synthetic>` lines only when an API error); each
 * `compact_boundary`, and each branch left (`branchesLeft`), in file order.
 */
function claudeCode(text: string): Want {
  const src = records(text);
  const ids = new Set<string>();
  const errors = new Set<string>();
  for (const { v } of src) {
    if (v.type !== 'assistant') continue;
    const m = obj(v.message);
    if (v.isApiErrorMessage === true) errors.add(String(m.id));
    if (m.model === '<synthetic>' && v.isApiErrorMessage !== true) continue;
    ids.add(String(m.id));
  }
  const events = src
    .filter(({ v }) => v.type === 'system' && v.subtype === 'compact_boundary')
    .map(({ line, v }): Event => {
      const cm = obj(v.compactMetadata);
      return {
        kind: 'compaction',
        line,
        trigger: cm.trigger ?? 'unknown',
        tokensBefore: cm.preTokens ?? null,
        tokensAfter: cm.postTokens ?? null,
      };
    });
  const all = [...events, ...branchesLeft(src)].sort((a, b) => a.line - b.line);
  return { calls: ids.size, events: all, apiErrors: errors.size };
}

/** Codex: runs of model output items between inputs; each `compacted` line and rollback event. */
function codex(text: string): Want {
  const src = records(text);
  let calls = 0;
  let inRun = false;
  const events: Event[] = [];
  for (const { line, v } of src) {
    const p = obj(v.payload);
    if (v.type === 'compacted') events.push({ kind: 'compaction', line });
    if (v.type === 'event_msg' && p.type === 'thread_rolled_back')
      events.push({ kind: 'rollback', line });
    if (v.type !== 'response_item') continue;
    const out =
      ['reasoning', 'function_call', 'custom_tool_call', 'local_shell_call'].includes(
        String(p.type),
      ) ||
      (p.type === 'message' && p.role === 'assistant');
    if (out && !inRun) calls++;
    inRun = out;
  }
  return { calls, events };
}

/** Gemini CLI: each `gemini` message is one reply. */
function geminiCli(text: string): Want {
  const s = JSON.parse(text) as { messages: Line[] };
  return { calls: s.messages.filter((m) => m.type === 'gemini').length, events: [] };
}

/** Inspect: each `model` event of the (one) sample. */
function inspect(text: string): Want {
  const log = JSON.parse(text) as { samples: { events?: Line[] }[] };
  if (log.samples.length !== 1) return { calls: 0, events: [] };
  const events = log.samples[0]?.events ?? [];
  return { calls: events.filter((e) => e.event === 'model').length, events: [] };
}

/** SWE-agent: each step of `trajectory` is one model call (each non-demo reply in `history`). */
function sweAgent(text: string): Want {
  const traj = JSON.parse(text) as { trajectory: unknown[]; history: Line[] };
  const replies = traj.history.filter((m) => m.role === 'assistant' && m.is_demo !== true).length;
  // The two records of the same calls agree (else the count below would be a guess).
  expect(replies).toBe(traj.trajectory.length);
  return { calls: traj.trajectory.length, events: [] };
}

/** The count of each format that reads model calls (a Map: looked up by a detected format). */
const COUNTS = new Map<FormatId, (text: string) => Want>([
  ['claude-code-jsonl', claudeCode],
  ['codex-jsonl', codex],
  ['gemini-cli', geminiCli],
  ['inspect-log', inspect],
  ['swe-agent', sweAgent],
]);

function listing(f: string, text: string): RequestListing {
  const r = listFileRequests(text, { name: f });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

interface Row {
  request: number;
  messages: number;
  compaction: (Event & { removed: [number, number]; summary: number | null }) | null;
}

describe('check --requests on every real session log', () => {
  const files = realFiles().filter((f) => !f.endsWith('.md'));
  it('the corpus has session logs of more than one call', () => {
    const many = files.filter((f) => {
      const text = readReal(f);
      const format = listFileRequests(text, { name: f });
      const count = format.ok ? COUNTS.get(format.value.format) : undefined;
      return count !== undefined && count(text).calls > 1;
    });
    expect(many.length).toBeGreaterThanOrEqual(5);
  });
  for (const f of files) {
    it(f, async () => {
      const text = readReal(f);
      const l = listing(f, text);
      const count = COUNTS.get(l.format);
      if (count === undefined) {
        if (parserFor(l.format)?.sessionCalls !== undefined)
          throw new Error(
            `${f}: ${l.format} reads model calls, but this test has no count of them`,
          );
        return;
      }
      const want = count(text);
      if (want.calls <= 1) return;
      const run = await cli(['check', f, '--requests', '--json'], { [f]: text });
      expect(run.code === 0 || run.code === 1, run.err).toBe(true);
      const rows = JSON.parse(run.out) as Row[];
      expect(rows.map((r) => r.request)).toEqual(rows.map((_, i) => i + 1));
      expect(rows).toHaveLength(want.calls);
      const events = rows.flatMap((r) => (r.compaction ? [r.compaction] : []));
      expect(events.map((e) => ({ kind: e.kind, line: e.line }))).toEqual(
        want.events.map((e) => ({ kind: e.kind, line: e.line })),
      );
      events.forEach((e, k) => {
        const w = want.events[k] as Event;
        if (w.trigger !== undefined)
          expect(e).toMatchObject({
            trigger: w.trigger,
            tokensBefore: w.tokensBefore,
            tokensAfter: w.tokensAfter,
          });
      });
      // The CLI's listing is the model's.
      expect(rows.map((r) => r.messages)).toEqual(l.requests.map((r) => r.messages));
      expect(l.kind).toBe('session');
      // A compaction's context starts at the summary that follows the boundary.
      for (const e of events)
        if (e.kind === 'compaction' && e.summary !== null)
          expect(l.session?.transcript.messages[e.summary]?.meta?.compactSummary).toBe(true);
      // A call after a rollback does not see the turn taken back.
      for (const r of l.requests) {
        if (r.compaction?.kind !== 'rollback') continue;
        const [from, to] = r.compaction.removed;
        for (const [a, b] of l.session?.calls[r.request - 1]?.spans ?? [])
          expect(b <= from || a >= to).toBe(true);
      }
      // The API errors the log records are calls that failed; the next call of the thread retries.
      if (want.apiErrors !== undefined)
        expect(l.requests.filter((r) => r.apiError !== undefined)).toHaveLength(want.apiErrors);
      for (const r of l.requests)
        if (r.retryOf !== undefined) expect(l.requests[r.retryOf - 1]?.apiError).toBeDefined();
    });
  }
});
