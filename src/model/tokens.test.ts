import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { assistant, call, result, transcript, user } from './testing/index.ts';
import {
  CHARS_PER_4,
  COUNT_PIECE_CHARS,
  countingPieces,
  countTokens,
  hardCutCount,
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

  it('DeepSeek, Kimi, Mistral and Qwen counts are o200k labelled as estimates, not exact', async () => {
    const bpe = await loadBpeCounter('o200k_base');
    const t = transcript('openai-chat', [user('hello world')]);
    const exact = countTokens(t, 'openai-chat', bpe);
    for (const p of ['deepseek', 'kimi', 'mistral', 'qwen', 'deepseek-anthropic'] as const) {
      const c = countTokens(t, p, bpe);
      expect(c.basis.exact).toBe(false);
      expect(c.basis.label).toBe(
        `≈ estimate: o200k_base (not the model's own tokenizer) + ${MESSAGE_OVERHEAD}/message framing`,
      );
      expect(Array.from(c.perMessage)).toEqual(Array.from(exact.perMessage));
    }
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

/** A deterministic pseudo-random string over `alphabet` (LCG), for cut-bound checks. */
function seeded(seed: number, n: number, alphabet: string): string {
  let x = seed >>> 0;
  let s = '';
  for (let i = 0; i < n; i++) {
    x = (Math.imul(x, 1664525) + 1013904223) >>> 0;
    s += alphabet[x % alphabet.length];
  }
  return s;
}

describe('counting long texts in pieces', () => {
  it('countingPieces never loses or duplicates characters and keeps pieces within the limit (property)', () => {
    const text = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 400 }),
      fc.string({ unit: fc.constantFrom('y', ' ', '\n', 'a', '😀', '\t', '.'), maxLength: 400 }),
    );
    fc.assert(
      fc.property(text, fc.integer({ min: 2, max: 60 }), (s, limit) => {
        const pieces = countingPieces(s, limit);
        expect(pieces.join('')).toBe(s);
        for (const p of pieces) expect(p.length).toBeLessThanOrEqual(limit);
        if (s.length > 0) for (const p of pieces) expect(p.length).toBeGreaterThan(0);
        // a surrogate pair is never cut in two
        for (const p of pieces.slice(0, -1)) {
          const last = p.charCodeAt(p.length - 1);
          expect(last >= 0xd800 && last <= 0xdbff).toBe(false);
        }
      }),
      { numRuns: 300 },
    );
    expect(countingPieces('')).toEqual(['']);
    expect(countingPieces('short text')).toEqual(['short text']);
  });

  it('cuts at spaces do not change o200k or cl100k counts (property)', async () => {
    const encoders = [await loadBpeCounter('o200k_base'), await loadBpeCounter('cl100k_base')];
    const word = fc.constantFrom(
      'the',
      'The',
      'fox',
      "it's",
      '12345',
      '3.14',
      'naïve',
      '日本',
      '{"a":',
      '1}',
      '-->',
      '\n',
      '\n\n',
      '  ',
      '\t',
      '<|endoftext|>',
      '😀',
      'e\u0301',
      "'s",
      '.\n',
      ' ',
    );
    const text = fc
      .array(fc.tuple(word, fc.boolean()), { minLength: 20, maxLength: 300 })
      .map((ws) => ws.map(([w, sp]) => (sp ? w + ' ' : w)).join(''));
    fc.assert(
      fc.property(text, fc.integer({ min: 20, max: 200 }), (s, limit) => {
        const pieces = countingPieces(s, limit);
        // only texts whose every cut fell before a space that follows non-whitespace (no hard
        // cut: a hard cut can also land before a space, after a newline)
        fc.pre(
          pieces.slice(1).every((p, i) => p.startsWith(' ') && /\S$/.test(pieces[i] as string)),
        );
        for (const bpe of encoders) {
          const sum = pieces.reduce((n, p) => n + bpe.count(p), 0);
          expect(sum).toBe(bpe.count(s));
        }
      }),
      { numRuns: 100 },
    );
  });

  it('ordinary text: below the limit one call, above it the same count as unsplit', async () => {
    const bpe = await loadBpeCounter('o200k_base');
    const raw = await import('gpt-tokenizer/encoding/o200k_base');
    const opts = { disallowedSpecial: new Set<string>() };
    const short = 'The quick brown fox jumps over the lazy dog.\n'.repeat(40);
    expect(short.length).toBeLessThanOrEqual(COUNT_PIECE_CHARS);
    expect(bpe.count(short)).toBe(raw.countTokens(short, opts));
    const long = 'Call read_file on src/app.ts, then (maybe) 42 more; done! '.repeat(400);
    expect(countingPieces(long).length).toBeGreaterThan(5);
    expect(bpe.count(long)).toBe(raw.countTokens(long, opts));
    expect(hardCutCount(long)).toBe(0);
    const table = countTokens(transcript('openai-chat', [user(long)]), 'openai-chat', bpe);
    expect(table.basis.exact).toBe(true);
    expect(table.basis.label).toBe('exact o200k_base (text) + 3/message framing');
  });

  it('400 KB of one character is counted: exactly chars/4 for `y`, like the unsplit count', async () => {
    const bpe = await loadBpeCounter('o200k_base');
    const raw = await import('gpt-tokenizer/encoding/o200k_base');
    const opts = { disallowedSpecial: new Set<string>() };
    const text = 'y'.repeat(400_000);
    const pieces = countingPieces(text);
    expect(pieces.length).toBe(400_000 / COUNT_PIECE_CHARS); // all hard cuts
    expect(bpe.count(text)).toBe(CHARS_PER_4.count(text)); // 100,000
    expect(hardCutCount(text)).toBe(pieces.length - 1);
    const table = countTokens(transcript('openai-chat', [user(text)]), 'openai-chat', bpe);
    expect(table.perMessage[0]).toBe(100_000 + MESSAGE_OVERHEAD);
    expect(table.basis.exact).toBe(false); // hard cuts: no longer claimed exact
    expect(table.basis.label).toBe(
      '≈ o200k_base (text) + 3/message framing; 199 hard cuts in long runs without spaces (±2 tokens each)',
    );
    // Unsplit on a size the BPE still does quickly: the hard cuts cost nothing here.
    const mid = 'y'.repeat(4 * COUNT_PIECE_CHARS);
    expect(bpe.count(mid)).toBe(raw.countTokens(mid, opts));
    // other single-character runs finish: the sum of identical hard-cut pieces
    for (const ch of ['x', '\n', ' ', '.', '0']) {
      const n = bpe.count(ch.repeat(400_000));
      const one = raw.countTokens(ch.repeat(COUNT_PIECE_CHARS), opts);
      expect(n).toBe(one * (400_000 / COUNT_PIECE_CHARS));
    }
  });

  it('a hard cut changes a count by at most 2 tokens (measured bound; whitespace cuts: 0)', async () => {
    const raw = await import('gpt-tokenizer/encoding/o200k_base');
    const opts = { disallowedSpecial: new Set<string>() };
    const alphabets = ['abcdefghijklmnopqrstuvwxyz', 'ab', 'xyz0123', 'aé日本語ü', 'etaoinshrdlu'];
    let cuts = 0;
    for (let seed = 1; seed <= 60; seed++) {
      const s = seeded(seed, 900, alphabets[seed % alphabets.length] as string);
      const pieces = countingPieces(s, 100 + seed);
      const sum = pieces.reduce((n, p) => n + raw.countTokens(p, opts), 0);
      const d = sum - raw.countTokens(s, opts);
      cuts += pieces.length - 1;
      expect(Math.abs(d)).toBeLessThanOrEqual(2 * (pieces.length - 1));
    }
    expect(cuts).toBeGreaterThan(300);
  });
});
