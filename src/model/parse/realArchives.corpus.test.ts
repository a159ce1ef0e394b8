/**
 * Corpus suite: the real Inspect AI log and SWE-agent trajectory parse, are detected without a
 * hint, and give the counts the corpus's SOURCES.md (§6) states. Test input only: nothing from
 * these files is copied into the repository. Our own archives of the same shapes are in
 * inspectLog.test.ts and sweAgent.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { readReal } from '../../testing/corpus.ts';
import { analyze } from '../analyze.ts';
import type { Transcript } from '../types.ts';
import { validateTranscript } from '../validate/index.ts';
import { parseTranscript } from './index.ts';

const inspectFile = 'inspect-log/browser-gpt-4o-mini.json';
const sweFile = 'swe-agent/marshmallow-1867-function-calling.traj';

function roles(t: Transcript): Record<string, number> {
  const out: Record<string, number> = {};
  for (const m of t.messages) out[m.role] = (out[m.role] ?? 0) + 1;
  return out;
}

function blocksOf(t: Transcript, type: 'tool_use' | 'tool_result') {
  return t.messages.flatMap((m) => m.blocks.filter((b) => b.type === type));
}

describe('real archives', () => {
  it('Inspect log: 1 sample, 10 messages (1 user / 5 assistant / 4 tool), 4 calls all answered', () => {
    const r = parseTranscript(readReal(inspectFile));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.ambiguous).toBe(false);
    expect(r.value.requests).toBeUndefined();
    const t = r.value.transcript;
    expect(t.format).toBe('inspect-log');
    expect(t.messages).toHaveLength(10);
    expect(roles(t)).toEqual({ user: 1, assistant: 5, tool: 4 });
    const calls = blocksOf(t, 'tool_use');
    expect(calls.map((b) => (b.type === 'tool_use' ? b.name : ''))).toEqual([
      'web_browser_go',
      'web_browser_click',
      'web_browser_click',
      'web_browser_click',
    ]);
    expect(blocksOf(t, 'tool_result')).toHaveLength(4);
    expect(analyze(t).pairs.map((p) => p.status)).toEqual(Array(4).fill('answered'));
    // "No tool errors" (SOURCES.md §6); nothing fell through to `other`.
    expect(blocksOf(t, 'tool_result').some((b) => b.type === 'tool_result' && b.isError)).toBe(
      false,
    );
    expect(t.messages.flatMap((m) => m.blocks.filter((b) => b.type === 'other'))).toEqual([]);
    expect(t.settings.model).toMatch(/^gpt-4o-mini/);
    expect(t.tools?.map((d) => d.name)).toContain('web_browser_click');
    expect(t.usage.length).toBeGreaterThan(0);
    expect(validateTranscript(t).valid).toBe(true);
  });

  it('SWE-agent trajectory: history 28 (1 system / 1 user / 13 assistant / 13 tool), 13 calls and 13 results', () => {
    const r = parseTranscript(readReal(sweFile));
    expect(r.ok).toBe(true);
    if (!r.ok) return;
    expect(r.value.ambiguous).toBe(false);
    const t = r.value.transcript;
    expect(t.format).toBe('swe-agent');
    expect(t.messages).toHaveLength(28);
    expect(roles(t)).toEqual({ system: 1, user: 1, assistant: 13, tool: 13 });
    const calls = blocksOf(t, 'tool_use');
    const results = blocksOf(t, 'tool_result');
    expect(calls).toHaveLength(13);
    expect(results).toHaveLength(13);
    const names = calls.map((b) => (b.type === 'tool_use' ? b.name : ''));
    expect(names.filter((n) => n === 'bash')).toHaveLength(6);
    expect(new Set(names)).toEqual(
      new Set(['bash', 'open', 'create', 'insert', 'find_file', 'edit', 'submit']),
    );
    // Every result names a call id from `tool_call_ids`; none is an orphan. The replay reuses
    // some call ids, which the pairing reports as duplicates rather than hiding.
    expect(results.every((b) => b.type === 'tool_result' && b.toolUseId !== null)).toBe(true);
    const pairs = analyze(t).pairs;
    expect(pairs.filter((p) => p.status === 'orphan' || p.status === 'unanswered')).toEqual([]);
    // 13 calls over 9 distinct ids: each distinct id is answered once, each reuse is a duplicate
    // call with a duplicate result.
    const distinct = new Set(calls.map((b) => (b.type === 'tool_use' ? b.id : null))).size;
    expect(distinct).toBe(9);
    const count = (s: string) => pairs.filter((p) => p.status === s).length;
    expect([count('answered'), count('duplicate_id'), count('duplicate_result')]).toEqual([
      distinct,
      13 - distinct,
      13 - distinct,
    ]);
    expect(t.messages.flatMap((m) => m.blocks.filter((b) => b.type === 'other'))).toEqual([]);
  });
});
