/**
 * The encoder checks the decoder's limits: a link it writes opens in full, one it refuses would be
 * refused (moved out of codec.test.ts with the codec's split; same tests).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodePermalink,
  encodePermalink,
  encodePermalinkChecked,
  MAX_FRAGMENT_CHARS,
} from './codec.ts';
import { inlineSizeRefusal, MAX_INLINE_BYTES, MAX_LINK_TRANSCRIPT_BYTES } from './inline.ts';
import { DEFAULT_PERMALINK_STATE, type PermalinkState } from './schema.ts';

describe('permalink codec', () => {
  describe('the encoder checks the decoder limits (one constant each)', () => {
    const inlineState = (text: string): PermalinkState => ({
      ...DEFAULT_PERMALINK_STATE,
      source: { kind: 'inline', text, redacted: true },
      view: { ...DEFAULT_PERMALINK_STATE.view, budget: 5_000_000 },
    });

    it('refuses, before deflating, a transcript above MAX_LINK_TRANSCRIPT_BYTES, naming the limit', () => {
      const big = 'x'.repeat(MAX_LINK_TRANSCRIPT_BYTES + 1);
      const r = encodePermalinkChecked(inlineState(big));
      expect(r).toEqual({
        ok: false,
        limit: 'inline-bytes',
        reason: 'The transcript is 2.1 MiB; a link carries at most 2 MiB of transcript.',
      });
      // A link written before this limit still opens, up to the decoder's own (old links keep working).
      expect(MAX_LINK_TRANSCRIPT_BYTES).toBeLessThanOrEqual(MAX_INLINE_BYTES);
      const old = decodePermalink(encodePermalink(inlineState(big)));
      expect(old.state.source).toMatchObject({ kind: 'inline', text: big });
      expect(old.notices).toEqual([]);
      // Past the decoder's limit, the old encoder's link is refused.
      const huge = 'x'.repeat(MAX_INLINE_BYTES + 1);
      const refused = decodePermalink(encodePermalink(inlineState(huge)));
      expect(refused.state.source).toEqual({ kind: 'none' });
      expect(refused.notices.map((n) => n.key)).toEqual(['t']);
      // Exactly at the limit: written, and read back whole.
      const atLimit = 'x'.repeat(MAX_LINK_TRANSCRIPT_BYTES);
      const ok = encodePermalinkChecked(inlineState(atLimit));
      expect(ok.ok).toBe(true);
      if (ok.ok) expect(decodePermalink(ok.fragment).state.source).toMatchObject({ text: atLimit });
    });

    it('counts UTF-8 bytes, not characters (a text of 3-byte characters)', () => {
      const text = '€'.repeat(Math.floor(MAX_LINK_TRANSCRIPT_BYTES / 3) + 1); // < cap chars, > cap bytes
      expect(text.length).toBeLessThan(MAX_LINK_TRANSCRIPT_BYTES);
      const r = encodePermalinkChecked(inlineState(text));
      expect(r.ok).toBe(false);
      if (!r.ok) expect(r.limit).toBe('inline-bytes');
    });

    it('refuses a link longer than the fragment cap', () => {
      const state = inlineState('ab');
      const r = encodePermalinkChecked(state, { maxFragmentChars: 20 });
      expect(encodePermalink(state).length).toBeGreaterThan(20);
      expect(r).toEqual({
        ok: false,
        limit: 'fragment-chars',
        reason: `The link would be ${encodePermalink(state).length} characters; a link this page opens holds at most 20.`,
      });
      expect(MAX_FRAGMENT_CHARS).toBe(2 * 1024 * 1024);
    });

    it('property: a link the encoder writes, the decoder reads back whole; one it refuses, the decoder would refuse', () => {
      fc.assert(
        fc.property(
          fc.string({ unit: 'grapheme', maxLength: 300 }),
          fc.integer({ min: 0, max: 400 }),
          fc.integer({ min: 20, max: 500 }),
          (text, maxInlineBytes, maxFragmentChars) => {
            const opts = { maxInlineBytes, maxFragmentChars };
            const state = inlineState(text);
            const r = encodePermalinkChecked(state, opts);
            const back = decodePermalink(encodePermalink(state), opts);
            if (r.ok) {
              expect(r.fragment).toBe(encodePermalink(state));
              expect(back.state).toEqual(state);
              expect(back.notices).toEqual([]);
            } else expect(back.state.source.kind).toBe('none');
          },
        ),
        { numRuns: 300 },
      );
    });

    it('the cheap estimate refuses only above the limit', () => {
      expect(inlineSizeRefusal(MAX_LINK_TRANSCRIPT_BYTES)).toBeNull();
      expect(inlineSizeRefusal(5_694_714)).toBe(
        'The transcript is 5.5 MiB; a link carries at most 2 MiB of transcript.',
      );
      expect(inlineSizeRefusal(2000, 1024)).toBe(
        'The transcript is 2.0 KiB; a link carries at most 1 KiB of transcript.',
      );
      // Just above the limit never reads as the limit itself.
      expect(inlineSizeRefusal(1025, 1024)).toBe(
        'The transcript is 1.1 KiB; a link carries at most 1 KiB of transcript.',
      );
      expect(inlineSizeRefusal(120 * 1024 * 1024 + 1)).toMatch(/^The transcript is 121 MiB;/);
    });
  });
});
