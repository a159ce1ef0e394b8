/**
 * Corpus suite (issue 33): on every real session log with more than one model call, the
 * requests listing (`check --requests`) gives the calls and compactions the log records,
 * counted here from the log lines themselves. Test input only: nothing is copied from the files.
 */
import { describe, expect, it } from 'vitest';
import { readReal, realFiles } from '../../testing/corpus.ts';
import { listFileRequests, type RequestListing } from './requests.ts';

type Line = Record<string, unknown>;
const lines = (text: string): Line[] =>
  text
    .split('\n')
    .filter((l) => l.trim().length > 0)
    .map((l) => JSON.parse(l) as Line);
const obj = (v: unknown): Line => (v !== null && typeof v === 'object' ? (v as Line) : {});

function listing(f: string): RequestListing {
  const r = listFileRequests(readReal(f), { name: f });
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
}

/** Claude Code: distinct reply ids (Claude Code's own `<synthetic>` lines only when an API error). */
function claudeCodeCounts(src: Line[]) {
  const ids = new Set<string>();
  for (const l of src) {
    if (l.type !== 'assistant') continue;
    const m = obj(l.message);
    if (m.model === '<synthetic>' && l.isApiErrorMessage !== true) continue;
    ids.add(String(m.id));
  }
  const boundaries = src.filter((l) => l.type === 'system' && l.subtype === 'compact_boundary');
  return { calls: ids.size, boundaries };
}

/** Codex: runs of model output items (reasoning, assistant messages, tool calls) between inputs. */
function codexCounts(src: Line[]) {
  let calls = 0;
  let inRun = false;
  for (const l of src) {
    if (l.type !== 'response_item') continue;
    const p = obj(l.payload);
    const out =
      ['reasoning', 'function_call', 'custom_tool_call', 'local_shell_call'].includes(
        String(p.type),
      ) ||
      (p.type === 'message' && p.role === 'assistant');
    if (out && !inRun) calls++;
    inRun = out;
  }
  const event = (t: string) =>
    src.filter((l) => l.type === 'event_msg' && obj(l.payload).type === t);
  return {
    calls,
    rollbacks: event('thread_rolled_back').length,
    compacted: src.filter((l) => l.type === 'compacted').length,
  };
}

describe('requests of real Claude Code logs', () => {
  const files = realFiles('claude-code-jsonl').filter((f) => f.endsWith('.jsonl'));
  it('there are logs with more than one call', () => expect(files.length).toBeGreaterThan(0));
  for (const f of files) {
    it(f, () => {
      const src = lines(readReal(f));
      const want = claudeCodeCounts(src);
      if (want.calls <= 1) return;
      const l = listing(f);
      expect(l.kind).toBe('session');
      expect(l.requests).toHaveLength(want.calls);
      const events = l.requests.flatMap((r) => (r.compaction ? [r.compaction] : []));
      expect(events).toHaveLength(want.boundaries.length);
      events.forEach((e, k) => {
        const cm = obj(want.boundaries[k]?.compactMetadata);
        expect(e).toMatchObject({
          kind: 'compaction',
          trigger: cm.trigger ?? 'unknown',
          tokensBefore: cm.preTokens ?? null,
          tokensAfter: cm.postTokens ?? null,
        });
        // The context after it starts at the summary that follows the boundary.
        if (e.summary !== null)
          expect(l.session?.transcript.messages[e.summary]?.meta?.compactSummary).toBe(true);
      });
      // The API errors the log records are calls that failed.
      const errors = src.filter((x) => x.type === 'assistant' && x.isApiErrorMessage === true);
      expect(l.requests.filter((r) => r.apiError !== undefined)).toHaveLength(
        new Set(errors.map((x) => obj(x.message).id)).size,
      );
      // The call after a failed one in its thread is marked as its retry.
      for (const r of l.requests)
        if (r.retryOf !== undefined) expect(l.requests[r.retryOf - 1]?.apiError).toBeDefined();
    });
  }
});

describe('requests of real Codex rollouts', () => {
  const files = realFiles('codex-rollout').filter((f) => f.endsWith('.jsonl'));
  it('there are rollouts', () => expect(files.length).toBeGreaterThan(0));
  for (const f of files) {
    it(f, () => {
      const want = codexCounts(lines(readReal(f)));
      if (want.calls <= 1) return;
      const l = listing(f);
      expect(l.kind).toBe('session');
      expect(l.requests).toHaveLength(want.calls);
      const kinds = l.requests.flatMap((r) => (r.compaction ? [r.compaction.kind] : []));
      expect(kinds.filter((k) => k === 'rollback')).toHaveLength(want.rollbacks);
      expect(kinds.filter((k) => k === 'compaction')).toHaveLength(want.compacted);
      // A call after a rollback does not see the turn taken back.
      for (const r of l.requests) {
        if (r.compaction?.kind !== 'rollback') continue;
        const [from, to] = r.compaction.removed;
        const call = l.session?.calls[r.request - 1];
        for (const [a, b] of call?.spans ?? []) expect(b <= from || a >= to).toBe(true);
      }
    });
  }
});

describe('requests of real Gemini CLI sessions', () => {
  const files = realFiles('gemini-cli').filter((f) => f.endsWith('.json'));
  it('there are sessions', () => expect(files.length).toBeGreaterThan(0));
  for (const f of files) {
    it(f, () => {
      const session = JSON.parse(readReal(f)) as { messages: Line[] };
      const turns = session.messages.filter((m) => m.type === 'gemini').length;
      if (turns <= 1) return;
      const l = listing(f);
      expect(l.kind).toBe('session');
      expect(l.requests).toHaveLength(turns);
    });
  }
});
