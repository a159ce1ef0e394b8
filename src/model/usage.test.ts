import { describe, expect, it } from 'vitest';
import { assistant, transcript, user } from './testing/index.ts';
import { CHARS_PER_4, countTokens } from './tokens.ts';
import { reportedInput, usageGap, usageGaps } from './usage.ts';

describe('usageGap', () => {
  it('is null without usage', () => {
    const t = transcript('claude-code-jsonl', [user('hi'), assistant('hello')]);
    expect(usageGap(t, countTokens(t, 'anthropic', CHARS_PER_4))).toBeNull();
  });

  it('Anthropic buckets are added; the messages before the reply are subtracted', () => {
    const t = transcript('claude-code-jsonl', [user('x'.repeat(400)), assistant('ok')], {
      usage: [
        {
          messageIndex: 1,
          inputTokens: 10,
          cacheReadTokens: 900,
          cacheWriteTokens: 90,
          outputTokens: 5,
        },
      ],
    });
    const table = countTokens(t, 'anthropic', CHARS_PER_4);
    // 400 chars / 4 = 100 tokens + 3 framing.
    expect(usageGap(t, table)).toBe(1000 - 103);
  });

  it('OpenAI-style input already includes the cache; the context restarts at a compaction summary', () => {
    const summary = { ...user('y'.repeat(40)), meta: { compactSummary: true } };
    const t = transcript(
      'codex-jsonl',
      [user('x'.repeat(400)), assistant('ok'), summary, assistant('ok')],
      { usage: [{ messageIndex: 3, inputTokens: 500, cacheReadTokens: 400 }] },
    );
    const table = countTokens(t, 'openai-responses', CHARS_PER_4);
    expect(usageGaps(t, table)).toEqual([
      { messageIndex: 3, reportedInput: 500, counted: 13, gap: 487 },
    ]);
    expect(reportedInput({ inputTokens: 5, cacheReadTokens: 7 })).toBe(12);
    expect(reportedInput({ cacheReadTokens: 7 })).toBeNull();
  });
});
