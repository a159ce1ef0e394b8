import { gzipSync, strToU8 } from 'fflate';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { decodeBytes, isGzip } from './bytes.ts';

describe('decodeBytes', () => {
  it('decodes UTF-8 and drops a BOM', () => {
    expect(decodeBytes(strToU8('{"a":"é→😀"}'))).toEqual({ ok: true, value: '{"a":"é→😀"}' });
    expect(decodeBytes(new Uint8Array([0xef, 0xbb, 0xbf, 0x5b, 0x5d]))).toEqual({
      ok: true,
      value: '[]',
    });
  });

  it('gunzips .gz input (magic 1f 8b)', () => {
    const gz = gzipSync(strToU8('{"type":"user"}\n{"type":"assistant"}\n'));
    expect(isGzip(gz)).toBe(true);
    expect(decodeBytes(gz)).toEqual({ ok: true, value: '{"type":"user"}\n{"type":"assistant"}\n' });
  });

  it('rejects a truncated gzip stream with a clear message', () => {
    const gz = gzipSync(strToU8('x'.repeat(1000)));
    const r = decodeBytes(gz.slice(0, 12));
    expect(r.ok).toBe(false);
    expect(!r.ok && r.error.kind).toBe('binary');
    expect(!r.ok && r.error.message).toMatch(
      /^This looks like a \.gz file, but it does not decompress/,
    );
  });

  it('rejects NUL bytes and invalid UTF-8, saying where', () => {
    const nul = decodeBytes(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 0x00]));
    expect(nul).toEqual({
      ok: false,
      error: {
        kind: 'binary',
        message:
          'This is not a text file: it contains a NUL byte at byte 4. Drop a .json, .jsonl or .gz transcript.',
      },
    });
    const bad = decodeBytes(new Uint8Array([0x7b, 0x22, 0xff, 0x22, 0x7d]));
    expect(bad).toEqual({
      ok: false,
      error: {
        kind: 'binary',
        message:
          'This is not UTF-8 text: the bytes at offset 2 are not valid UTF-8. Save the transcript as UTF-8 and try again.',
      },
    });
    const overlong = decodeBytes(new Uint8Array([0x41, 0xc0, 0x80]));
    expect(!overlong.ok && overlong.error.message).toContain('offset 1');
  });

  it('property: any string without NUL survives encode → (gzip) → decode; never throws on random bytes', () => {
    fc.assert(
      fc.property(fc.string({ unit: 'grapheme' }), fc.boolean(), (s, gz) => {
        const clean = s.replaceAll('\u0000', '').replace(/^\uFEFF/, '');
        const bytes = strToU8(clean);
        expect(decodeBytes(gz ? gzipSync(bytes) : bytes)).toEqual({ ok: true, value: clean });
      }),
    );
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (b) => {
        const r = decodeBytes(b);
        expect(typeof r.ok).toBe('boolean');
      }),
    );
  });
});
