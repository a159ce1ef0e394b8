/**
 * The real Claude Code and Codex logs in ../shared/real parse without error, are detected without
 * a hint, and give message counts that match what the files hold. Test input only: nothing from
 * these files is copied into the repository.
 */
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { analyze } from '../analyze.ts';
import { parseTranscript } from './index.ts';

const repoRoot = path.resolve(import.meta.dirname, '../../..');
const realDir = path.join(path.resolve(repoRoot, '../shared'), 'real');
const present =
  existsSync(path.join(realDir, 'claude-code-jsonl')) &&
  existsSync(path.join(realDir, 'codex-rollout'));
if (!present) console.warn(`real logs not found at ${realDir}: skipping the real-log tests`);

const lines = (text: string) =>
  text
    .split('\n')
    .filter((l) => l.trim().length > 0)
    .map((l) => JSON.parse(l) as Record<string, unknown>);

describe.skipIf(!present)('real Claude Code logs (skipped when ../shared/real is absent)', () => {
  const dir = path.join(realDir, 'claude-code-jsonl');
  const files = present ? readdirSync(dir).filter((f) => f.endsWith('.jsonl')) : [];
  for (const f of files) {
    it(f, () => {
      const text = readFileSync(path.join(dir, f), 'utf8');
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
    });
  }
});

describe.skipIf(!present)('real Codex rollouts (skipped when ../shared/real is absent)', () => {
  const dir = path.join(realDir, 'codex-rollout');
  it('raze.jsonl: 38 calls all answered; token_count repeats collapsed', () => {
    const r = parseTranscript(readFileSync(path.join(dir, 'raze.jsonl'), 'utf8'));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const t = r.value.transcript;
    expect(t.format).toBe('codex-jsonl');
    const src = lines(readFileSync(path.join(dir, 'raze.jsonl'), 'utf8'));
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
    const r = parseTranscript(readFileSync(path.join(dir, 'solsmile-aborted-turn.jsonl'), 'utf8'));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    const t = r.value.transcript;
    expect(t.warnings.some((w) => w.includes('rolled back by 1 turn(s)'))).toBe(true);
    // The file's last function_call never gets an output.
    const src = lines(readFileSync(path.join(dir, 'solsmile-aborted-turn.jsonl'), 'utf8'));
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
