import { describe, expect, it } from 'vitest';
import { assistant, call, result, transcript, user } from './testing.ts';
import {
  CHARS_PER_4,
  countTokens,
  countableText,
  loadBpeCounter,
  MESSAGE_OVERHEAD,
} from './tokens.ts';

describe('tokens', () => {
  it('never tokenises base64, signatures or redacted thinking as text', () => {
    expect(
      countableText({ type: 'thinking', thinking: 'abc', signature: 'x'.repeat(5000) }).text,
    ).toBe('abc');
    expect(countableText({ type: 'redacted_thinking', bytes: 9000 }).text).toBe('');
    expect(
      countableText({ type: 'image', mediaType: 'image/png', bytes: 1_000_000 }),
    ).toMatchObject({ text: '', fixed: 1600 });
  });

  it('exact o200k counts for OpenAI, special tokens counted as text', async () => {
    const bpe = await loadBpeCounter('o200k_base');
    expect(bpe.count('hello world')).toBe(2);
    expect(bpe.count('log line: <|endoftext|> then <|im_start|>')).toBe(17);
    const t = transcript('openai-chat', [user('hello world')]);
    const table = countTokens(t, 'openai-chat', bpe);
    expect(table.perMessage[0]).toBe(2 + MESSAGE_OVERHEAD);
    expect(table.basis.exact).toBe(true);
  });

  it('Claude counts are labelled estimates, larger than o200k', async () => {
    const bpe = await loadBpeCounter('o200k_base');
    const t = transcript('anthropic-messages', [
      user('The quick brown fox jumps over the lazy dog. '.repeat(20)),
    ]);
    const o = countTokens(t, 'openai-chat', bpe).perMessage[0] as number;
    const c = countTokens(t, 'anthropic', bpe);
    expect(c.basis.exact).toBe(false);
    expect(c.basis.label).toContain('≈');
    expect(c.perMessage[0]).toBeGreaterThan(o);
  });

  it('prefix sums add up', () => {
    const t = transcript(
      'anthropic-messages',
      [user('q'), assistant(call('a', 'f', { x: 1 })), user(result('a', 'r'))],
      { system: [{ text: 'sys prompt', path: 'system' }] },
    );
    const table = countTokens(t, 'anthropic', CHARS_PER_4);
    expect(table.prefix[3]).toBe(Array.from(table.perMessage).reduce((a, b) => a + b, 0));
    expect(table.total).toBe((table.prefix[3] as number) + table.system);
    expect(table.basis.label).toContain('chars/4');
  });
});
