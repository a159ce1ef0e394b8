import { describe, expect, it } from 'vitest';
import { diff, UnreadableTranscriptError } from './index.ts';

const call = { type: 'tool_use', id: 'toolu_1', name: 'read', input: {} };
const answer = { type: 'tool_result', tool_use_id: 'toolu_1', content: 'ok' };
const worked = {
  model: 'claude-sonnet-4-5',
  max_tokens: 100,
  // A complete request defines its tools (without them A7 would be its first error).
  tools: [{ name: 'read', input_schema: { type: 'object' } }],
  messages: [
    { role: 'user', content: 'Read it.' },
    { role: 'assistant', content: [call] },
    { role: 'user', content: [answer] },
    { role: 'assistant', content: 'Done.' },
  ],
};

describe('diff (package)', () => {
  it('gives the CLI JSON shape: the cut that orphans a result is broken with A1', () => {
    const failed = { ...worked, messages: worked.messages.slice(2) };
    const d = diff(worked, JSON.stringify(failed), { rightLabel: 'Request 2' });
    expect(d.rows.map((r) => [r.change, r.left, r.right])).toEqual([
      ['dropped', 0, null],
      ['dropped', 1, null],
      ['kept', 2, 0],
      ['kept', 3, 1],
    ]);
    expect(d.broken).toEqual([
      { id: 'toolu_1', rule: 'orphan_tool_result', code: 'A1', messageIndex: 0, severity: 'error' },
    ]);
    expect(d.left.valid).toBe(true);
    expect(d.right).toMatchObject({ valid: false, firstRule: { code: 'A1' } });
    expect(d.summary).toMatch(
      /^Request 2 dropped messages 0–1 .*orphaned → Anthropic Messages 400 \(A1\)\.$/,
    );
    expect(d.cachePrefix).toEqual({ messages: 0, tokens: 0 });
  });

  it('throws UnreadableTranscriptError for a body no format reads', () => {
    expect(() => diff(worked, { nothing: true })).toThrow(UnreadableTranscriptError);
  });
});
