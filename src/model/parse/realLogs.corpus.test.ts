/**
 * Corpus suite: the real Claude Code and Codex logs parse without error, are detected without a
 * hint, give message counts that match what the files hold, and rebuild every message's blocks
 * from its raw as the parse gave them. Test input only: nothing from
 * these files is copied into the repository. Our own logs of the same shapes are in
 * claudeCodeJsonl.test.ts and codexJsonl.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { readReal, realFiles } from '../../testing/corpus.ts';
import { analyze } from '../analyze.ts';
import { parseTranscript } from './index.ts';
import { parserFor } from './registry.ts';

const lines = (text: string) =>
  text
    .split('\n')
    .filter((l) => l.trim().length > 0)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe('real Claude Code logs', () => {
  const files = realFiles('claude-code-jsonl').filter((f) => f.endsWith('.jsonl'));
  it('there are logs', () => expect(files.length).toBeGreaterThan(0));
  for (const f of files) {
    it(f, () => {
      const text = readReal(f);
      const r = parseTranscript(text);
      expect(r.ok).toBe(true);
      if (!r.ok) return;
      const t = r.value.transcript;
      expect(t.format).toBe('claude-code-jsonl');
      const src = lines(text);
      const userLines = src.filter((l) => l.type === 'user').length;
      const replies = new Set(
        src.filter((l) => l.type === 'assistant').map((l) => (l.message as { id?: string }).id),
      ).size;
      // Every user line is a message; the assistant lines collapse to one message per reply.
      expect(t.messages.filter((m) => m.role === 'user')).toHaveLength(userLines);
      expect(t.messages.filter((m) => m.role === 'assistant')).toHaveLength(replies);
      expect(t.usage.length).toBeLessThanOrEqual(replies);
      const a = analyze(t);
      const calls = new Set(a.pairs.filter((p) => p.call).map((p) => p.id));
      const distinctIds = new Set(
        src.flatMap((l) =>
          l.type === 'assistant'
            ? ((l.message as { content?: { type?: string; id?: string }[] }).content ?? [])
                .filter((b) => b.type === 'tool_use')
                .map((b) => b.id)
            : [],
        ),
      );
      expect(calls).toEqual(distinctIds);
      expect(a.pairs.filter((p) => p.status === 'orphan')).toEqual([]);
      // What the page rebuilds from each message's source lines is what the parse gave (issue 20).
      const rebuild = parserFor('claude-code-jsonl')?.blocksOf;
      expect(t.messages.map((m) => rebuild?.(m.raw))).toEqual(t.messages.map((m) => m.blocks));
    });
  }
});

describe('real Codex rollouts', () => {
  it('raze.jsonl: 38 calls all answered; token_count repeats collapsed', () => {
    const r = parseTranscript(readReal('codex-rollout/raze.jsonl'));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const t = r.value.transcript;
    expect(t.format).toBe('codex-jsonl');
    const src = lines(readReal('codex-rollout/raze.jsonl'));
    expect(t.messages).toHaveLength(src.filter((l) => l.type === 'response_item').length);
    const a = analyze(t);
    expect(a.pairs.filter((p) => p.status === 'answered')).toHaveLength(38);
    const events = src.filter(
      (l) =>
        l.type === 'event_msg' &&
        (l.payload as { type?: string; info?: unknown }).type === 'token_count' &&
        (l.payload as { info?: unknown }).info,
    ).length;
    expect(t.usage.length).toBeGreaterThan(0);
    expect(t.usage.length).toBeLessThan(events);
  });

  it('solsmile-aborted-turn.jsonl: the rolled-back turn leaves the context; the last call is unanswered', () => {
    const r = parseTranscript(readReal('codex-rollout/solsmile-aborted-turn.jsonl'));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const t = r.value.transcript;
    expect(t.warnings.some((w) => w.includes('rolled back by 1 turn(s)'))).toBe(true);
    // The file's last function_call never gets an output.
    const src = lines(readReal('codex-rollout/solsmile-aborted-turn.jsonl'));
    const lastCall = src
      .filter(
        (l) =>
          l.type === 'response_item' && (l.payload as { type?: string }).type === 'function_call',
      )
      .at(-1)?.payload as { call_id: string };
    const a = analyze(t);
    expect(a.pairs.filter((p) => p.status === 'unanswered').map((p) => p.id)).toEqual([
      lastCall.call_id,
    ]);
    expect(a.validation.violations.find((v) => v.severity === 'error')?.message).toBe(
      `No tool output found for function call ${lastCall.call_id}.`,
    );
  });
});
