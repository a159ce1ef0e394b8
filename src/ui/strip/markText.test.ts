import { describe, expect, it } from 'vitest';
import type { StripMark } from '../../state/requests.ts';
import { markText } from './markText.ts';

const mark = (over: Partial<StripMark>): StripMark => ({
  index: 83,
  label: 'call 84 · 1 message',
  tokens: 4869,
  encoding: 'o200k_base',
  usageTokens: null,
  messages: 1,
  tone: 'ok',
  code: null,
  compaction: null,
  retry: false,
  fault: null,
  height: 1,
  ...over,
});

describe('markText', () => {
  it('names what its tokens count and labels the usage the log records apart (newcomer: 2,804 on the mark, 4,869 in the header)', () => {
    expect(markText(mark({ usageTokens: 34765 }), 89, 'Call')).toBe(
      'Call 84 of 89; request 4,869 tokens (o200k_base), 1 message; usage: 34,765 input tokens recorded; passes. call 84 · 1 message',
    );
    // Before the page's tokenizer loads: an estimate, said so.
    expect(markText(mark({ tokens: 2804, encoding: 'chars/4' }), 89, 'Call')).toContain(
      'request ≈2,804 tokens (estimate, chars/4)',
    );
  });

  it('writes counts as the rest of the page does: grouped, a message singular', () => {
    const text = markText(mark({ index: 27_999, messages: 1, tokens: 12_345 }), 28_000, 'Call');
    expect(text).toMatch(
      /^Call 28,000 of 28,000; request 12,345 tokens \(o200k_base\), 1 message;/,
    );
    expect(markText(mark({ messages: 3 }), 89, 'Call')).toContain(', 3 messages;');
  });
});
