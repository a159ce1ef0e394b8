import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { generate } from '../../../../scripts/gen.ts';
import type { Transcript } from '../../types.ts';
import { claudeCodeSlimmer, slimClaudeCodeLine } from './claudeCodeSlim.ts';
import { parseDocument } from '../index.ts';
import type { JsonlLine, SourceDoc } from '../json.ts';

const FORMAT = 'claude-code-jsonl' as const;

function docOf(values: unknown[]): SourceDoc & { kind: 'jsonl' } {
  return {
    kind: 'jsonl',
    lines: values.map((value, i) => ({ line: i + 1, value })),
    brokenLines: [],
  };
}

function slimmed(doc: { lines: JsonlLine[] }): SourceDoc {
  return {
    kind: 'jsonl',
    lines: doc.lines.map((l) => ({ line: l.line, value: slimClaudeCodeLine(l.value) })),
    brokenLines: [],
  };
}

/** A transcript without what slimming changes (each message's raw, the transcript's raw). */
function rawless(t: Transcript) {
  return { ...t, raw: undefined, messages: t.messages.map((m) => ({ ...m, raw: undefined })) };
}

function expectSameParse(doc: SourceDoc & { kind: 'jsonl' }): void {
  const whole = parseDocument(doc, { format: FORMAT });
  const slim = parseDocument(slimmed(doc), { format: FORMAT });
  expect(slim.ok).toBe(whole.ok);
  if (!whole.ok || !slim.ok) return;
  expect(rawless(slim.value.transcript)).toEqual(rawless(whole.value.transcript));
}

describe('a Claude Code line slimmed to what the parse reads (issue 20)', () => {
  it('drops the UI’s copies and the session fields, keeping the same values (not copies)', () => {
    const content = [{ type: 'tool_result', tool_use_id: 't1', content: 'ok' }];
    const line = {
      type: 'user',
      uuid: 'u2',
      parentUuid: 'u1',
      sessionId: 's',
      cwd: '/srv',
      timestamp: '2026-12-03T07:00:00Z',
      toolUseResult: { stdout: 'ok' },
      message: { role: 'user', content },
    };
    const slim = slimClaudeCodeLine(line) as typeof line;
    expect(slim).toEqual({
      type: 'user',
      uuid: 'u2',
      parentUuid: 'u1',
      timestamp: '2026-12-03T07:00:00Z',
      message: { content },
    });
    expect(slim.message.content).toBe(content);
    expect(line.toolUseResult).toBeDefined(); // the line itself is left as it was
    for (const v of [null, 3, 'x', [1, 2]]) expect(slimClaudeCodeLine(v)).toBe(v);
  });

  it('parses as the whole lines do: generated logs (merged replies, sidechains, usage)', () => {
    for (const seed of [1, 2, 3, 4, 5, 6]) {
      const text = generate({ format: FORMAT, messages: 300, seed });
      expectSameParse(
        docOf(
          text
            .split('\n')
            .filter(Boolean)
            .map((l) => JSON.parse(l)),
        ),
      );
    }
  });

  it('parses as the whole lines do: arbitrary lines (order, compaction, summaries, API errors)', () => {
    const id = fc.constantFrom('u1', 'u2', 'u3', 'u4');
    const line = fc.oneof(
      fc.record(
        {
          type: fc.constantFrom('user', 'assistant', 'summary', 'system', 'progress'),
          uuid: id,
          parentUuid: fc.option(id),
          sessionId: fc.constant('s'),
          isSidechain: fc.boolean(),
          isApiErrorMessage: fc.boolean(),
          isCompactSummary: fc.boolean(),
          timestamp: fc.string(),
          summary: fc.string(),
          subtype: fc.constantFrom('compact_boundary', 'informational'),
          compactMetadata: fc.record({ trigger: fc.string(), preTokens: fc.nat() }),
          toolUseResult: fc.jsonValue(),
          message: fc.record(
            {
              id: fc.constantFrom('m1', 'm2'),
              role: fc.constantFrom('user', 'assistant'),
              model: fc.constantFrom('claude-x', '<synthetic>'),
              usage: fc.record({ input_tokens: fc.nat(), output_tokens: fc.nat() }),
              content: fc.oneof(
                fc.string(),
                fc.array(fc.jsonValue(), { maxLength: 3 }),
                fc.jsonValue(),
              ),
            },
            { requiredKeys: [] },
          ),
        },
        { requiredKeys: ['type'] },
      ),
      fc.jsonValue(),
    );
    fc.assert(
      fc.property(fc.array(line, { maxLength: 10 }), (values) => expectSameParse(docOf(values))),
      { numRuns: 300 },
    );
  });

  it('a slimmer for one read gives the same values, keeping one copy of a string the line before has', () => {
    const text = generate({ format: FORMAT, messages: 4000, seed: 3 });
    const values = text
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as unknown);
    const slim = claudeCodeSlimmer();
    expect(values.map((v) => slim(v))).toEqual(values.map(slimClaudeCodeLine));
    // A chain of lines with long ids, each parsed from its text (every string a copy), held
    // slimmed one way or the other: the slimmer keeps one copy of each parent's uuid.
    const pad = 'x'.repeat(300);
    const rows = Array.from({ length: 5000 }, (_, k) =>
      JSON.stringify({
        type: 'user',
        uuid: `u${k}${pad}`,
        parentUuid: k > 0 ? `u${k - 1}${pad}` : null,
        message: { role: 'user', content: 'hi' },
      }),
    );
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const held = (f: (v: unknown) => unknown): number => {
      gc();
      const before = getHeapStatistics().used_heap_size;
      const kept = rows.map((l) => f(JSON.parse(l)));
      gc();
      const bytes = getHeapStatistics().used_heap_size - before;
      expect(kept.length).toBe(rows.length);
      return bytes / rows.length;
    };
    const each = held(slimClaudeCodeLine);
    const shared = held(claudeCodeSlimmer());
    // A 300-character parentUuid held once less per line: 170–190 bytes a line measured here,
    // none (or less, −165: the later count runs higher) for a slimmer that keeps each copy.
    expect(each - shared).toBeGreaterThan(50);
  });
});
